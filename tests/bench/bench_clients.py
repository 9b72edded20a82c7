"""Benchmark of the SDK against every service in one process (`make bench-clients`).

Prints: round-trip latency of SubmitCommand through the SDK (request id, retry wrapper, typed
models) vs the raw generated stub, GetTableView latency, and how long the live view takes to
resume after the server restarts. Plain figures, no assertions.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from support.clientkit import migrate_everything, start_server, stop_server  # noqa: E402

from tablehall.match.v1 import match_pb2, match_pb2_grpc  # noqa: E402
from tablehall_platform.infra import ensure_database, find_servers  # noqa: E402
from tablehall_sdk import Client, Command, RetryPolicy, Role  # noqa: E402

N = 300


def figures(name: str, samples: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[int(len(ms) * 0.99) - 1]
    print(f"{name:40s} n={len(ms):4d}  median {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms")


async def race_players(client: Client, other: Client) -> str:
    table = await client.create_table("puzzipolia", {"round_limit": 0, "decision_clock_s": 90}, seat_count=2)
    await other.join(table.name)
    await client.start(table.name)
    return table.name


async def main() -> None:
    data = Path(tempfile.mkdtemp(prefix="bench-clients-"))
    servers = await find_servers(data, "postgres", None, None)
    url = await migrate_everything(await ensure_database(servers.database_url, f"bench_clients_{uuid.uuid4().hex[:8]}"))
    running = await start_server(url, servers.nats_url, data)
    address = running.address
    retry = RetryPolicy(attempts=200, first_delay=0.02, max_delay=0.1, reconnect_for=30)
    ann, bob = Client(address, retry=retry), Client(address, retry=retry)
    await ann.sign_in_dev("ann")
    await bob.sign_in_dev("bob")

    views = []
    table = await race_players(ann, bob)
    for _ in range(N):
        t0 = time.perf_counter()
        await ann.view(table, Role.SEAT)
        views.append(time.perf_counter() - t0)
    figures("SDK GetTableView", views)

    # one roll for the order per seat is legal on a fresh table: a new 2-seat table per pair
    sdk, raw = [], []
    stub = match_pb2_grpc.MatchServiceStub(ann._transport.channel)
    for _ in range(N // 10):
        table = await race_players(ann, bob)
        t0 = time.perf_counter()
        await ann.submit(table, 0, Command("puzzipolia", "roll_for_order"))
        sdk.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(
                table=table,
                seat=1,
                request_id=uuid.uuid4().hex,
                command=match_pb2.GameCommand(puzzipolia={"roll_for_order": {}}),
            ),
            metadata=[("authorization", f"Bearer {bob.token}")],
        )
        raw.append(time.perf_counter() - t0)
    figures("SDK SubmitCommand (roll for order)", sdk)
    figures("raw stub SubmitCommand (roll for order)", raw)

    resumes = []
    for _ in range(5):
        table = await race_players(ann, bob)
        got = asyncio.Queue[int]()

        async def follow(name: str = table, queue: asyncio.Queue[int] = got) -> None:
            async for update in bob.watch(name):
                queue.put_nowait(update.version)

        task = asyncio.create_task(follow())
        await got.get()
        await stop_server(running, grace=0)
        t0 = time.perf_counter()
        running = await start_server(url, servers.nats_url, data, address=address)
        await ann.submit(table, 0, Command("puzzipolia", "roll_for_order"))
        await got.get()
        resumes.append(time.perf_counter() - t0)
        task.cancel()
    figures("server restart -> next live update", resumes)
    await ann.close()
    await bob.close()
    await stop_server(running)
    servers.stop()


if __name__ == "__main__":
    asyncio.run(main())
