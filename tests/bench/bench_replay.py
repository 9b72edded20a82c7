"""Replay of every game: events per second rebuilding a long table of each game from PostgreSQL, as
the match service rebuilds it (`EventStore.read_facts` with the metadata a rebuild reads, then
`LiveTable.apply_recorded`: decode and `evolve` every event), and in memory the µs per event of
`apply_recorded` and of the game's `evolve` alone (what the game's own code costs).

A game's table is the longest of a few random matches (random legal commands, quitting only when
nothing else is legal, no round limit): one match, never several strung together. Пузиполия's and
Магнаты's hold more than 10,000 events; Гомункул's longest of the first 40 seeds is seed 1's 9,745
(most end below 6,000); a Драконы match ends after about 400 (its rate then carries the rebuild's
fixed cost of a query and a table, as a real Драконы rebuild does). The dice race of
`bench_match.replay` is the 10,000-event table every run has.

    .venv/bin/python tests/bench/bench_replay.py [--games dragons,magnates] [--seeds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from support.randomplay import random_match  # noqa: E402

from tablehall_cli.runtime import GC_THRESHOLDS  # noqa: E402
from tablehall_eventstore import EventStore, NewEvent, RecordedEvent  # noqa: E402
from tablehall_match.live_table import REBUILD_METADATA, LiveTable  # noqa: E402
from tablehall_platform.infra import ensure_database, find_servers, with_database  # noqa: E402
from tablehall_rules.registry import get_game  # noqa: E402
from tablehall_stream.codecs import event_codec  # noqa: E402
from tablehall_stream.names import split_type  # noqa: E402

# per game: seats and options for a long match
LONG = {
    "puzzipolia": (4, {"round_limit": 0}),
    "homunculus": (4, {}),
    "dragons": (2, {}),
    "magnates": (4, {"round_limit": 0}),
}
# commands a long random match plays only when nothing else is legal
QUITTING = frozenset(
    {
        "Surrender",
        "Leave",
        "ProposeEnd",
        "HostProposeEnd",
        "OperatorClose",
        "IdleClose",
        "RemovePlayer",
        "RemoveSeat",
        "CloseTable",
    }
)
MAX_COMMANDS = 12_000


@contextmanager
def service_gc() -> Iterator[None]:
    """The collector as the match service tunes it by default (tablehall_cli.runtime.tune_gc)."""
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def long_match(game_id: str, seeds: int) -> list[RecordedEvent]:
    game = get_game(game_id)
    players, options = LONG[game_id]
    best: list[RecordedEvent] = []
    for seed in range(seeds):
        rng = random.Random(seed)
        events = random_match(
            game, rng, f"replay-{game_id}-{seed}", MAX_COMMANDS, dict(options), players, avoid=QUITTING
        )
        if len(events) > len(best):
            best = events
    return best


def best_cpu(run: Callable[[], object], times: int = 5) -> float:
    """The least CPU seconds of `times` runs (the machine is shared: the least is the code's own)."""
    best = float("inf")
    for _ in range(times):
        c0 = time.process_time()
        run()
        best = min(best, time.process_time() - c0)
    return best


def in_memory(game_id: str, events: list[RecordedEvent]) -> dict[str, float]:
    """µs per event of the rebuild's work in memory: `apply_recorded` (decode, evolve, the
    metadata's facts) over every event, and the game's `evolve` alone over its decoded events."""

    def apply() -> None:
        live = LiveTable("replay", events[0].stream_id)
        for event in events:
            live.apply_recorded(event)

    game, codec = get_game(game_id), event_codec(game_id)
    decoded = [
        codec.decode_stored(split_type(e.type)[1], e.schema_version, e.payload)
        for e in events
        if split_type(e.type)[0] == game_id
    ]

    def evolve() -> None:
        state = None
        for event in decoded:
            state = game.evolve(state, event)

    return {
        "apply_us": best_cpu(apply) / len(events) * 1e6,
        "evolve_us": best_cpu(evolve) / len(decoded) * 1e6,
    }


async def rebuild(database_url: str, events: list[RecordedEvent]) -> dict[str, float]:
    """Append `events` as one table, then time its rebuild from the store, best of 5."""
    store = await EventStore.connect(database_url)
    try:
        sid = f"table-r-{uuid.uuid4().hex[:10]}"
        version = 0
        for start in range(0, len(events), 500):
            chunk = [
                NewEvent(e.type, e.schema_version, bytes(e.payload), dict(e.metadata or {}))
                for e in events[start : start + 500]
            ]
            version = (await store.append(sid, version, chunk)).last_version
        runs, cpu = [], []
        for _ in range(5):
            t0, c0 = time.perf_counter(), time.process_time()
            live = LiveTable("replay", sid)
            for fact in await store.read_facts(sid, metadata=REBUILD_METADATA):
                live.apply_recorded(fact)
            runs.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            assert live.version == version
    finally:
        await store.close()
    return {"events": float(version), "eps": version / min(runs), "eps_cpu": version / min(cpu)}


async def measure(database_url: str, game_ids: list[str], seeds: int) -> list[dict[str, Any]]:
    out = []
    for game_id in game_ids:
        t0 = time.perf_counter()
        events = long_match(game_id, seeds)
        made = time.perf_counter() - t0
        with service_gc():
            memory = in_memory(game_id, events)
            r = await rebuild(database_url, events)
        out.append({"game": game_id, "made_s": made, **memory, **r})
    return out


def line(r: dict[str, Any], target: float) -> str:
    met = "met" if r["eps"] >= target else "missed"
    return (
        f"  {r['game']:<11} {r['events']:>6,.0f} events: rebuilt at {r['eps']:>9,.0f} events/s ({met} {target:,.0f});"
        f" {r['eps_cpu']:>9,.0f} per CPU second of the rebuild; in memory {r['apply_us']:5.2f} µs/event"
        f" (decode and evolve), the game's evolve alone {r['evolve_us']:5.2f} µs/event"
        f" ({r['made_s']:.0f} s to play the matches)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(LONG))
    parser.add_argument("--seeds", type=int, default=3, help="random matches per game; the longest is replayed")
    args = parser.parse_args()
    servers = await find_servers(ROOT / ".data" / "bench", "postgres")
    name = f"tablehall_bench_replay_{uuid.uuid4().hex[:8]}"
    url = await ensure_database(servers.database_url, name)
    from tablehall_eventstore import migrate

    await migrate(url)
    try:
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)", flush=True)
        for r in await measure(url, args.games.split(","), args.seeds):
            print(line(r, 100_000), flush=True)
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    finally:
        import asyncpg

        conn = await asyncpg.connect(with_database(servers.database_url, "postgres"))
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()
        servers.stop()


if __name__ == "__main__":
    asyncio.run(main())
