"""A view's JSON as the match and the projection put it in an answer (`encode_view`, each
`SharedJson` part encoded once for every view that holds it) against encoding the whole view
every time (`msgspec.json.encode`), per game, on the same views in the same process, in turns.

Views: a spectator's of every `--states` sampled from `--games` random matches of each product
game (the conformance kit's random play), made in order as a table makes them (a part shared by
consecutive views is encoded once). Each way is timed as a spectator frame is made: the JSON, the
string the proto field holds, the `WatchTableResponse` and its bytes. Clock: the thread's CPU
time; best of `--rounds` rounds, alternating which goes first.

Run: .venv/bin/python tests/bench/bench_view_encoding.py [--games 3] [--states 30] [--rounds 7]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec
from bench_state_copy import GAMES, sampled_states, sampling_arguments

from tablehall.projection.v1 import projection_pb2 as pb
from tablehall_rules import Viewer, encode_view
from tablehall_rules.registry import get_game


def frame_us(encode: Callable[[Any], bytes], views: list[Any]) -> tuple[float, float]:
    """CPU µs a view of (the JSON alone, the whole frame's bytes)."""
    started = time.thread_time_ns()
    for view in views:
        encode(view)
    json_only = time.thread_time_ns() - started
    started = time.thread_time_ns()
    for view in views:
        pb.WatchTableResponse(view_json=encode(view).decode()).SerializeToString()
    frame = time.thread_time_ns() - started
    return json_only / len(views) / 1000, frame / len(views) / 1000


def main() -> None:
    args = sampling_arguments(__doc__, rounds=7)
    print(f"{'game':11s} {'views':>5s} {'bytes':>6s} {'json µs':>15s} {'frame µs':>15s} {'ratio':>6s}")
    for game_id, seats in GAMES:
        game = get_game(game_id)
        views = [game.view(s, Viewer.spectator()) for s in sampled_states(game, seats, args.games, args.states)]
        for view in views:
            assert encode_view(view) == msgspec.json.encode(view)  # the two ways make the same bytes
        ways: dict[str, Callable[[Any], bytes]] = {"whole": msgspec.json.encode, "shared": encode_view}
        times: dict[str, list[tuple[float, float]]] = {"whole": [], "shared": []}
        for r in range(args.rounds):
            for name in ("whole", "shared") if r % 2 == 0 else ("shared", "whole"):
                times[name].append(frame_us(ways[name], views))
        size = sum(len(msgspec.json.encode(v)) for v in views) // len(views)
        (json_before, frame_before), (json_after, frame_after) = (
            (min(t[0] for t in times[w]), min(t[1] for t in times[w])) for w in ("whole", "shared")
        )
        print(
            f"{game_id:11s} {len(views):5d} {size:6d} {json_before:6.1f} → {json_after:6.1f} "
            f"{frame_before:6.1f} → {frame_after:6.1f} {frame_after / frame_before:6.2f}"
        )


if __name__ == "__main__":
    main()
