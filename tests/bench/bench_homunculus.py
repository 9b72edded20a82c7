"""Гомункул benchmark: random games per second, legal-descriptor and view time and size per
decision, heuristic bot decision time p50/p99, and the heuristic ("easy") against random.

Run: .venv/bin/python tests/bench/bench_homunculus.py [games]
No assertions: figures only.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time

import msgspec

from homunculus import commands as c
from homunculus.game import GAME
from tablehall_rules import DecideContext, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all

CODEC = StructCodec(GAME.command_types)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def game(players: int, seed: int, bots: set[int], stats: dict[str, list[float]]) -> list[list[int]]:
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {}, kit.seats_for(players), rng.randbytes(32))
    now = kit.START_MS
    while GAME.outcome(state) is None:
        decision = rng.choice(GAME.pending(state))
        now += 250
        t0 = time.perf_counter()
        moves = GAME.legal(state, decision.seat, now)
        stats["legal_ms"].append((time.perf_counter() - t0) * 1000)
        stats["legal_bytes"].append(len(msgspec.json.encode([CODEC.to_builtins(m.command) for m in moves])))
        t0 = time.perf_counter()
        seen = GAME.view(state, Viewer.of_seat(decision.seat))
        stats["view_ms"].append((time.perf_counter() - t0) * 1000)
        stats["view_bytes"].append(len(msgspec.json.encode(seen)))
        legal = [m for m in expand_all(moves, CODEC, limit=400) if not isinstance(m, c.Surrender)]
        if not legal:
            continue
        if decision.seat in bots:
            t0 = time.perf_counter()
            command = GAME.bot_policy(seen, legal, rng)
            stats["bot_ms"].append((time.perf_counter() - t0) * 1000)
        else:
            command = GAME.random_policy(seen, legal, rng)
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.places


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    stats: dict[str, list[float]] = {k: [] for k in ("legal_ms", "legal_bytes", "view_ms", "view_bytes", "bot_ms")}
    for players in (2, 3, 4):
        t0 = time.perf_counter()
        for seed in range(games // 4 or 1):
            game(players, seed, set(), stats)
        rate = (games // 4 or 1) / (time.perf_counter() - t0)
        print(f"random games, {players} players: {rate:.2f} games/s")
    for key in ("legal_ms", "view_ms"):
        print(f"{key}: mean {statistics.mean(stats[key]):.3f}, p99 {pct(stats[key], 0.99):.3f}")
    for key in ("legal_bytes", "view_bytes"):
        print(f"{key}: mean {statistics.mean(stats[key]):.0f}, max {max(stats[key]):.0f}")
    wins = 0
    for seed in range(games):
        places = game(2, 1000 + seed, {seed % 2}, stats)
        wins += (seed % 2) in places[0]
    lo, hi = wilson(wins, games)
    print(f"easy bot vs random, 2 players: {wins}/{games} won ({lo:.2f}..{hi:.2f})")
    print(f"bot decision ms: p50 {pct(stats['bot_ms'], 0.5):.3f}, p99 {pct(stats['bot_ms'], 0.99):.3f}")


if __name__ == "__main__":
    main()
