"""Магнаты benchmark: engine speed, descriptor and view cost, bot decision time, win rates.

Run: .venv/bin/python tests/bench/bench_magnates.py [games] [--strong N] [--think-ms MS]
Prints random games per second (2 and 4 seats), the time and JSON size of the legal descriptors
and of the view per decision, the easy bot's decision time (p50/p99) and the easy bot's win rate
against a random player (2 seats, alternating the first seat; 95 % Wilson interval); with
`--strong N`, N heads-up games of the bot service's strong player (ISMCTS over `determinize` and
`evaluate`, `--think-ms` per decision) against the easy bot. No assertions: figures only.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time

import msgspec

from magnates.game import GAME
from tablehall_rules import DecideContext, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all

CODEC = StructCodec(GAME.command_types)
ROUND_LIMIT = 40


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(kinds: list[str], seed: int, stats: dict[str, list[float]] | None = None) -> tuple[list[list[int]], int]:
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {"round_limit": ROUND_LIMIT}, kit.seats_for(len(kinds)), rng.randbytes(32))
    commands = 0
    while GAME.outcome(state) is None:
        (decision,) = GAME.pending(state)
        seat = decision.seat
        t0 = time.perf_counter()
        moves = GAME.legal(state, seat, 0)
        t1 = time.perf_counter()
        view = GAME.view(state, Viewer.of_seat(seat))
        t2 = time.perf_counter()
        legal = expand_all(moves, CODEC)
        if kinds[seat] == "bot":
            t3 = time.perf_counter()
            command = GAME.bot_policy(view, legal, rng)
            bot_ms = (time.perf_counter() - t3) * 1000
        else:
            command = GAME.random_policy(view, legal, rng)
            bot_ms = -1.0
        if stats is not None:
            stats["legal_ms"].append((t1 - t0) * 1000)
            stats["view_ms"].append((t2 - t1) * 1000)
            stats["legal_bytes"].append(len(msgspec.json.encode([CODEC.to_builtins(m) for m in moves])))
            stats["view_bytes"].append(len(msgspec.json.encode(view)))
            if bot_ms >= 0:
                stats["bot_ms"].append(bot_ms)
        for event in GAME.decide(state, command, DecideContext(seat, commands, source)):
            state = GAME.evolve(state, event)
        commands += 1
    return state.places, commands


def strong_vs_easy(games: int, think_ms: float) -> None:
    from tablehall_bot.players import Difficulty, Player
    from tablehall_bot.search.hooks import GameHooks
    from tablehall_bot.search.ismcts import SearchSettings

    hooks = GameHooks(GAME)
    wins, times = 0.0, []
    for g in range(games):
        strong_seat = g % 2
        kinds = [Difficulty.STRONG, Difficulty.EASY] if strong_seat == 0 else [Difficulty.EASY, Difficulty.STRONG]
        players = [
            Player(hooks, k, random.Random(g * 7 + i), SearchSettings(think_ms=think_ms)) for i, k in enumerate(kinds)
        ]
        rng = random.Random(90_000 + g)
        state, _, source = kit.start(GAME, {"round_limit": ROUND_LIMIT}, kit.seats_for(2), rng.randbytes(32))
        step = 0
        while GAME.outcome(state) is None:
            (decision,) = GAME.pending(state)
            seat = decision.seat
            legal = expand_all(GAME.legal(state, seat, 0), CODEC)
            view = GAME.view(state, Viewer.of_seat(seat))
            t = time.perf_counter()
            command = players[seat].choose(view, seat, legal).command
            if seat == strong_seat:
                times.append((time.perf_counter() - t) * 1000)
            for event in GAME.decide(state, command, DecideContext(seat, step, source)):
                state = GAME.evolve(state, event)
            step += 1
        if strong_seat in state.places[0]:
            wins += 1 / len(state.places[0])
    low, high = wilson(wins, games)
    print(
        f"strong (think {think_ms:.0f} ms) vs easy, {games} games: win rate {wins / games:.1%} "
        f"(95% CI {low:.1%}–{high:.1%}); strong decision p50 {pct(times, 0.5):.1f} ms, p99 {pct(times, 0.99):.1f} ms"
    )


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    args = sys.argv[1:]
    if "--strong" in args:
        think = float(args[args.index("--think-ms") + 1]) if "--think-ms" in args else 50.0
        strong_vs_easy(int(args[args.index("--strong") + 1]), think)
        return
    games = int(args[0]) if args else 100
    for seats in (2, 4):
        started = time.perf_counter()
        commands = 0
        for g in range(games):
            commands += play(["random"] * seats, g)[1]
        elapsed = time.perf_counter() - started
        print(
            f"random games, {seats} seats, round limit {ROUND_LIMIT}: {games / elapsed:.1f} games/s, "
            f"{commands / elapsed:,.0f} commands/s, {commands / games:.0f} commands/game"
        )
    stats: dict[str, list[float]] = {k: [] for k in ("legal_ms", "view_ms", "legal_bytes", "view_bytes", "bot_ms")}
    wins = 0.0
    for g in range(games):
        kinds = ["bot", "random"] if g % 2 == 0 else ["random", "bot"]
        places, _ = play(kinds, 50_000 + g, stats)
        bot_seat = kinds.index("bot")
        if bot_seat in places[0]:
            wins += 1 / len(places[0])
    for key in ("legal_ms", "view_ms"):
        print(f"{key}: mean {statistics.fmean(stats[key]):.3f} ms, p99 {pct(stats[key], 0.99):.3f} ms")
    for key in ("legal_bytes", "view_bytes"):
        print(f"{key}: mean {statistics.fmean(stats[key]):,.0f} B, max {max(stats[key]):,.0f} B")
    print(f"easy bot decision: p50 {pct(stats['bot_ms'], 0.5):.3f} ms, p99 {pct(stats['bot_ms'], 0.99):.3f} ms")
    low, high = wilson(wins, games)
    print(f"easy bot vs random, {games} games: win rate {wins / games:.1%} (95% CI {low:.1%}–{high:.1%})")


if __name__ == "__main__":
    main()
