"""Bot benchmark: strong vs easy, strong vs random and easy vs random, for every game that exists.

Heads-up matches (two seats, the sides swapping seats every game) played
through the game's own rules (`start`/`decide`/`evolve`), each bot deciding
from its seat's view and legal commands only, exactly as the bot service
does. For each pairing: the first side's win rate (a shared first place
counts as a split win) with a 95 % Wilson confidence interval, and the time
each difficulty took per decision (p50/p99).

Games: Пузиполия (round limit 20, so a match is ~250 decisions), the
platform's test game (a dice race to 20), Драконы, Магнаты (round limit 20)
and Гомункул (to the rules' own end; tests/bench/bench_homunculus.py has its
own pairings with more figures).

    make bench-bot      (or: .venv/bin/python tests/bench/bench_bot.py [--games N] [--think-ms MS] [--jobs J])
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablehall_bot.players import Difficulty, Player
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.search.ismcts import SearchSettings

from tablehall_rules import DecideContext, DrawSource, RuleError, SeatInfo, Viewer

GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "puzzipolia": ("puzzipolia.game", {"round_limit": 20}),
    "testgame": ("testgame.game", {"target": 20}),
    "dragons": ("dragons.game", {}),
    "magnates": ("magnates.game", {"round_limit": 20}),
    "homunculus": ("homunculus.game", {}),
}
PAIRINGS = (
    (Difficulty.STRONG, Difficulty.EASY),
    (Difficulty.STRONG, Difficulty.RANDOM),
    (Difficulty.EASY, Difficulty.RANDOM),
)
MAX_MOVES = 20_000


@dataclass(frozen=True)
class Result:
    score: float  # the first side's share of the win: 1, 0.5 (shared) or 0
    times: dict[str, list[float]]


def _game(name: str) -> Any:
    module = __import__(GAMES[name][0], fromlist=["GAME"])
    return module.GAME


def play(job: tuple[str, str, str, int, float]) -> Result:
    name, first, second, seed, think_ms = job
    game = _game(name)
    hooks = GameHooks(game)
    sides = (Difficulty(first), Difficulty(second))
    seat_of_first = seed % 2
    kinds = [sides[0], sides[1]] if seat_of_first == 0 else [sides[1], sides[0]]
    settings = SearchSettings(think_ms=think_ms)
    players = [Player(hooks, kind, random.Random(seed * 7 + i), settings) for i, kind in enumerate(kinds)]
    draws = DrawSource(seed.to_bytes(8, "big") * 4)
    seats = [SeatInfo(i, f"u{i}", f"P{i}", True) for i in range(2)]
    now = 1_000
    state = None
    for event in game.start(GAMES[name][1], seats, DecideContext(None, now, draws)):
        state = game.evolve(state, event)
    times: dict[str, list[float]] = {k.value: [] for k in kinds}
    for _ in range(MAX_MOVES):
        if game.outcome(state) is not None:
            break
        decision = game.pending(state)[0]
        legal = hooks.legal(state, decision.seat, now)
        now += 100
        command = None
        if legal:
            view = game.view(state, Viewer.of_seat(decision.seat))
            started = time.perf_counter()
            command = players[decision.seat].choose(view, decision.seat, legal).command
            times[kinds[decision.seat].value].append(time.perf_counter() - started)
        try:
            if command is None:
                raise RuleError("NO_MOVE", "no legal move", "нет хода")
            events = game.decide(state, command, DecideContext(decision.seat, now, draws))
        except RuleError:
            now = max(now, decision.deadline_ms)
            fallback = game.default_command(state, decision)
            events = game.decide(state, fallback, DecideContext(decision.seat, now, draws, timed_out=decision))
        for event in events:
            state = game.evolve(state, event)
    outcome = game.outcome(state)
    first_place = outcome.places[0] if outcome is not None and outcome.places else []
    score = 1 / len(first_place) if seat_of_first in first_place else 0.0
    return Result(score, times)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="matches per pairing and game")
    parser.add_argument("--think-ms", type=float, default=200.0, help="strong bot's think time per decision")
    parser.add_argument("--jobs", type=int, default=max(1, (multiprocessing.cpu_count() or 1)))
    parser.add_argument("--only", choices=sorted(GAMES), default=None)
    parser.add_argument(
        "--pairing", choices=[f"{a.value}-{b.value}" for a, b in PAIRINGS], default=None, help="one pairing only"
    )
    args = parser.parse_args()
    print(
        f"bench_bot: {args.games} heads-up games per pairing, strong think {args.think_ms:g} ms, {args.jobs} processes"
    )
    with multiprocessing.Pool(args.jobs) as pool:
        for name in [args.only] if args.only else list(GAMES):
            for first, second in PAIRINGS:
                if args.pairing and args.pairing != f"{first.value}-{second.value}":
                    continue
                started = time.perf_counter()
                jobs = [(name, first.value, second.value, seed, args.think_ms) for seed in range(args.games)]
                results = pool.map(play, jobs, chunksize=1)
                wins = sum(r.score for r in results)
                lo, hi = wilson(wins, len(results))
                line = (
                    f"{name:11} {first.value:>6} vs {second.value:<6}: {first.value} wins {wins / len(results):6.1%}"
                    f" (95% CI {lo:.1%}-{hi:.1%}, {len(results)} games, {time.perf_counter() - started:.0f} s)"
                )
                for kind in (first, second):
                    samples = [t for r in results for t in r.times.get(kind.value, [])]
                    line += (
                        f"; {kind.value} decision p50 {pct(samples, 0.5) * 1000:.2f} ms"
                        f" p99 {pct(samples, 0.99) * 1000:.2f} ms (n={len(samples)}, mean {statistics.fmean(samples or [0]) * 1000:.2f} ms)"
                    )
                print(line, flush=True)


if __name__ == "__main__":
    main()
