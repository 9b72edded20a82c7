"""A match service killed with SIGKILL mid-stream loses no acknowledged command."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import asyncpg
import grpc
from support.matchkit import SECRET, SERVICE_SECRET, Tokens, race_command, start_race

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_eventstore import EventStore
from tablehall_platform.infra import free_port

ROOT = Path(__file__).resolve().parents[2]


def spawn(database_url: str, nats_url: str, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "TABLEHALL_DATABASE_URL": database_url,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_TOKEN_SECRET": SECRET,
        "TABLEHALL_SERVICE_SECRET": SERVICE_SECRET,
        "TABLEHALL_EXTRA_GAMES": "testgame=testgame.game:GAME",
        "PYTHONPATH": str(ROOT / "tests"),
        "TABLEHALL_METRICS_PORT": "0",
        "TABLEHALL_INSTANCE_ID": f"killable-{port}",
        "TABLEHALL_LOG_LEVEL": "warning",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tablehall_cli.main", "serve", "match", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )


async def wait_ready(stub: match_pb2_grpc.MatchServiceStub, tokens: Tokens) -> None:
    for _ in range(200):
        try:
            await stub.GetTableView(match_pb2.GetTableViewRequest(table="tables/probe"), metadata=tokens("x"))
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                return
        await asyncio.sleep(0.1)
    raise TimeoutError("match service did not come up")


async def drive(
    stub: match_pb2_grpc.MatchServiceStub, tokens: Tokens, table: str, acked: list[tuple[str, str]]
) -> None:
    """Play the race as fast as possible, recording every acknowledged request."""
    i = 0
    while True:
        i += 1
        view = await stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
        if view.view.finished:
            return
        seat = view.view.decisions[0].seat
        user = ("alice", "bob")[seat]
        rid = f"k{i}"
        await stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table, seat=seat, command=race_command("pass"), request_id=rid),
            metadata=tokens(user),
        )
        acked.append((user, rid))


async def _backends(conn: asyncpg.Connection) -> set[int]:
    """The PostgreSQL backends serving the database, but `conn`'s own."""
    rows = await conn.fetch(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    return {int(r[0]) for r in rows}


async def _gone(conn: asyncpg.Connection, pids: set[int]) -> None:
    """Until the killed process's backends have ended: one caught in a commit when its client died
    finishes that commit first, so the streams are read after it (a bound for a busy machine)."""
    async with asyncio.timeout(120):
        while await _backends(conn) & pids:  # noqa: ASYNC110 - PostgreSQL says nothing when a backend ends
            await asyncio.sleep(0.05)


async def test_sigkill_mid_stream_loses_no_acknowledged_command(migrated: str, nats_url: str, tokens: Tokens) -> None:
    watcher = await asyncpg.connect(migrated)
    others = await _backends(watcher)  # the session's other connections to this database
    port = free_port()
    proc = spawn(migrated, nats_url, port)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    stub = match_pb2_grpc.MatchServiceStub(channel)
    try:
        await wait_ready(stub, tokens)
        tables = [await start_race(stub, tokens, options='{"target": 1000}') for _ in range(4)]
        acked: dict[str, list[tuple[str, str]]] = {t: [] for t in tables}
        drivers = [asyncio.create_task(drive(stub, tokens, t, acked[t])) for t in tables]
        while sum(len(a) for a in acked.values()) < 60:  # noqa: ASYNC110 - polling a counter the drivers fill
            await asyncio.sleep(0.01)
        killed = await _backends(watcher) - others
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        results = await asyncio.gather(*drivers, return_exceptions=True)
        assert all(isinstance(r, grpc.aio.AioRpcError) for r in results)
        await _gone(watcher, killed)

        store = await EventStore.connect(migrated, min_size=1, max_size=2)
        try:
            for table, done in acked.items():
                table_id = table.split("/")[1]
                for user, rid in done:
                    assert await store.command_result(f"{table_id}:{user}:{rid}") is not None, (table, rid)
            versions = {t: await store.stream_version(f"table-{t.split('/')[1]}") for t in tables}
        finally:
            await store.close()

        proc = spawn(migrated, nats_url, port)
        await wait_ready(stub, tokens)
        for table in tables:
            view = await stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
            assert view.view.version == versions[table]
            seat = view.view.decisions[0].seat
            reply = await stub.SubmitCommand(
                match_pb2.SubmitCommandRequest(
                    table=table, seat=seat, command=race_command("roll"), request_id="after-restart"
                ),
                metadata=tokens(("alice", "bob")[seat]),
            )
            assert reply.version == versions[table] + 1
    finally:
        await channel.close()
        await watcher.close()
        proc.kill()
        proc.wait()
