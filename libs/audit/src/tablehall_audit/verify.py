"""Verification of a finished table, with no trust in the server that wrote it.

In stream order, it checks:
1. the hash chain (nothing edited, removed or moved; since hash scheme 2 the
   metadata too: who acted, the recorded command, its draws);
2. the seed revealed in `match.Ended` against the commitment in `match.Started`;
3. each command again (with the installed rules: a stream recorded under an
   earlier rules version only where the game lists it, `Game.earlier_rules`,
   every discrepancy then naming what changed): `match.Started` by the game's
   `start`, every other
   command by `decide` on the state before it, rebuilt from the metadata the
   match service recorded (`command`, `seat`, `now_ms`, `timeout`,
   `draw_start`); the events must be exactly those the rules produce (a stored
   event of a type the game has retired, `Game.retired_events`, stands for the
   event it maps to, or, mapped to none, must change nothing in the state), its
   draws exactly those recomputed from the seed, the draw counter must run
   without a gap, a timeout's command must be the game's default move, and
   the recorded open decisions (`pending`) and the outcome must follow;
4. that the match ended and nothing but lobby events came after the end;
5. who acted (`audit.senders`): each lobby event is one the lobby's rules
   allow from its recorded sender, `match.Started` seats the lobby's roster,
   and a seat's command comes from its player or one of our services.

The first discrepancy is reported, by version; else "verified".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from tablehall_audit.chain import chain_break, uncovered
from tablehall_audit.events import AuditEvent, StreamCopy
from tablehall_audit.senders import SenderError, Senders
from tablehall_rules import DecideContext, DrawSource, PendingDecision, RuleError, StructCodec, clone, commitment
from tablehall_rules.registry import get_game
from tablehall_stream.codecs import event_codec
from tablehall_stream.events import MatchEnded, MatchStarted
from tablehall_stream.names import ENDED, STARTED, split_type


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str
    version: int = 0  # verified: the last version checked; else where the first discrepancy is
    events_checked: int = 0
    commands_checked: int = 0
    draws_checked: int = 0


class Discrepancy(Exception):
    def __init__(self, version: int, message: str) -> None:
        super().__init__(message)
        self.version = version
        self.message = message


def _as_stored(value: Any) -> Any:
    """`value` as it reads back from stored JSON (e.g. integer keys become strings)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _groups(events: Sequence[AuditEvent]) -> list[list[AuditEvent]]:
    """Consecutive events of one command (same command_id); others alone."""
    groups: list[list[AuditEvent]] = []
    for event in events:
        cid = event.metadata.get("command_id")
        if groups and cid is not None and groups[-1][-1].metadata.get("command_id") == cid:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


def _revealed_seed(events: Sequence[AuditEvent]) -> tuple[MatchStarted, bytes]:
    started = next((e for e in events if e.type == STARTED), None)
    ended = next((e for e in events if e.type == ENDED), None)
    if started is None:
        raise Discrepancy(0, "no match.Started event: not a match stream")
    if ended is None:
        raise Discrepancy(len(events), "the match has not ended: its seed is not revealed")
    try:
        head = msgspec.json.decode(started.payload, type=MatchStarted)
        seed = bytes.fromhex(msgspec.json.decode(ended.payload, type=MatchEnded).seed_hex)
    except (msgspec.DecodeError, ValueError) as exc:
        raise Discrepancy(ended.version, f"unreadable match event: {exc}") from exc
    if commitment(seed) != head.seed_sha256:
        raise Discrepancy(ended.version, "the revealed seed does not match the commitment in match.Started")
    return head, seed


