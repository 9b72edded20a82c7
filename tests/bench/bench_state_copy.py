"""The copy every `decide` works on (`tablehall_rules.clone`), per game: the planned copy
(`tablehall_rules.structcopy`: what cannot change shared, the rest copied) against the msgpack
round trip it replaced, on the same states in the same process, in turns (the ratio is the
figure that holds on a shared machine).

States: every `--states` sampled from `--games` random matches of each product game (the
conformance kit's random play). Clock: the thread's CPU time; each way is timed in `--rounds`
rounds, alternating which goes first, and the best round is kept.

Run: .venv/bin/python tests/bench/bench_state_copy.py [--games 3] [--states 30] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import msgspec

from tablehall_rules import clone
from tablehall_rules import conformance as kit
from tablehall_rules.registry import get_game

GAMES = (("puzzipolia", 4), ("homunculus", 4), ("dragons", 2), ("magnates", 2))


def round_trip(kind: type[Any]) -> Callable[[Any], Any]:
    """The copy `clone` made before: a msgpack round trip into the state's type."""
    decoder = msgspec.msgpack.Decoder(kind)
    encoder = msgspec.msgpack.Encoder()
    return lambda state: decoder.decode(encoder.encode(state))


def best_round_us(copy: Callable[[Any], Any], states: list[Any]) -> float:
    started = time.thread_time_ns()
    for state in states:
        copy(state)
    return (time.thread_time_ns() - started) / len(states) / 1000


def sampling_arguments(doc: str | None, rounds: int) -> argparse.Namespace:
    """The arguments of a benchmark on `sampled_states`: `--games`, `--states`, `--rounds`."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="random matches a game")
    parser.add_argument("--states", type=int, default=30, help="states sampled from each match")
    parser.add_argument("--rounds", type=int, default=rounds)
    return parser.parse_args()


def sampled_states(game: Any, seats: int, games: int, per_game: int) -> list[Any]:
    """`per_game` states sampled from each of `games` random matches (the conformance kit's random play)."""
    states: list[Any] = []
    for seed in range(games):
        _, played = kit.play_random_game(game, {}, seats, random.Random(seed))
        states += list(kit.states_of(game, played, random.Random(seed), per_game))
    return states


def main() -> None:
    args = sampling_arguments(__doc__, rounds=5)
    print(f"{'game':11s} {'states':>6s} {'bytes':>6s} {'round trip µs':>14s} {'clone µs':>9s} {'ratio':>6s}")
    for game_id, seats in GAMES:
        game = get_game(game_id)
        states = sampled_states(game, seats, args.games, args.states)
        for state in states:
            assert clone(state) == state  # the two ways copy the same
        old = round_trip(game.state_type)
        times: dict[str, list[float]] = {"old": [], "new": []}
        for r in range(args.rounds):
            order = [("old", old), ("new", clone)] if r % 2 == 0 else [("new", clone), ("old", old)]
            for name, copy in order:
                times[name].append(best_round_us(copy, states))
        size = sum(len(msgspec.msgpack.encode(s)) for s in states) // len(states)
        before, after = min(times["old"]), min(times["new"])
        print(f"{game_id:11s} {len(states):6d} {size:6d} {before:14.1f} {after:9.1f} {after / before:6.2f}")


if __name__ == "__main__":
    main()
