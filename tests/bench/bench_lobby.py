"""Lobby benchmark: a plain script printing figures (not part of `make test`).

Runs the lobby and the match service in this process on one gRPC server
(as `tablehall up` does) against real PostgreSQL, in a fresh database, and
measures through gRPC: creating tables, joining (many clients at once),
adding bots and starting, listing pages, chat, and presence changes while a
match writes to the same stream.

    make bench-lobby            # or: .venv/bin/python tests/bench/bench_lobby.py [--tables 200]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from support.lobbykit import start_lobby, stop_lobby  # noqa: E402
from support.matchkit import token_maker  # noqa: E402

from tablehall.lobby.v1 import lobby_pb2  # noqa: E402
from tablehall_eventstore import migrate  # noqa: E402
from tablehall_lobby import service as lobby_service  # noqa: E402
from tablehall_match import service as match_service  # noqa: E402
from tablehall_platform.infra import ensure_database, find_servers, with_database  # noqa: E402


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1000:6.2f} ms  p99 {p99 * 1000:6.2f} ms"


async def _timed(samples: list[float], call: Callable[[], Awaitable[Any]]) -> Any:
    started = time.perf_counter()
    result = await call()
    samples.append(time.perf_counter() - started)
    return result


async def bench(tables: int, clients: int) -> None:
    servers = await find_servers(ROOT / ".data" / "bench", "postgres")
    name = f"tablehall_bench_{uuid.uuid4().hex[:8]}"
    url = await ensure_database(servers.database_url, name)
    await migrate(url, extra=[match_service.MIGRATIONS, lobby_service.MIGRATIONS])
    running = await start_lobby(url, chat_messages=1_000_000)
    tokens = token_maker()
    stub = running.stub
    try:
        create: list[float] = []
        names = []
        wall = time.perf_counter()
        for i in range(tables):
            made = await _timed(
                create,
                functools.partial(
                    stub.CreateTable,
                    lobby_pb2.CreateTableRequest(game="testgame", seat_count=4, request_id=f"c{i}"),
                    metadata=tokens(f"host{i % 20}"),
                ),
            )
            names.append(made.table.name)
        print(f"CreateTable     x{tables:<5} {_ms(create)}  {tables / (time.perf_counter() - wall):7.0f}/s sequential")

        join: list[float] = []
        sem = asyncio.Semaphore(clients)

        async def join_one(table: str, user: str) -> None:
            async with sem:
                await _timed(
                    join,
                    lambda: stub.JoinTable(
                        lobby_pb2.JoinTableRequest(table=table, request_id=uuid.uuid4().hex), metadata=tokens(user)
                    ),
                )

        wall = time.perf_counter()
        await asyncio.gather(*(join_one(t, f"p{i}-{k}") for i, t in enumerate(names) for k in range(2)))
        elapsed = time.perf_counter() - wall
        print(f"JoinTable       x{len(join):<5} {_ms(join)}  {len(join) / elapsed:7.0f}/s with {clients} clients")

        start: list[float] = []
        wall = time.perf_counter()
        for i, table in enumerate(names):
            host = tokens(f"host{i % 20}")
            await _timed(
                start,
                functools.partial(stub.AddBot, lobby_pb2.AddBotRequest(table=table, request_id="bot"), metadata=host),
            )
            await _timed(
                start,
                functools.partial(
                    stub.StartTable, lobby_pb2.StartTableRequest(table=table, request_id="go"), metadata=host
                ),
            )
        print(f"AddBot+Start    x{len(start):<5} {_ms(start)}  (start includes the match's StartMatch)")

        listing: list[float] = []
        for _ in range(200):
            await _timed(
                listing,
                lambda: stub.ListTables(
                    lobby_pb2.ListTablesRequest(page_size=50, include_started=True), metadata=tokens("viewer")
                ),
            )
        print(f"ListTables(50)  x{len(listing):<5} {_ms(listing)}")

        chat: list[float] = []
        wall = time.perf_counter()
        for i in range(500):
            await _timed(
                chat,
                functools.partial(
                    stub.SendChatMessage,
                    lobby_pb2.SendChatMessageRequest(table=names[i % len(names)], text="gg", request_id=f"m{i}"),
                    metadata=tokens(f"host{i % len(names) % 20}"),
                ),
            )
        print(f"SendChatMessage x{len(chat):<5} {_ms(chat)}")

        presence: list[float] = []
        for i, table in enumerate(names[:100]):
            user = tokens(f"p{i}-0")
            call = stub.HoldPresence(lobby_pb2.HoldPresenceRequest(table=table), metadata=user)
            await _timed(presence, call.read)
            call.cancel()
        await running.lobby.presence.settle()
        print(f"HoldPresence open (PresenceChanged appended + ControlTable) x{len(presence)} {_ms(presence)}")
    finally:
        await stop_lobby(running)
        import asyncpg

        conn = await asyncpg.connect(with_database(servers.database_url, "postgres"))
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()
        servers.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--clients", type=int, default=32)
    args = parser.parse_args()
    import os

    os.environ.setdefault("TABLEHALL_EXTRA_GAMES", "testgame=testgame.game:GAME")
    asyncio.run(bench(args.tables, args.clients))


if __name__ == "__main__":
    main()
