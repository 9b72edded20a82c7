"""Draw verification of a finished table's stream.

The seed's SHA-256 is committed in `match.Started` and the seed revealed in
`match.Ended`; every command's draws are recorded in its first event's
metadata. Verification recomputes each draw from the revealed seed and checks
that the counters run without a gap from 0, reporting the first mismatch.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import msgspec

from tablehall_eventstore import Fact
from tablehall_rules import Draw, commitment
from tablehall_rules.randomness import recompute
from tablehall_stream.events import MatchEnded, MatchStarted
from tablehall_stream.names import ENDED, STARTED


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str
    version: int | None = None
    draws_checked: int = 0


def verify_draws_in_stream(events: Iterable[Fact]) -> Verdict:
    started: MatchStarted | None = None
    ended: MatchEnded | None = None
    recorded: list[tuple[int, Draw]] = []
    for event in events:
        if event.type == STARTED:
            started = msgspec.json.decode(event.payload, type=MatchStarted)
        elif event.type == ENDED:
            ended = msgspec.json.decode(event.payload, type=MatchEnded)
        for raw in (event.metadata or {}).get("draws") or ():
            recorded.append((event.version, msgspec.convert(raw, Draw)))
    if started is None:
        return Verdict(False, "no match.Started event: not a match stream")
    if ended is None:
        return Verdict(False, "the match has not ended: the seed is not revealed yet")
    seed = bytes.fromhex(ended.seed_hex)
    if commitment(seed) != started.seed_sha256:
        return Verdict(False, "the revealed seed does not match the commitment in match.Started")
    for expected, (version, draw) in enumerate(recorded):
        if draw.n != expected:
            return Verdict(False, f"draw counter {draw.n} where {expected} was due", version, expected)
        if recompute(seed, draw) != draw.value:
            return Verdict(False, f"draw {draw.n} ({draw.kind}) does not follow from the seed", version, expected)
    return Verdict(True, "verified", None, len(recorded))
