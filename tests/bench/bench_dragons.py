"""Драконы benchmark: engine speed and the easy bot against random play.

Run: .venv/bin/python tests/bench/bench_dragons.py [random_games] [bot_games]
Prints random games per second, per decision the legal-descriptor time and size (JSON bytes,
descriptors, commands spelled out) and the view time and size, the easy bot's decision time
(p50/p99) and its win rate against a random player (95 % Wilson interval). No assertions.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from typing import Any

import msgspec

from dragons.commands import COMMAND_TYPES
from dragons.game import GAME
from tablehall_rules import DecideContext, DrawSource, SeatInfo, StructCodec, Viewer
from tablehall_rules.legal import count, expand_all

CODEC = StructCodec(COMMAND_TYPES)
SEATS = [SeatInfo(0, "u0", "Red"), SeatInfo(1, "u1", "Blue")]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(seed: int, players: tuple[str, str], stats: dict[str, list[float]]) -> Any:
    rng = random.Random(seed)
    source = DrawSource(rng.randbytes(32))
    now = 1_700_000_000_000
    state: Any = None
    for e in GAME.start({}, SEATS, DecideContext(None, now, source)):
        state = GAME.evolve(state, e)
    while GAME.outcome(state) is None:
        decision = rng.choice(GAME.pending(state))
        seat = decision.seat
        now += 500
        t = time.perf_counter()
        moves = GAME.legal(state, seat, now)
        stats["legal_s"].append(time.perf_counter() - t)
        stats["legal_bytes"].append(len(msgspec.json.encode([CODEC.to_builtins(m) for m in moves])))
        stats["descriptors"].append(len(moves))
        stats["spelled"].append(count(moves))
        t = time.perf_counter()
        view = GAME.view(state, Viewer.of_seat(seat))
        stats["view_s"].append(time.perf_counter() - t)
        stats["view_bytes"].append(len(msgspec.json.encode(view)))
        legal = expand_all(moves, CODEC)
        if players[seat] == "bot":
            t = time.perf_counter()
            command = GAME.bot_policy(view, legal, rng)
            stats["bot_s"].append(time.perf_counter() - t)
        else:
            command = rng.choice(legal)  # the bot service's random player for Драконы
        for e in GAME.decide(state, command, DecideContext(seat, now, source)):
            state = GAME.evolve(state, e)
    return state


def main() -> None:
    random_games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    bot_games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    stats: dict[str, list[float]] = {
        k: [] for k in ("legal_s", "legal_bytes", "descriptors", "spelled", "view_s", "view_bytes", "bot_s")
    }
    started = time.perf_counter()
    for game in range(random_games):
        play(1000 + game, ("random", "random"), stats)
    elapsed = time.perf_counter() - started
    decisions = len(stats["legal_s"])
    print(
        f"random games: {random_games} in {elapsed:.1f} s = {random_games / elapsed:.2f} games/s ({decisions / random_games:.0f} decisions a game, legal and view measured at each)"
    )
    print(
        f"legal per decision: mean {statistics.mean(stats['legal_s']) * 1000:.1f} ms, p99 {pct(stats['legal_s'], 0.99) * 1000:.1f} ms; "
        f"descriptors mean {statistics.mean(stats['descriptors']):.0f} max {max(stats['descriptors']):.0f}; "
        f"JSON mean {statistics.mean(stats['legal_bytes']) / 1024:.1f} KiB max {max(stats['legal_bytes']) / 1024:.1f} KiB; "
        f"commands spelled out mean {statistics.mean(stats['spelled']):.0f} max {max(stats['spelled']):.0f}"
    )
    print(
        f"view per decision: mean {statistics.mean(stats['view_s']) * 1000:.2f} ms, "
        f"JSON mean {statistics.mean(stats['view_bytes']) / 1024:.1f} KiB max {max(stats['view_bytes']) / 1024:.1f} KiB"
    )
    wins = 0.0
    margins: list[int] = []
    for game in range(bot_games):
        bot_seat = game % 2
        players = ("bot", "random") if bot_seat == 0 else ("random", "bot")
        final = play(5000 + game, players, stats)
        first = final.places[0]
        wins += (1.0 / len(first)) if bot_seat in first else 0.0
        margins.append(final.final[bot_seat] - final.final[1 - bot_seat])
    if bot_games:
        lo, hi = wilson(wins, bot_games)
        print(
            f"easy bot vs random: {wins:.1f}/{bot_games} won = {wins / bot_games:.0%} (95 % CI {lo:.0%}–{hi:.0%}); "
            f"mean final margin {statistics.mean(margins):+.1f}"
        )
        print(
            f"bot decision: p50 {pct(stats['bot_s'], 0.5) * 1000:.1f} ms, p99 {pct(stats['bot_s'], 0.99) * 1000:.1f} ms "
            f"over {len(stats['bot_s'])} decisions"
        )


if __name__ == "__main__":
    main()
