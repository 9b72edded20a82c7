"""The easy bot's cost of one Драконы decision in the bot service: the legal read and the policy,
on the spelled-out commands (a remote view; every view before the bot decided on descriptors) and
on the descriptors (a view the bot rendered itself), per decision of seeded bot games.

- spelled: `expand_all(GAME.legal(...), codec, LEGAL_LIMIT)` (the Later parts found and every
  command made), then `GameHooks.heuristic(view, legal, rng)`;
- descriptors: `GAME.legal(...)` (the Later parts are found by the policy, which reads them), then
  `GameHooks.heuristic_on_moves(view, moves, rng)`: compare the totals.

Both are asked at every decision, in turns (which goes first alternates), with the same rng state;
their commands must be equal. The view is made JSON-shaped first, as `local_view` does, and is not
counted. The clock is the calling thread's CPU time (`time.thread_time_ns`): a busy machine's waits
are not counted. Without `heuristic_on_moves` (a checkout from before it) only the spelled path runs.

Run: .venv/bin/python tests/bench/bench_dragons_bot.py [games] (default 8 games, seeds 0..games-1)
"""

from __future__ import annotations

import random
import sys
from typing import Any

from botdecisions import Path, Timings, decide_each_way, described, new_timings, report, spelled
from tablehall_bot.search.hooks import GameHooks

from dragons.game import GAME
from tablehall_rules import DecideContext, Viewer, json_shaped
from tablehall_rules import conformance as kit


def play(seed: int, paths: dict[str, Path], timings: dict[str, Timings]) -> None:
    hooks = GameHooks(GAME)
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), rng.randbytes(32))
    now = kit.START_MS
    turn = 0
    while GAME.outcome(state) is None:
        decision = rng.choice(GAME.pending(state))
        now += 250
        view: dict[str, Any] = json_shaped(GAME.view(state, Viewer.of_seat(decision.seat)))
        command = decide_each_way(hooks, state, decision.seat, now, view, rng, paths, timings, turn)
        turn += 1
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    paths: dict[str, Path] = {"spelled": spelled}
    if hasattr(GameHooks, "heuristic_on_moves"):
        paths["descriptors"] = described
    timings = new_timings(paths)
    for seed in range(games):
        play(seed, paths, timings)
    decisions = len(timings["spelled"]["total"])
    print(f"Драконы easy bot, ms of CPU per decision: {games} bot games (seeds 0..{games - 1}), {decisions} decisions")
    report(timings)


if __name__ == "__main__":
    main()
