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
import time
from collections.abc import Callable
from typing import Any

import msgspec
from tablehall_bot.search.hooks import LEGAL_LIMIT, GameHooks

from dragons.game import GAME
from tablehall_rules import DecideContext, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all
from tablehall_stream.codecs import command_codec

CODEC = command_codec(GAME.id)
Timings = dict[str, list[int]]


def pct(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1e6


def spelled(hooks: GameHooks, state: Any, seat: int, now: int, view: dict[str, Any], rng: random.Random) -> Any:
    started = time.thread_time_ns()
    legal = expand_all(GAME.legal(state, seat, now), CODEC, LEGAL_LIMIT)
    read = time.thread_time_ns()
    command = hooks.heuristic(view, legal, rng)
    return command, read - started, time.thread_time_ns() - read


def described(hooks: GameHooks, state: Any, seat: int, now: int, view: dict[str, Any], rng: random.Random) -> Any:
    started = time.thread_time_ns()
    moves = GAME.legal(state, seat, now)
    read = time.thread_time_ns()
    command = hooks.heuristic_on_moves(view, moves, rng)  # type: ignore[attr-defined,unused-ignore]
    return command, read - started, time.thread_time_ns() - read


def play(seed: int, paths: dict[str, Callable[..., Any]], timings: dict[str, Timings]) -> None:
    hooks = GameHooks(GAME)
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), rng.randbytes(32))
    now = kit.START_MS
    turn = 0
    while GAME.outcome(state) is None:
        decision = rng.choice(GAME.pending(state))
        now += 250
        view = msgspec.to_builtins(GAME.view(state, Viewer.of_seat(decision.seat)), str_keys=True)
        before = rng.getstate()
        chosen: list[tuple[bytes, Any]] = []
        for name in list(paths) if turn % 2 == 0 else list(reversed(paths)):
            rng.setstate(before)
            command, read, policy = paths[name](hooks, state, decision.seat, now, view, rng)
            chosen.append((msgspec.json.encode(command), rng.getstate()))
            timings[name]["legal"].append(read)
            timings[name]["policy"].append(policy)
            timings[name]["total"].append(read + policy)
        assert all(x == chosen[0] for x in chosen), chosen  # the same command and rng either way
        turn += 1
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    paths: dict[str, Callable[..., Any]] = {"spelled": spelled}
    if hasattr(GameHooks, "heuristic_on_moves"):
        paths["descriptors"] = described
    timings: dict[str, Timings] = {name: {"legal": [], "policy": [], "total": []} for name in paths}
    for seed in range(games):
        play(seed, paths, timings)
    decisions = len(timings["spelled"]["total"])
    print(f"Драконы easy bot, ms of CPU per decision: {games} bot games (seeds 0..{games - 1}), {decisions} decisions")
    for name, parts in timings.items():
        for part, ns in parts.items():
            mean = sum(ns) / len(ns) / 1e6
            print(f"  {name:11s} {part:6s}  mean {mean:6.3f}  p50 {pct(ns, 0.5):6.3f}  p99 {pct(ns, 0.99):6.3f}")
    if "descriptors" in timings:
        ratio = sum(timings["descriptors"]["total"]) / sum(timings["spelled"]["total"])
        print(f"  descriptors / spelled, total: {ratio:.2f}")


if __name__ == "__main__":
    main()
