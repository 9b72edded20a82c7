"""Пузиполия benchmark: the bot against random players, bots among themselves, what the
random soak reaches, and engine speed.

Run: .venv/bin/python tests/bench/bench_puzzipolia.py [games]
Prints the bot's win rate (95 % Wilson interval) over games of one bot and three
random legal players, the average game length, random games per second and bot
decisions per second; for games of four bots without a round limit, the share
with a completed trade, how they end (bankruptcy, leave, unfinished) and their
length; for the random soak's set-ups (2–16 seats, random and bot players, as
tests/puzzipolia/test_pz_random_games.py plays them), bankruptcies, leaves,
builds, trades, auctions and debts per 1,000 games. No assertions: figures only.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from puzzipolia import bot, simulate
from puzzipolia import events as ev

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
    # the engine's own bot and view, wrapped in place to time them (patched back below)
    patched: Any = simulate
    make_view = patched.view

    def timed_view(state: Any, viewer: Any) -> dict[str, Any]:
        t = time.perf_counter()
        result: dict[str, Any] = make_view(state, viewer)
        viewing[0] += time.perf_counter() - t
        return result

    patched.bot.choose = timed
    patched.view = timed_view
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

    patched.bot.choose = choose
    patched.view = make_view
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


def _ending(record: simulate.GameRecord) -> str:
    """How a game ended: bankruptcy (the last one standing after bankruptcies only), leave
    (someone left or was removed), round limit, vote, or unfinished (the command cap)."""
    state = record.state
    if state.phase != "over":
        return "unfinished"
    gone = {e.reason for e in record.events if isinstance(e, ev.PlayerEliminated)}
    if state.end_reason == "last_standing":
        return "bankruptcy" if gone == {"bankrupt"} else "leave"
    return state.end_reason


def four_bots(games: int) -> None:
    traded = 0
    endings: Counter[str] = Counter()
    rounds: list[int] = []
    bankrupt_within_100 = proposals = accepted = 0
    for game in range(games):
        record = simulate.play(["bot"] * SEATS, 20_000 + game, options={}, timeout_rate=0.0, quitting=False)
        made = sum(isinstance(e, ev.OfferMade) for e in record.events)
        done = sum(isinstance(e, ev.OfferAccepted) for e in record.events)
        proposals += made
        accepted += done
        traded += done > 0
        ending = _ending(record)
        endings[ending] += 1
        rounds.append(record.state.round)
        bankrupt_within_100 += ending == "bankruptcy" and record.state.round <= 100
    low, high = wilson(traded, games)
    print(f"\n{SEATS} bots, no round limit, {games} games")
    print(f"games with at least one completed trade: {traded / games:.0%} (95% CI {low:.0%}–{high:.0%})")
    print(f"offers: {proposals / games:.1f} per game, {accepted / max(proposals, 1):.0%} accepted")
    print("endings: " + ", ".join(f"{k} {v / games:.0%}" for k, v in endings.most_common()))
    low, high = wilson(bankrupt_within_100, games)
    print(f"ended by bankruptcy within 100 rounds: {bankrupt_within_100 / games:.0%} (95% CI {low:.0%}–{high:.0%})")
    q = statistics.quantiles(rounds, n=10)
    print(
        f"length in rounds: median {statistics.median(rounds):.0f}, p10 {q[0]:.0f}, p90 {q[-1]:.0f}, max {max(rounds)}"
    )


SOAK_COUNTS: dict[str, Callable[[object], bool]] = {
    "bankruptcies": lambda e: isinstance(e, ev.PlayerEliminated) and e.reason == "bankrupt",
    "leaves": lambda e: isinstance(e, ev.PlayerEliminated) and e.reason == "left",
    "builds": lambda e: isinstance(e, ev.BuildingBuilt),
    "trades": lambda e: isinstance(e, ev.OfferAccepted),
    "auctions": lambda e: isinstance(e, ev.AuctionOpened),
    "debts": lambda e: isinstance(e, ev.DebtOpened),
    "collections": lambda e: isinstance(e, ev.AssetsLiquidated),
}


def soak_reach(games: int) -> None:
    counts: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    for seed in range(games):
        seats = 2 + seed % 15
        kinds = ["bot" if i < seed % (seats + 1) else "random" for i in range(seats)]
        record = simulate.play(kinds, seed, options={"round_limit": 8 if seats >= 7 else 20})
        for event in record.events:
            for name, test in SOAK_COUNTS.items():
                counts[name] += test(event)
        endings[record.state.end_reason] += 1
    print(f"\nrandom soak set-ups (2–16 seats, round limit 20, or 8 from 7 seats), {games} games, per 1,000 games:")
    print(", ".join(f"{name} {counts[name] * 1000 / games:,.0f}" for name in SOAK_COUNTS))
    print("endings per 1,000: " + ", ".join(f"{k} {v * 1000 / games:,.0f}" for k, v in endings.most_common()))


if __name__ == "__main__":
    main()
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    four_bots(count)
    soak_reach(count * 5)
