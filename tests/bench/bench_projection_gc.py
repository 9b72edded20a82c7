"""What the garbage collector costs the projection's live feeds, in one process, no service.

`N` tables of a game (random matches, as tests play them) each with a live feed and one spectator
watching whole commands; their commands are offered round-robin, as the hub hands a busy server's
events to its feeds, and each frame is taken as a watcher takes it. The collector runs at the
servers' thresholds (tablehall_cli.runtime.GC_THRESHOLDS) with what was loaded before frozen, as
`tablehall serve` runs it; `gc.callbacks` time each collection in CPU of this process. It prints
the collections by generation, their CPU (total and the longest), and what the young generation
held just before one collection (the kinds of object, the most referents one of them has): what
the projection keeps of each table is what survives its young collections.

    .venv/bin/python tests/bench/bench_projection_gc.py [game] [tables]   # puzzipolia 500
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.randomplay import existing_games, random_match

from tablehall_cli.runtime import GC_THRESHOLDS
from tablehall_projection.access import Role
from tablehall_projection.live.feed import Feed, Reader

LOADED = 5  # events of each table in its feed before the spectator comes


class Collections:
    """The collections `gc.callbacks` saw: (generation, CPU seconds)."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, float]] = []
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.process_time()
        else:
            self.seen.append((int(info["generation"]), time.process_time() - self._began))


def young_generation() -> str:
    """What the young generation holds now: the commonest kinds, the most referents of one object."""
    young = gc.get_objects(generation=0)
    kinds = ", ".join(f"{name} {n:,}" for name, n in Counter(type(o).__name__ for o in young).most_common(8))
    widest = max((len(gc.get_referents(o)), type(o).__name__) for o in young) if young else (0, "-")
    return f"{len(young):,} objects ({kinds}); the most referents: {widest[0]:,} ({widest[1]})"


async def main(game_id: str, n: int) -> None:
    game = next(g for g in existing_games() if g.id == game_id)
    began = time.perf_counter()
    matches = [
        random_match(game, random.Random(i), f"gc{i}", max_commands=150, avoid=("Surrender", "Leave")) for i in range(n)
    ]
    print(f"{n} random matches of {game_id} in {time.perf_counter() - began:.1f} s", flush=True)
    feeds: list[tuple[Feed, Reader]] = []
    for events in matches:
        feed = Feed(events[0].stream_id.removeprefix("table-"))
        feed.load(events[:LOADED])
        feeds.append((feed, feed.register(Role("spectator"), per_command=True)))
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    collections = Collections()
    gc.callbacks.append(collections)
    held = ""
    offered, cpu = 0, time.process_time()
    for step in range(LOADED, max(len(m) for m in matches)):
        for (feed, reader), events in zip(feeds, matches, strict=True):
            if step >= len(events):
                continue
            feed.offer(events[step])
            offered += 1
            for version in list(feed._frames.get(reader.key, {})):  # the watcher takes its frames
                feed.take(reader, version)
            if not held and gc.get_count()[0] >= GC_THRESHOLDS[0] - 100:
                held = young_generation()
    cpu = time.process_time() - cpu
    gc.callbacks.remove(collections)
    by_generation = Counter(g for g, _ in collections.seen)
    spent = sum(s for _, s in collections.seen)
    longest = max((s for _, s in collections.seen), default=0.0)
    print(
        f"{offered:,} events offered to {n} feeds in {cpu:.2f} s of CPU; {len(collections.seen)} collections"
        f" (young {by_generation[0]}, middle {by_generation[1]}, full {by_generation[2]}) took {spent * 1000:,.1f} ms,"
        f" the longest {longest * 1000:,.1f} ms ({spent / offered * 1e6:,.1f} µs an event)"
    )
    print(f"the young generation before a collection: {held or 'no collection came'}")


if __name__ == "__main__":
    asyncio.run(
        main(sys.argv[1] if len(sys.argv) > 1 else "puzzipolia", int(sys.argv[2]) if len(sys.argv) > 2 else 500)
    )
