"""`tablehall up`'s demo: one table at a time (taken up again after a restart), played at a human pace."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
from support.upkit import Up, base_env, drop_consumer, start_up

from tablehall_platform.infra import free_port

PACE_MS = 300
MOVES = 6


async def test_one_demo_table_across_restarts_and_its_moves_are_paced(
    fresh_database_url: Callable[[], Awaitable[str]], nats_url: str, tmp_path: Path
) -> None:
    database_url = await fresh_database_url()
    consumer = f"bot-demo-test-{uuid.uuid4().hex[:8]}"
    env = {
        **base_env(tmp_path),
        "TABLEHALL_DATABASE_URL": database_url,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_BOT_CONSUMER": consumer,
        "TABLEHALL_BOT_DEMO_PACE_MS": str(PACE_MS),
    }
    try:
        first = await asyncio.to_thread(start_up, env, tmp_path, free_port(), "first")
        table = await _stop(first)
        second = await asyncio.to_thread(start_up, env, tmp_path, free_port(), "second")
        try:
            # the restart takes the same table up again (announced once it is open, after serving)
            assert (await _announced(second)).startswith(f"{ANNOUNCED}{table} ")
            moves = await _bot_moves(database_url, table)
        finally:
            await _stop(second)
    finally:
        await drop_consumer(nats_url, consumer)
    conn = await asyncpg.connect(database_url)
    try:
        hosted = await conn.fetchval(
            "SELECT count(*) FROM events WHERE type = 'lobby.TableCreated' AND payload->>'host_user_id' = 'service:bot'"
        )
    finally:
        await conn.close()
    assert hosted == 1  # the restart took the running demo table up again
    assert len(moves) >= MOVES
    # each bot move waits the pace after the command before it
    gaps = [later - earlier for earlier, later in itertools.pairwise(moves)]
    assert min(gaps) >= PACE_MS, gaps


ANNOUNCED = "Demo table of four bots: tables/"


async def _announced(up: Up) -> str:
    """The run's announcement of its demo table, once printed (the table opens after the services
    serve: on a busy machine some seconds later); the run must not end or stay silent 180 s."""
    deadline = time.monotonic() + 180
    while True:
        line = next((line for line in up.err().splitlines() if line.startswith(ANNOUNCED)), None)
        if line is not None:
            return line
        assert up.proc.poll() is None, up.err()
        assert time.monotonic() < deadline, up.err()
        await asyncio.sleep(0.2)


async def _stop(up: Up) -> str:
    """Once the run announced its demo table: SIGINT, the exit status, and that table's id."""
    line = await _announced(up)
    os.killpg(up.proc.pid, signal.SIGINT)
    assert await asyncio.to_thread(up.proc.wait, 60) == 0, up.err()
    return line.split("tables/")[1].split()[0]


async def _bot_moves(database_url: str, table: str) -> list[int]:
    """`now_ms` of the demo table's commands made by its bots (not by the clock), once there are MOVES."""
    conn = await asyncpg.connect(database_url)
    try:
        deadline = time.monotonic() + 120
        while True:
            rows = await conn.fetch(
                "SELECT metadata FROM events WHERE stream_id = $1 ORDER BY version", f"table-{table}"
            )
            metas = [json.loads(r["metadata"]) if isinstance(r["metadata"], str) else r["metadata"] for r in rows]
            moves = [
                int(m["now_ms"]) for m in metas if m.get("seat") is not None and "now_ms" in m and not m.get("timeout")
            ]
            if len(moves) >= MOVES or time.monotonic() > deadline:
                return moves
            await asyncio.sleep(0.5)
    finally:
        await conn.close()
