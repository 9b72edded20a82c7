"""Пузиполия benchmark: the bot against random players, and engine speed.

Run: .venv/bin/python tests/bench/bench_puzzipolia.py [games]
Prints the bot's win rate (95 % Wilson interval) over games of one bot and three
random legal players, the average game length, random games per second and bot
decisions per second. No assertions: figures only.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any

from puzzipolia import bot, simulate

SEATS = 4
ROUND_LIMIT = 60


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    thinking = [0.0, 0]
    choose = bot.choose

    def timed(view: dict[str, Any], legal: list[Any], rng: Any) -> Any:
        t = time.perf_counter()
        result = choose(view, legal, rng)
        thinking[0] += time.perf_counter() - t
        thinking[1] += 1
        return result

    viewing = [0.0]
    make_view = simulate.view

    def timed_view(state: Any, viewer: Any) -> dict[str, Any]:
        t = time.perf_counter()
        result = make_view(state, viewer)
        viewing[0] += time.perf_counter() - t
        return result

    simulate.bot.choose = timed  # type: ignore[assignment]
    simulate.view = timed_view  # type: ignore[assignment]
    wins = 0.0
    rounds = commands = 0
    started = time.perf_counter()
    for game in range(games):
        kinds = ["random"] * SEATS
        kinds[game % SEATS] = "bot"
        record = simulate.play(
            kinds, 10_000 + game, options={"round_limit": ROUND_LIMIT}, timeout_rate=0.0, quitting=False
        )
        first = record.state.places[0]
        if game % SEATS in first:
            wins += 1 / len(first)
        rounds += record.state.round
        commands += record.commands
    elapsed = time.perf_counter() - started
    low, high = wilson(wins, games)
    print(f"bot vs {SEATS - 1} random players, {games} games, round limit {ROUND_LIMIT}")
    print(f"bot win rate: {wins / games:.1%} (95% CI {low:.1%}–{high:.1%}; fair share {1 / SEATS:.0%})")
    print(f"average game length: {rounds / games:.1f} rounds, {commands / games:.0f} commands")
    print(
        f"bot decisions per second: {thinking[1] / thinking[0]:,.0f} (policy only), "
        f"{thinking[1] / (thinking[0] + viewing[0]):,.0f} (building the seat's view + policy)"
    )
    print(f"bot games per second (whole engine): {games / elapsed:.2f}")

    simulate.bot.choose = choose
    simulate.view = make_view
    n = max(20, games // 4)
    t = time.perf_counter()
    random_commands = 0
    for seed in range(n):
        record = simulate.play(["random"] * SEATS, seed, options={"round_limit": 30}, timeout_rate=0.02)
        random_commands += record.commands
    spent = time.perf_counter() - t
    print(
        f"random games per second: {n / spent:.2f} ({SEATS} seats, round limit 30; "
        f"{random_commands / spent:,.0f} commands/s incl. legal moves and views)"
    )


if __name__ == "__main__":
    main()
