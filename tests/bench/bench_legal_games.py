"""`legal()` per game: the time of `GAME.legal(state, seat, now)` at every decision of random
games and of bot games (the game's own easy `bot_policy` at every seat), per game, p50 / p99 /
max, and the descriptors' count; then the same with the answer read in full (`legal()` and
`expand_all(..., limit=400)`, as the bot service reads it; a `LegalMoves` finds its later
parts, e.g. Драконы' contours, only when read, so this is what a reader pays).

Run: .venv/bin/python tests/bench/bench_legal_games.py [games] [max_decisions] [game ...]
(defaults: 6 games of each kind per game, at most 600 decisions a game, all four games).
Each game is played by the given policy from the seat's view and the spelled-out legal commands
(at most 400, as the bot service); the clock is the CPU time of the calling thread
(`time.thread_time`), so a busy machine's waits are not counted. Figures only, no assertions.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from tablehall_rules import DecideContext, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all

LIMIT = 400
SETUPS: dict[str, tuple[str, int, dict[str, Any]]] = {
    # game id: (module with GAME, seats, options)
    "puzzipolia": ("puzzipolia.game", 4, {"round_limit": 12}),
    "homunculus": ("homunculus.game", 4, {}),
    "dragons": ("dragons.game", 2, {}),
    "magnates": ("magnates.game", 4, {}),
}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def load(game_id: str) -> Any:
    module = __import__(SETUPS[game_id][0], fromlist=["GAME"])
    return module.GAME


def play(
    game: Any, seats: int, options: dict[str, Any], seed: int, bots: bool, cap: int
) -> tuple[list[float], list[float], int]:
    """One game; the seconds of every `legal()` call, of it read in full, and the most
    descriptors one returned."""
    codec = StructCodec(game.command_types)
    rng = random.Random(seed)
    state, _, source = kit.start(game, options, kit.seats_for(seats), rng.randbytes(32))
    now = kit.START_MS
    times: list[float] = []
    read: list[float] = []
    widest = 0
    while game.outcome(state) is None and len(times) < cap:
        decision = rng.choice(game.pending(state))
        now += 250
        started = time.thread_time()
        moves = game.legal(state, decision.seat, now)
        listed = time.thread_time()
        spelled = expand_all(moves, codec, limit=LIMIT)
        read.append(time.thread_time() - started)
        times.append(listed - started)
        widest = max(widest, len(moves))
        legal = [m for m in spelled if type(m).__name__ != "Surrender"]
        if not legal:
            continue
        view = game.view(state, Viewer.of_seat(decision.seat))
        try:
            command = (game.bot_policy if bots else game.random_policy)(view, legal, rng)
        except Exception:  # a bot with no decision of its own (only leaving is legal): any legal one
            try:
                command = game.random_policy(view, legal, rng)
            except Exception:  # the random player will not leave either: leave
                command = rng.choice(legal)
        for event in game.decide(state, command, DecideContext(decision.seat, now, source)):
            state = game.evolve(state, event)
    return times, read, widest


def main() -> None:
    args = sys.argv[1:]
    games = int(args[0]) if args else 6
    cap = int(args[1]) if len(args) > 1 else 600
    chosen = args[2:] or list(SETUPS)
    print(f"legal() per decision: {games} random and {games} bot games per game, at most {cap} decisions each")
    for game_id in chosen:
        game = load(game_id)
        _, seats, options = SETUPS[game_id]
        for kind, bots in (("random", False), ("bot", True)):
            times: list[float] = []
            reads: list[float] = []
            widest = 0
            for g in range(games):
                found, read, wide = play(game, seats, options, 1000 + g, bots, cap)
                times += found
                reads += read
                widest = max(widest, wide)
            ms = [t * 1000 for t in times]
            full = [t * 1000 for t in reads]
            print(
                f"  {game_id:10s} {kind:6s} calls {len(ms):6d}  p50 {pct(ms, 0.5):7.3f} ms  p99 {pct(ms, 0.99):7.3f} ms"
                f"  max {max(ms):7.3f} ms  descriptors max {widest}"
                f"  | read in full p50 {pct(full, 0.5):7.3f} ms  p99 {pct(full, 0.99):7.3f} ms"
            )


if __name__ == "__main__":
    main()
