"""What the easy-bot benches share (bench_dragons_bot.py, bench_homunculus_bot.py): one decision
read and decided on the spelled-out commands and on the descriptors, in turns with the same rng
state, timed on the calling thread's CPU clock; and the report of the timings."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import msgspec
from tablehall_bot.search.hooks import LEGAL_LIMIT, GameHooks

from tablehall_rules.legal import expand_all
from tablehall_stream.codecs import command_codec

# (hooks, state, seat, now, view, rng) -> (command, ns reading the legal moves, ns deciding)
Path = Callable[[GameHooks, Any, int, int, dict[str, Any], random.Random], tuple[Any, int, int]]
Timings = dict[str, list[int]]


def pct(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1e6


def spelled(hooks: GameHooks, state: Any, seat: int, now: int, view: dict[str, Any], rng: random.Random) -> Any:
    """A remote view's way: every command spelled out, then `GameHooks.heuristic`."""
    codec = command_codec(hooks.game.id)
    started = time.thread_time_ns()
    legal = expand_all(hooks.game.legal(state, seat, now), codec, LEGAL_LIMIT)
    read = time.thread_time_ns()
    command = hooks.heuristic(view, legal, rng)
    return command, read - started, time.thread_time_ns() - read


def described(hooks: GameHooks, state: Any, seat: int, now: int, view: dict[str, Any], rng: random.Random) -> Any:
    """A local view's way: the descriptors, then `GameHooks.heuristic_on_moves`."""
    started = time.thread_time_ns()
    moves = hooks.game.legal(state, seat, now)
    read = time.thread_time_ns()
    command = hooks.heuristic_on_moves(view, moves, rng)  # type: ignore[attr-defined,unused-ignore]
    return command, read - started, time.thread_time_ns() - read


def new_timings(paths: dict[str, Path]) -> dict[str, Timings]:
    return {name: {"legal": [], "policy": [], "total": []} for name in paths}


def decide_each_way(
    hooks: GameHooks,
    state: Any,
    seat: int,
    now: int,
    view: dict[str, Any],
    rng: random.Random,
    paths: dict[str, Path],
    timings: dict[str, Timings],
    turn: int,
) -> Any:
    """The command every path decides from `rng`'s state (which goes first alternates with
    `turn`), timed; they must agree on it and on the rng's state after."""
    before = rng.getstate()
    chosen: list[tuple[bytes, Any]] = []
    command = None
    for name in list(paths) if turn % 2 == 0 else list(reversed(paths)):
        rng.setstate(before)
        command, read, policy = paths[name](hooks, state, seat, now, view, rng)
        chosen.append((msgspec.json.encode(command), rng.getstate()))
        timings[name]["legal"].append(read)
        timings[name]["policy"].append(policy)
        timings[name]["total"].append(read + policy)
    assert all(x[0] == chosen[0][0] for x in chosen), [x[0] for x in chosen]
    assert all(x[1] == chosen[0][1] for x in chosen), f"the rng draws differ at {chosen[0][0]!r}"
    return command


def report(timings: dict[str, Timings]) -> None:
    for name, parts in timings.items():
        for part, ns in parts.items():
            mean = sum(ns) / len(ns) / 1e6
            print(f"  {name:11s} {part:6s}  mean {mean:6.3f}  p50 {pct(ns, 0.5):6.3f}  p99 {pct(ns, 0.99):6.3f}")
    if "descriptors" in timings:
        ratio = sum(timings["descriptors"]["total"]) / sum(timings["spelled"]["total"])
        print(f"  descriptors / spelled, total: {ratio:.2f}")