class _Replay:
    """Re-decides a stream command by command."""

    def __init__(self, started: MatchStarted, seed: bytes) -> None:
        self.started = started
        self.seed = seed
        self.game: Any = get_game(started.game)
        self.events = event_codec(started.game)
        self.commands: StructCodec[Any] = StructCodec(self.game.command_types)
        self.state: Any = None
        self.counter = 0
        self.has_started = False
        self.ended = False
        # the rules ended the match but its reveal came as an event of its own
        self.awaiting_end = False
        self.commands_checked = 0
        self.draws_checked = 0
        self.senders = Senders()
        # a stream of earlier rules these re-decide (`Game.earlier_rules`): what changed since
        self.rules_changed = ""

    def check_rules_version(self, version: int) -> None:
        recorded, installed = self.started.rules_version, self.game.rules_version
        if recorded == installed:
            return
        what = f"recorded under {self.started.game} rules {recorded!r}; these are rules {installed!r}"
        change = self.game.earlier_rules.get(recorded)
        if change is None:
            raise Discrepancy(version, what)
        self.rules_changed = f"{what}, which changed: {change}"

    def group(self, group: list[AuditEvent]) -> None:
        first = group[0]
        if self.ended:
            if all(e.type.startswith("lobby.") for e in group):
                for event in group:
                    self._sender(lambda event=event: self.senders.lobby(event))
                return
            raise Discrepancy(first.version, f"{first.type} after the match ended")
        if self.awaiting_end and not (first.type == ENDED and len(group) == 1):
            raise Discrepancy(first.version, "the match is over but did not end")
        if first.type.startswith("lobby."):
            if len(group) > 1 and any(not e.type.startswith("lobby.") for e in group):
                raise Discrepancy(first.version, "a lobby command produced match events")
            for event in group:
                self._sender(lambda event=event: self.senders.lobby(event))
            return
        if first.type == STARTED:
            self._start(group)
        elif first.type == ENDED:
            self._ended(first, now_ms=None)
        else:
            self._command(group)

    def _start(self, group: list[AuditEvent]) -> None:
        first = group[0]
        if self.has_started:
            raise Discrepancy(first.version, "a second match.Started")
        self.has_started = True
        self.check_rules_version(first.version)
        seats = [s.user_id for s in self.started.seats]
        self._sender(lambda: self.senders.started(first.version, seats))
        options = self.started.options
        try:
            canonical = dict(self.game.parse_options(options))
        except RuleError as exc:
            raise Discrepancy(first.version, f"the rules refuse the recorded options: {exc.reason}") from exc
        if canonical != options:
            raise Discrepancy(first.version, "the recorded options are not the canonical options the rules give")
        rng = DrawSource(self.seed, 0)
        ctx = DecideContext(seat=None, now_ms=self.started.started_at_ms, rng=rng)
        try:
            expected = self.game.start(options, list(self.started.seats), ctx)
        except RuleError as exc:
            raise Discrepancy(first.version, f"the rules refuse to start this match: {exc.reason}") from exc
        rest = group[1:]
        draws_at = rest[0] if rest else first
        self._match(rest, expected, first.version, now_ms=self.started.started_at_ms)
        self._draws(draws_at, rng, start=0)
        self._pending(group[-1])
        self.commands_checked += 1

    def _command(self, group: list[AuditEvent]) -> None:
        first = group[0]
        meta = first.metadata
        if not self.has_started:
            raise Discrepancy(first.version, f"{first.type} before match.Started")
        if "command" not in meta:
            raise Discrepancy(first.version, f"{first.type} carries no recorded command")
        try:
            command = self.commands.from_builtins(meta["command"])
            seat = meta.get("seat")
            now_ms = int(meta["now_ms"])
            draw_start = int(meta.get("draw_start", -1))
        except (msgspec.ValidationError, msgspec.DecodeError, KeyError, TypeError, ValueError) as exc:
            raise Discrepancy(first.version, f"unreadable command metadata: {exc}") from exc
        if draw_start != self.counter:
            raise Discrepancy(first.version, f"draws start at counter {draw_start} where {self.counter} was due")
        seats = self.started.seats
        seat_user = seats[seat].user_id if isinstance(seat, int) and 0 <= seat < len(seats) else None
        self._sender(lambda: Senders.command(first.version, meta, seat, seat_user))
        timed_out = self._default_move(first, seat, command, meta.get("decision_key")) if meta.get("timeout") else None
        rng = DrawSource(self.seed, draw_start)
        ctx = DecideContext(seat=seat, now_ms=now_ms, rng=rng, timed_out=timed_out)
        try:
            expected = self.game.decide(self.state, command, ctx)
        except RuleError as exc:
            raise Discrepancy(first.version, f"the rules refuse the recorded command: {exc.reason}") from exc
        self._match(group, expected, first.version, now_ms=now_ms)
        self._draws(first, rng, start=draw_start)
        self._pending(group[-1])
        self.commands_checked += 1

    @staticmethod
    def _sender(check: Any) -> None:
        try:
            check()
        except SenderError as exc:
            raise Discrepancy(exc.version, exc.message) from exc

    def _default_move(self, event: AuditEvent, seat: Any, command: msgspec.Struct, key: Any) -> PendingDecision:
        """The open decision a recorded timeout names, checked: it was open, it had a
        clock, and the recorded move is the game's default for it."""
        pending: list[PendingDecision] = self.game.pending(self.state)
        decision = next((d for d in pending if d.key == key and d.seat == seat), None)
        if decision is None:
            raise Discrepancy(event.version, f"a timeout for decision {key!r}, which was not open")
        if not decision.has_clock:
            raise Discrepancy(event.version, f"a timeout for reaction window {key!r}, which has no clock")
        if self.game.default_command(self.state, decision) != command:
            raise Discrepancy(event.version, "a timeout's move is not the game's default move")
        return decision

    def _match(self, stored: list[AuditEvent], expected: list[msgspec.Struct], version: int, now_ms: int) -> None:
        """Stored events == the rules' events (then match.Ended if the rules say the match is over).
        A stored event of a type the game has retired (`Game.retired_events`) stands for the event
        its mapping names, or, mapped to none, must add nothing to the state (the events before
        it imply it)."""
        at = 0
        for event in expected:
            at = self._skip_implied(stored, at, event)
            if at >= len(stored):
                raise Discrepancy(version, f"the rules produce more events than recorded ({len(expected)})")
            got = stored[at]
            decoded = self._decoded(got)
            retired = self.game.retired_events.get(split_type(got.type)[1])
            if retired is not None:
                decoded = retired(decoded)
            else:
                name = f"{self.game.id}.{self.events.name(event)}"
                if got.type != name:
                    raise Discrepancy(got.version, f"{got.type} recorded where the rules produce {name}")
            if decoded != event:
                raise Discrepancy(got.version, f"{got.type} differs from what the rules produce")
            self.state = self.game.evolve(self.state, event)
            at += 1
        extra = stored[self._skip_implied(stored, at, None) :]
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            if not extra:
                self.awaiting_end = True
                return
            if extra[0].type != ENDED:
                raise Discrepancy(extra[0].version, "the match is over but did not end")
            self._ended(extra[0], now_ms=now_ms)
            extra = extra[1:]
        if extra:
            raise Discrepancy(extra[0].version, f"{extra[0].type} is more than the rules produce")

    def _decoded(self, got: AuditEvent) -> msgspec.Struct:
        try:
            event: msgspec.Struct = self.events.decode_stored(split_type(got.type)[1], got.schema_version, got.payload)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise Discrepancy(got.version, f"unreadable {got.type}: {exc}") from exc
        return event

    def _skip_implied(self, stored: list[AuditEvent], at: int, due: msgspec.Struct | None) -> int:
        """Past the retired events from `at` on that the rules write no event for (mapped to none,
        or to another than `due`) and that change nothing in the state; one that would change it
        is a discrepancy."""
        while at < len(stored) and stored[at].type.startswith(f"{self.game.id}."):
            got = stored[at]
            retired = self.game.retired_events.get(split_type(got.type)[1])
            if retired is None:
                return at
            decoded = self._decoded(got)
            if due is not None and retired(decoded) == due:
                return at
            before = msgspec.to_builtins(self.state)
            after = self.game.evolve(clone(self.state), decoded)
            if msgspec.to_builtins(after) != before:
                raise Discrepancy(got.version, f"{got.type}, retired, says what the rules' events do not")
            at += 1
        return at

    def _ended(self, event: AuditEvent, now_ms: int | None) -> None:
        outcome = self.game.outcome(self.state) if self.state is not None else None
        if outcome is None:
            raise Discrepancy(event.version, "match.Ended while the rules say the match goes on")
        ended = msgspec.json.decode(event.payload, type=MatchEnded)
        if ended.outcome != _as_stored(outcome):
            raise Discrepancy(event.version, "the recorded outcome differs from the rules' outcome")
        if now_ms is not None and ended.ended_at_ms != now_ms:
            raise Discrepancy(event.version, "match.Ended is not timed at its command")
        self.ended = True
        self.awaiting_end = False

    def _draws(self, event: AuditEvent, rng: DrawSource, start: int) -> None:
        recorded = event.metadata.get("draws") or []
        if recorded != _as_stored(rng.draws):
            raise Discrepancy(event.version, "the recorded draws differ from those recomputed from the seed")
        if rng.draws and event.metadata.get("draw_start", start) != start:
            raise Discrepancy(event.version, "the recorded draws do not start where the counter stood")
        self.counter = rng.counter
        self.draws_checked += len(rng.draws)

    def _pending(self, last: AuditEvent) -> None:
        if "pending" not in last.metadata:
            raise Discrepancy(last.version, "the command's last event records no open decisions")
        if last.metadata["pending"] != _as_stored(self.game.pending(self.state)):
            raise Discrepancy(last.version, "the recorded open decisions differ from the rules'")


