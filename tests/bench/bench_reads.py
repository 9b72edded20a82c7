"""Reads against writes: players polling their view while they play.

Run with `make bench-reads` (not part of `make test`). It starts a match service in a
subprocess (`tablehall serve match`, as bench_match.py does) against a fresh database, opens
`--clients / 2` race tables of two players, and runs one closed loop per player for
`--seconds`: GetTableView of its own seat (as the player, not a service), then, when the view
says it is its turn, SubmitCommand (a roll), else a pause of about `--think-ms` (0.5-1.5 times,
at random) before it looks again. It prints, per method, the calls, p50 and p99 and
the service's CPU. `--profile FILE` runs the service under cProfile and writes its statistics
there (`python -m pstats FILE`).

Issue 30.7 measured GetTableView's p99 at 2.6 s against SubmitCommand's 643 ms under 200 clients
for 60 s; this is the command that reproduces that shape on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
import uuid
from pathlib import Path

import grpc
import uvloop

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "bench"))
os.environ.setdefault("TABLEHALL_EXTRA_GAMES", "testgame=testgame.game:GAME")

from bench_match import bench_database, drop_database, percentile, proc_cpu, spawn, tokens, wait_ready  # noqa: E402
from support.matchkit import race_command  # noqa: E402

from tablehall.match.v1 import match_pb2, match_pb2_grpc  # noqa: E402
from tablehall_platform.infra import free_port  # noqa: E402

CONNECTIONS = 8


async def start_table(stub: match_pb2_grpc.MatchServiceStub, table: str, users: tuple[str, str]) -> None:
    await stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="testgame",
            options_json='{"target": 1000}',  # the longest race: about 570 rolls
            seats=[match_pb2.Seat(seat=i, user_id=u) for i, u in enumerate(users)],
            request_id="start",
        ),
        metadata=tokens("bench-lobby", ("service",)),
    )


async def player(
    stub: match_pb2_grpc.MatchServiceStub,
    table: str,
    seat: int,
    user: str,
    until: float,
    latencies: dict[str, list[float]],
    errors: dict[str, int],
    think: float,
) -> None:
    meta = tokens(user)
    rng = random.Random(user)
    view_request = match_pb2.GetTableViewRequest(table=table)
    n = 0
    while time.perf_counter() < until:
        started = time.perf_counter()
        try:
            reply = await stub.GetTableView(view_request, metadata=meta)
        except grpc.aio.AioRpcError as exc:
            errors[f"GetTableView {exc.code().name}"] = errors.get(f"GetTableView {exc.code().name}", 0) + 1
            continue
        latencies["GetTableView"].append(time.perf_counter() - started)
        if not any(d.seat == seat for d in reply.view.decisions):
            # not our turn: look again a moment later (jittered: people do not poll in step)
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            continue
        n += 1
        request = match_pb2.SubmitCommandRequest(
            table=table, seat=seat, command=race_command("roll"), request_id=f"{user}-{n}"
        )
        started = time.perf_counter()
        try:
            await stub.SubmitCommand(request, metadata=meta)
        except grpc.aio.AioRpcError as exc:
            errors[f"SubmitCommand {exc.code().name}"] = errors.get(f"SubmitCommand {exc.code().name}", 0) + 1
            continue
        latencies["SubmitCommand"].append(time.perf_counter() - started)


async def run(address: str, pid: int, clients: int, seconds: float, think: float) -> None:
    channels = [
        grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(CONNECTIONS)
    ]
    stubs = [match_pb2_grpc.MatchServiceStub(c) for c in channels]
    tables = [f"tables/r-{uuid.uuid4().hex[:12]}" for _ in range(clients // 2)]
    for i, table in enumerate(tables):
        await start_table(stubs[0], table, (f"u{i}a", f"u{i}b"))
    # warm up: each table loaded into the service's memory once, as a table in play is (the first
    # view of a table rebuilds it from the store; that is a rebuild's cost, not a view's)
    for i, table in enumerate(tables):
        await stubs[0].GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens(f"u{i}a"))
    latencies: dict[str, list[float]] = {"GetTableView": [], "SubmitCommand": []}
    errors: dict[str, int] = {}
    cpu_before, own_before, wall = proc_cpu(pid), time.process_time(), time.perf_counter()
    until = wall + seconds
    await asyncio.gather(
        *(
            player(
                stubs[(i * 2 + seat) % len(stubs)], table, seat, f"u{i}{'ab'[seat]}", until, latencies, errors, think
            )
            for i, table in enumerate(tables)
            for seat in (0, 1)
        )
    )
    wall = time.perf_counter() - wall
    cpu = (proc_cpu(pid) - cpu_before) / wall
    own = (time.process_time() - own_before) / wall
    print(
        f"{clients} clients ({len(tables)} tables of two players), {seconds:.0f} s, {think * 1000:.0f} ms between"
        f" looks; CPU: service {cpu:.2f} cores, clients {own:.2f}; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'method':>14} {'calls':>8} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8}")
    for method, values in latencies.items():
        print(
            f"{method:>14} {len(values):>8} {len(values) / wall:>8.0f} {percentile(values, 0.5) * 1000:>8.1f}"
            f" {percentile(values, 0.99) * 1000:>8.1f}"
        )
    if errors:
        print("errors:", ", ".join(f"{k} {v}" for k, v in sorted(errors.items())))
    for channel in channels:
        await channel.close()


def _absolute(path: str) -> str:
    return str(Path(path).resolve())  # the service runs in another folder


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think-ms", type=float, default=100.0, help="a player's pause before looking again")
    parser.add_argument(
        "--profile", default="", type=_absolute, help="run the service under cProfile, statistics to this file"
    )
    args = parser.parse_args()
    servers, name, database_url = await bench_database()
    port = free_port()
    address = f"127.0.0.1:{port}"
    profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    proc = spawn(database_url, servers.nats_url, port, prefix=profile)
    try:
        await wait_ready(address)
        print(f"match service pid {proc.pid}; PostgreSQL {servers.how['postgres']}; {os.cpu_count()} cores")
        await run(address, proc.pid, args.clients, args.seconds, args.think_ms / 1000)
    finally:
        proc.terminate()
        proc.wait()
    await drop_database(servers, name)


if __name__ == "__main__":
    uvloop.run(main())
