"""The easy bot's cost of one Гомункул decision in the bot service: the legal read and the policy,
on the spelled-out commands (a remote view) and on the descriptors (a view the bot rendered
itself), per decision of seeded games of 4 easy bots (each against each, or 2-on-2 with --teams).

- spelled: `expand_all(GAME.legal(...), codec, LEGAL_LIMIT)`, then `GameHooks.heuristic(view,
  legal, rng)`;
- descriptors: `GAME.legal(...)`, then `GameHooks.heuristic_on_moves(view, moves, rng)` (which
  spells them out itself when the game's policy does not read descriptors).

Both are asked at every decision, in turns (which goes first alternates), with the same rng state;
their commands and rng states after must be equal. The seat's view (`GAME.view`, made JSON-shaped
as `local_view` does) is timed once per decision on its own line and is not in the totals. The
clock is the calling thread's CPU time (`time.thread_time_ns`): a busy machine's waits are not
counted. Each game stops at its end or after --decisions decisions (default 400).

To compare with older code, put an extract first on the path, e.g.
  git archive eec1f73 | tar -x -C /tmp/hm-old
  PYTHONPATH=$(ls -d /tmp/hm-old/libs/*/src /tmp/hm-old/services/*/src | paste -sd:) \\
    .venv/bin/python tests/bench/bench_homunculus_bot.py
--choices FILE writes every chosen command (seed, decision, seat, JSON), one a line: two runs
on the same seeds (old code and new) must write the same file.

Run: .venv/bin/python tests/bench/bench_homunculus_bot.py [games] [--teams] [--decisions N]
  [--choices FILE] (default 4 games, seeds 0..games-1)
"""

from __future__ import annotations

import argparse
import random
import time
from typing import IO, Any

import msgspec
from botdecisions import Path, Timings, decide_each_way, described, new_timings, pct, report, spelled
from tablehall_bot.search.hooks import GameHooks

from homunculus.game import GAME
from tablehall_rules import DecideContext, Viewer, json_shaped
from tablehall_rules import conformance as kit

PATHS: dict[str, Path] = {"spelled": spelled, "descriptors": described}


def play(
    seed: int, options: dict[str, Any], limit: int, timings: dict[str, Timings], views: list[int], out: IO[str] | None
) -> None:
    hooks = GameHooks(GAME)
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, options, kit.seats_for(4), rng.randbytes(32))
    now = kit.START_MS
    turn = 0
    while GAME.outcome(state) is None and turn < limit:
        decision = rng.choice(GAME.pending(state))
        now += 250
        started = time.thread_time_ns()
        view = json_shaped(GAME.view(state, Viewer.of_seat(decision.seat)))
        views.append(time.thread_time_ns() - started)
        command = decide_each_way(hooks, state, decision.seat, now, view, rng, PATHS, timings, turn)
        if out is not None:
            out.write(f"{seed} {turn} {decision.seat} {msgspec.json.encode(command).decode()}\n")
        turn += 1
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="?", type=int, default=4)
    parser.add_argument("--teams", action="store_true", help="2-on-2 ({'teams': True})")
    parser.add_argument("--decisions", type=int, default=400, help="at most this many decisions a game")
    parser.add_argument("--choices", help="write every chosen command to this file")
    args = parser.parse_args()
    options = {"teams": True} if args.teams else {}
    timings = new_timings(PATHS)
    views: list[int] = []
    out = open(args.choices, "w", encoding="utf-8") if args.choices else None  # noqa: SIM115
    try:
        for seed in range(args.games):
            play(seed, options, args.decisions, timings, views, out)
    finally:
        if out is not None:
            out.close()
    kind = "2-on-2" if args.teams else "4 players"
    print(
        f"Гомункул easy bot, ms of CPU per decision: {args.games} games of {kind} (seeds 0..{args.games - 1}), "
        f"{len(views)} decisions"
    )
    print(
        f"  {'view':18s}  mean {sum(views) / len(views) / 1e6:6.3f}  p50 {pct(views, 0.5):6.3f}  p99 {pct(views, 0.99):6.3f}"
    )
    report(timings)


if __name__ == "__main__":
    main()