def verify_stream(copy: StreamCopy) -> Verdict:
    """Verify a finished table's stream (see the module docstring)."""
    events = copy.events
    if not events:
        return Verdict(False, "no such table: the stream is empty")
    broken = chain_break(events, copy.head_version, copy.head_hash)
    replay: _Replay | None = None
    try:
        started, seed = _revealed_seed(events)
        replay = _Replay(started, seed)
        for group in _groups(events):
            if broken is not None and group[-1].version >= broken[0]:
                raise Discrepancy(broken[0], broken[1])
            replay.group(group)
        if broken is not None:
            raise Discrepancy(broken[0], broken[1])
        if not replay.ended:
            raise Discrepancy(events[-1].version, "the match did not end")
    except Discrepancy as found:
        if broken is not None and broken[0] <= found.version:
            found = Discrepancy(broken[0], broken[1])
        changed = f" ({replay.rules_changed})" if replay is not None and replay.rules_changed else ""
        return Verdict(
            False,
            f"version {found.version}: {found.message}{changed}",
            found.version,
            len(events),
            replay.commands_checked if replay else 0,
            replay.draws_checked if replay else 0,
        )
    notes = []
    if replay.rules_changed:
        notes.append(replay.rules_changed)
    if old := uncovered(events):
        notes.append(f"{old} events from before hash scheme 2: their metadata is not covered by the chain")
    if replay.senders.unchecked:
        notes.append(f"{replay.senders.unchecked} lobby events from before senders were recorded")
    message = "verified" + (f" ({'; '.join(notes)})" if notes else "")
    return Verdict(True, message, events[-1].version, len(events), replay.commands_checked, replay.draws_checked)
