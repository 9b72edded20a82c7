"""Projection benchmarks (a plain script: `make bench-projection`).

1. Rebuild speed: 100,000 events of random test-game matches (recorded as the
   match service records them) are appended to a fresh database, then each
   read model is rebuilt from position 0; prints events per second.
2. Fan-out: 1,000 live WatchTable streams (seats and spectators) on one
   table over gRPC; commands are appended to the store and the time from the
   append to each viewer's receipt of each version is measured; prints p50,
   p99 and max. The viewers run in separate client processes (clocks: the
   same machine's wall clock); commands come at 10 per second.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("TABLEHALL_EXTRA_GAMES", "testgame=testgame.game:GAME")

import asyncpg  # noqa: E402
import grpc  # noqa: E402
from support.randomplay import random_match  # noqa: E402

from tablehall.projection.v1 import projection_pb2 as pb  # noqa: E402
from tablehall.projection.v1 import projection_pb2_grpc  # noqa: E402
from tablehall_eventstore import AppendRequest, EventStore, NewEvent, RecordedEvent, migrate  # noqa: E402
from tablehall_match import service as match_service  # noqa: E402
from tablehall_platform.auth import Authenticator, DevProvider  # noqa: E402
from tablehall_platform.grpcserver import build_server  # noqa: E402
from tablehall_platform.infra import ensure_database, find_servers, free_port, with_database  # noqa: E402
from tablehall_projection import service as projection_service  # noqa: E402
from tablehall_rules.registry import get_game  # noqa: E402

EVENTS = int(os.environ.get("BENCH_EVENTS", "100000"))
VIEWERS = int(os.environ.get("BENCH_VIEWERS", "1000"))
SECRET = "bench-secret-0123456789abcdef-0123456789"


def _new(event: RecordedEvent) -> NewEvent:
    return NewEvent(event.type, event.schema_version, event.payload, event.metadata)


async def fill(store: EventStore, total: int) -> int:
    game = get_game("testgame")
    rng = random.Random(7)
    written = 0
    batch: list[AppendRequest] = []
    n = 0
    while written < total:
        events = random_match(game, rng, f"bench-{n}")
        n += 1
        batch.append(AppendRequest(events[0].stream_id, 0, [_new(e) for e in events]))
        written += len(events)
        if len(batch) == 100:
            await store.append_batch(batch)
            batch = []
    if batch:
        await store.append_batch(batch)
    return written


async def bench_rebuild(store: EventStore) -> None:
    started = time.perf_counter()
    written = await fill(store, EVENTS)
    print(f"appended {written} events of random test-game matches in {time.perf_counter() - started:.1f} s")
    total_time = 0.0
    for name, projector in projection_service.projectors(store).items():
        started = time.perf_counter()
        applied = await projector.rebuild()
        took = time.perf_counter() - started
        total_time += took
        print(f"rebuild {name:<9} {applied} events in {took:6.2f} s = {applied / took:9,.0f} events/s")
    print(f"rebuild all three: {written / total_time:,.0f} events/s (sequential, one process)")


def _groups(events: list[RecordedEvent]) -> list[list[RecordedEvent]]:
    groups: list[list[RecordedEvent]] = []
    for e in events:
        if groups and e.metadata.get("command_id") == groups[-1][-1].metadata.get("command_id"):
            groups[-1].append(e)
        else:
            groups.append([e])
    return groups


async def viewers_process(address: str, first: int, count: int, last: int) -> None:
    """A client process: `count` watchers; prints READY, then one line of latency samples."""
    tokens = DevProvider(SECRET)
    channels = [grpc.aio.insecure_channel(address) for _ in range(max(1, count // 50))]
    ready = asyncio.Semaphore(0)
    received: list[tuple[int, float]] = []

    async def viewer(i: int) -> None:
        user = f"user{i % 4}" if i % 5 else f"watcher{i}"  # four in five are seated players
        stub = projection_pb2_grpc.ProjectionServiceStub(channels[i % len(channels)])
        call = stub.WatchTable(
            pb.WatchTableRequest(table="tables/bench-fanout"),
            metadata=[("authorization", f"Bearer {tokens.issue(user)}")],
        )
        async for message in call:
            if message.kind == pb.UPDATE_KIND_SNAPSHOT:
                ready.release()
                continue
            received.append((message.version, time.time()))
            if message.version >= last:
                call.cancel()
                return

    tasks = [asyncio.create_task(viewer(first + i)) for i in range(count)]
    for _ in range(count):
        await ready.acquire()
    print("READY", flush=True)
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    print(" ".join(f"{v}:{t:.6f}" for v, t in received), flush=True)
    for channel in channels:
        await channel.close()


async def bench_fanout(store: EventStore, viewers: int) -> None:
    game = get_game("testgame")
    events = random_match(game, random.Random(11), "bench-fanout", max_commands=200, options={"target": 200}, players=4)
    commands = _groups(events)
    sid = events[0].stream_id
    service = projection_service.build(store)
    address = f"127.0.0.1:{free_port()}"
    server, _, _ = build_server(Authenticator([DevProvider(SECRET)]), [service.register()], address)
    await server.start()
    await service.start()
    version = 0
    for group in commands[:2]:
        await store.append(sid, version, [_new(e) for e in group])
        version += len(group)
    processes = min(8, max(1, viewers // 125))
    per = viewers // processes
    clients = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--viewers",
            address,
            str(k * per),
            str(per),
            str(len(events)),
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 26,
        )
        for k in range(processes)
    ]
    for client in clients:
        assert client.stdout is not None
        assert (await client.stdout.readline()).strip() == b"READY"
    print(f"{per * processes} viewers connected from {processes} client processes")
    sent_at: dict[int, float] = {}
    for group in commands[2:]:
        t0 = time.time()
        await store.append(sid, version, [_new(e) for e in group])
        for e in group:
            sent_at[e.version] = t0
        version += len(group)
        await asyncio.sleep(0.1)
    latencies: list[float] = []
    for client in clients:
        assert client.stdout is not None
        line = (await asyncio.wait_for(client.stdout.readline(), 300)).decode()
        for sample in line.split():
            v, at = sample.split(":")
            latencies.append((float(at) - sent_at[int(v)]) * 1000)
        await client.wait()
    latencies.sort()
    p = statistics.quantiles(latencies, n=100)
    print(
        f"fan-out to {per * processes} viewers, {len(sent_at)} versions at 10 commands/s,"
        f" {len(latencies)} deliveries: p50 {p[49]:.1f} ms, p99 {p[98]:.1f} ms, max {latencies[-1]:.1f} ms"
    )
    await server.stop(grace=1)
    await service.close()


async def main() -> None:
    servers = await find_servers(
        ROOT / ".data" / "bench",
        "postgres",
        os.environ.get("TABLEHALL_DATABASE_URL"),
        os.environ.get("TABLEHALL_NATS_URL"),
    )
    name = f"tablehall_bench_{uuid.uuid4().hex[:8]}"
    url = await ensure_database(servers.database_url, name)
    try:
        await migrate(url, extra=[match_service.MIGRATIONS, projection_service.MIGRATIONS])
        store = await EventStore.connect(url, max_size=24)
        try:
            await bench_rebuild(store)
            await bench_fanout(store, VIEWERS)
        finally:
            await store.close()
    finally:
        conn = await asyncpg.connect(with_database(servers.database_url, "postgres"))
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()
        servers.stop()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--viewers"]:
        asyncio.run(viewers_process(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])))
    else:
        asyncio.run(main())
