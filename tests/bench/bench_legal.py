"""Legal moves at scale: the size and render time of a TableView whose decision
has 3,000 legal commands, as descriptors and as the concrete list they replace,
beside today's Пузиполия view.

Run: .venv/bin/python tests/bench/bench_legal.py [repeats]
The 3,000-move decision is synthetic (no product game has one yet): 30 "pieces",
each a descriptor with 100 target cells (a Choice), the shape Гомункул's
per-piece targets will have; the concrete list holds the same 3,000 commands.
Figures only, no assertions.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

import msgspec

from puzzipolia import commands as c
from puzzipolia import simulate
from puzzipolia.game import GAME
from puzzipolia.state import State
from tablehall_match.app import ViewResult
from tablehall_match.grpc_port import view_to_proto
from tablehall_rules import Viewer
from tablehall_rules.codec import StructCodec
from tablehall_rules.disclosure import visible_decisions
from tablehall_rules.legal import Choice, LegalMove, expand_all, move

CODEC = StructCodec(GAME.command_types)


def mid_game_state() -> tuple[State, int]:
    """A state of a 4-player random game, 120 commands in, with the seat to move."""
    found: list[tuple[State, int]] = []

    def keep(state: State, _new: list[msgspec.Struct]) -> None:
        if len(found) < 120 and GAME.pending(state):
            found.append((msgspec.json.decode(msgspec.json.encode(state), type=State), GAME.pending(state)[0].seat))

    simulate.play(["random"] * 4, 3, options={"round_limit": 30}, quitting=False, check=keep)
    return found[-1]


def result(state: State, seat: int, legal: list[LegalMove]) -> ViewResult:
    viewer = Viewer.of_seat(seat)
    return ViewResult(
        table_id="t-bench",
        game="puzzipolia",
        version=120,
        role="seat",
        seat=seat,
        view=GAME.view(state, viewer),
        legal=legal,
        decisions=visible_decisions(GAME.pending(state), viewer),
        finished=False,
        outcome=None,
        teams=[],
    )


def timed(fn: Callable[[], bytes], repeats: int) -> tuple[float, float, int]:
    samples = []
    size = 0
    for _ in range(repeats):
        started = time.perf_counter()
        size = len(fn())
        samples.append((time.perf_counter() - started) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99) - 1], size


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    state, seat = mid_game_state()
    today = GAME.legal(state, seat, state.last_at_ms)
    pieces = [move(c.Build(square=0), square=Choice(list(range(100)))) for _ in range(30)]
    concrete = [LegalMove(x) for x in expand_all(pieces, CODEC)]
    rows = [
        ("Пузиполия view, its own legal moves", today),
        ("3,000 moves as 30 descriptors", pieces),
        ("3,000 moves as a concrete list", concrete),
    ]
    print(f"legal moves at scale ({repeats} renders each; render = the view's protobuf, serialized)")
    for name, legal in rows:
        view = result(state, seat, legal)
        p50, p99, size = timed(lambda: view_to_proto(view).SerializeToString(), repeats)  # noqa: B023  (called at once)
        commands = len(expand_all(legal, CODEC))
        print(f"  {name:40s} commands {commands:5d}  bytes {size:7,d}  render p50 {p50:8.1f} µs  p99 {p99:8.1f} µs")
    started = time.perf_counter()
    for _ in range(20):
        expand_all(pieces, CODEC)
    print(
        f"  spelling out 3,000 commands from descriptors (ListLegalCommands, bots): {(time.perf_counter() - started) / 20 * 1e3:.1f} ms"
    )
    rng = random.Random(1)
    probe = [c.Build(square=rng.randrange(100)) for _ in range(1000)]
    from tablehall_rules.legal import admitted

    started = time.perf_counter()
    for command in probe:
        admitted(pieces, command, CODEC)
    print(
        f"  admitted() check against 30 descriptors: {(time.perf_counter() - started) / len(probe) * 1e6:.1f} µs per command"
    )


if __name__ == "__main__":
    main()
