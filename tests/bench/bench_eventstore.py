"""Event store benchmark (plain script; not part of `make test`).

    .venv/bin/python tests/bench/bench_eventstore.py [--dsn URL] [--seconds 5] [--streams 100]

Prints appends/s with p50/p99 latency for single appends from N concurrent
streams, the same through append_batch (GroupCommitter), and replay speed of
read_stream + msgspec payload decoding for a 10,000-event stream. Runs in a
throwaway database on the server of --dsn (default: local PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable

import asyncpg
import msgspec

from tablehall_eventstore import EventStore, GroupCommitter, NewEvent, migrate

PAYLOAD = msgspec.json.encode({"seat": 3, "action": "bet", "amount": 120, "cards": ["QH", "7S"]})
Append = Callable[[str, int, list[NewEvent], str], Awaitable[object]]


def _with_db(dsn: str, name: str) -> str:
    return dsn.rsplit("/", 1)[0] + "/" + name


async def _drive(append: Append, streams: int, seconds: float) -> tuple[int, list[float]]:
    """`streams` tables, each issuing one command at a time for `seconds`."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    run = uuid.uuid4().hex[:8]

    async def table(i: int) -> None:
        stream, version = f"bench-{run}-{i}", 0
        while time.perf_counter() < deadline:
            events = [NewEvent("ChipsBet", 1, PAYLOAD, {"actor": f"p{i}"})]
            t0 = time.perf_counter()
            await append(stream, version, events, uuid.uuid4().hex)
            latencies.append(time.perf_counter() - t0)
            version += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(table(i) for i in range(streams)))
    return int(len(latencies) / (time.perf_counter() - t0)), latencies


def _report(label: str, rate: int, latencies: list[float]) -> None:
    qs = statistics.quantiles(latencies, n=100)
    print(f"{label:<34} {rate:>7} appends/s   p50 {qs[49] * 1000:6.2f} ms   p99 {qs[98] * 1000:6.2f} ms")


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dsn", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--streams", type=int, default=100)
    ap.add_argument("--pool", type=int, default=16)
    args = ap.parse_args()

    name = f"tablehall_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(args.dsn)
    await admin.execute(f'CREATE DATABASE "{name}"')
    dsn = _with_db(args.dsn, name)
    try:
        await migrate(dsn)
        store = await EventStore.connect(dsn, min_size=args.pool, max_size=args.pool)

        async def single(stream: str, version: int, events: list[NewEvent], cmd: str) -> object:
            return await store.append(stream, version, events, command_id=cmd)

        await _drive(single, args.streams, 0.5)  # warm-up
        rate, lat = await _drive(single, args.streams, args.seconds)
        _report(f"append, {args.streams} streams", rate, lat)

        committer = GroupCommitter(store, max_batch=128, workers=4)

        async def batched(stream: str, version: int, events: list[NewEvent], cmd: str) -> object:
            return await committer.append(stream, version, events, command_id=cmd)

        await _drive(batched, args.streams, 0.5)
        rate, lat = await _drive(batched, args.streams, args.seconds)
        _report(f"append_batch, {args.streams} streams", rate, lat)
        await committer.close()

        stream = f"replay-{uuid.uuid4().hex[:8]}"
        version = 0
        for _ in range(100):
            events = [NewEvent("ChipsBet", 1, PAYLOAD, {"actor": "p1"}) for _ in range(100)]
            await store.append(stream, version, events)
            version += 100
        rates = []
        for _ in range(7):
            t0 = time.perf_counter()
            replayed = await store.read_stream(stream)
            for e in replayed:
                msgspec.json.decode(e.payload)
            rates.append(len(replayed) / (time.perf_counter() - t0))
        print(
            f"{'replay read_stream+decode, 10k':<34} {int(statistics.median(rates)):>7} events/s"
            f" (median of 7; best {int(max(rates))})"
        )
        await store.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
