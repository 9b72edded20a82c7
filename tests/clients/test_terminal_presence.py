"""`tablehall play`: the first clock waits until the person sees the table, and quitting leaves it.

Every service but the bot in process, the timer's first-clock wait at its default (30 s). The
terminal holds the seat's presence from the moment it shows the board, so the timer runs the
first decision's clock from that moment, not from the start (which the board may take seconds
to follow); pressing q closes the presence stream: the seat is absent and the table, having no
person left, stands still (its idle close then comes by the rules' idle policy)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import msgspec
import pytest
from support.clientkit import migrate_everything, start_server, stop_server, tokens, unique
from support.lobbykit import eventually
from textual.pilot import Pilot

from tablehall.timer.v1 import timer_pb2, timer_pb2_grpc
from tablehall_sdk import Client
from tablehall_terminal.app import TableApp
from tablehall_terminal.plans import PlayPlan

WAIT_S = 30


async def _until(pilot: Pilot[None], ok: Callable[[], Any], within: float = 30.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if ok():
            return True
        await pilot.pause(0.05)
    return False


async def test_the_first_clock_runs_from_the_moment_the_board_is_shown_and_q_leaves(
    fresh_database_url: Callable[[], Awaitable[str]], nats_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLEHALL_TIMER_FIRST_CLOCK_WAIT_SECONDS", str(WAIT_S))
    server = await start_server(await migrate_everything(await fresh_database_url()), nats_url, tmp_path)
    channel = grpc.aio.insecure_channel(server.address)
    timer = timer_pb2_grpc.TimerServiceStub(channel)

    async def presences(table: str) -> list[dict[str, Any]]:
        events = await server.store.read_stream(f"table-{table.split('/')[1]}")
        return [msgspec.json.decode(e.payload) for e in events if e.type == "lobby.PresenceChanged"]

    async def clocks(table: str) -> timer_pb2.TableClocks:
        reply = await timer.GetTableClocks(timer_pb2.GetTableClocksRequest(table=table), metadata=tokens("auditor"))
        return reply.clocks

    try:
        async with Client(server.address) as client:
            app = TableApp(client, PlayPlan("puzzipolia", 1, unique("ann")), "en")
            async with app.run_test(size=(120, 40)) as pilot:
                assert await _until(pilot, lambda: app.frame is not None and app.seat == 0), app.notice
                seen: list[dict[str, Any]] = []
                for _ in range(300):
                    seen = await presences(app.table)
                    if seen:
                        break
                    await pilot.pause(0.1)
                assert [(p["seat"], p["present"]) for p in seen] == [(0, True)]
                shown_at = seen[0]["at_ms"]
                table = app.table

                async def first_clock() -> timer_pb2.Clock:
                    (clock,) = [c for c in (await clocks(table)).clocks if c.seat == 0]
                    return clock

                # The timer folds the presence from the table's notifications, a moment after the
                # lobby appends it: read its clocks until they show that fold.
                order = await eventually(first_clock, lambda c: c.fires_at_unix_ms == shown_at + c.clock_ms)
                assert order.opened_at_unix_ms < shown_at
                assert order.fires_at_unix_ms == shown_at + order.clock_ms > order.deadline_unix_ms
                await pilot.press("q")
        for _ in range(300):
            if len(seen := await presences(table)) == 2:
                break
            await asyncio.sleep(0.1)
        assert [(p["seat"], p["present"]) for p in seen] == [(0, True), (0, False)]
        state = await clocks(table)
        assert state.state == timer_pb2.TABLE_STATE_STANDING_STILL
    finally:
        await channel.close()
        await stop_server(server)
