"""Магнаты heuristic tuning: one set of heuristic weights against the easy bot, in-process.

No search and no views: each side's move is `magnates.bot.choose_in_state` on the full state (the
same moves as from the view, tested), so a heads-up game at round limit 20 takes a few ms and a
sweep plays thousands. Common random numbers: every seed is played twice, the candidate in seat 0
and then in seat 1, from the same table seed (the same dice while the two games agree). The
opponent is the bot service's easy player (`EASY` weights, 15 % random moves, as
`tablehall_bot.players` plays it), or `random`, or `heuristic` (`EASY` without noise).

    .venv/bin/python tests/bench/tune_magnates.py --games 2000 --seed 0 --set reserve=800 --set upgrade_by_gain=1
    .venv/bin/python tests/bench/tune_magnates.py --games 2000 --sweep reserve=500,800,1000,1500

A candidate is `STRONG` changed by `--set` (or `EASY` with `--base easy`); `--sweep key=v1,v2`
plays one candidate per value. The figure is the candidate's share of the wins (a shared first
place counts half) with a 95 % Wilson interval; tune on one seed range and report on another.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import random
import time
from typing import Any

from bench_magnates import wilson

from magnates import bot
from magnates.game import GAME
from magnates.state import State
from tablehall_rules import DecideContext, DrawSource, SeatInfo

EASY_NOISE = 0.15
ROUND_LIMIT = 20


def _start(seed: int) -> tuple[State, DrawSource]:
    draws = DrawSource(seed.to_bytes(8, "big") * 4)
    seats = [SeatInfo(i, f"u{i}", f"P{i}", True) for i in range(2)]
    state: Any = None
    for event in GAME.start({"round_limit": ROUND_LIMIT, "clock_ms": 30000}, seats, DecideContext(None, 0, draws)):
        state = GAME.evolve(state, event)
    return state, draws


def _move(kind: str, weights: bot.Weights, state: State, seat: int, rng: random.Random) -> Any:
    if kind == "random" or (kind == "easy" and rng.random() < EASY_NOISE):
        return rng.choice(bot.legal_commands(state, seat))
    return bot.choose_in_state(state, seat, rng, weights)


def play(job: tuple[dict[str, Any], str, str, int, int]) -> float:
    """The candidate's score in one game: 1 a win, 0.5 a shared first place, 0 a loss."""
    overrides, base, opponent, seed, cand_seat = job
    weights = dataclasses.replace(bot.EASY if base == "easy" else bot.STRONG, **overrides)
    state, draws = _start(seed)
    rng = random.Random(seed * 31 + cand_seat)
    now = 0
    while state.phase != "over":
        seat = state.turn
        if seat == cand_seat:
            command = _move("heuristic", weights, state, seat, rng)
        else:
            command = _move(opponent, bot.EASY, state, seat, rng)
        now += 100
        for event in GAME.decide(state, command, DecideContext(seat, now, draws)):
            state = GAME.evolve(state, event)
    first = state.places[0]
    return 1 / len(first) if cand_seat in first else 0.0


def _value(raw: str) -> Any:
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per candidate (each seed twice, seats swapped)")
    parser.add_argument("--seed", type=int, default=0, help="the first table seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--base", choices=("strong", "easy"), default="strong")
    parser.add_argument("--opponent", choices=("easy", "random", "heuristic"), default="easy")
    parser.add_argument("--set", action="append", default=[], help="key=value on the base weights")
    parser.add_argument("--sweep", default=None, help="key=v1,v2,...: one candidate per value")
    args = parser.parse_args()
    fixed = {k: _value(v) for k, v in (item.split("=", 1) for item in args.set)}
    candidates = [fixed]
    if args.sweep:
        key, values = args.sweep.split("=", 1)
        candidates = [{**fixed, key: _value(v)} for v in values.split(",")]
    with multiprocessing.Pool(args.jobs) as pool:
        for overrides in candidates:
            for key, value in overrides.items():
                if not isinstance(getattr(bot.EASY, key), bool):
                    continue
                overrides[key] = bool(value)
            started = time.perf_counter()
            seeds = range(args.seed, args.seed + args.games // 2)
            jobs = [(overrides, args.base, args.opponent, s, seat) for s in seeds for seat in (0, 1)]
            scores = pool.map(play, jobs, chunksize=20)
            wins = sum(scores)
            lo, hi = wilson(wins, len(scores))
            print(
                f"{args.base}+{overrides} vs {args.opponent}: {wins / len(scores):.1%} (95% CI {lo:.1%}-{hi:.1%},"
                f" {len(scores)} games, seeds {args.seed}-{args.seed + args.games // 2 - 1},"
                f" {time.perf_counter() - started:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
