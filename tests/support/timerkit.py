"""Helpers for tests of the timer: an in-process timer beside an in-process match."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
import msgspec

from support.matchkit import SECRET, SERVICE_SECRET, Running
from tablehall.timer.v1 import timer_pb2_grpc
from tablehall_eventstore import EventStore, NewEvent, RecordedEvent, migrate
from tablehall_match import service as match_service
from tablehall_platform.auth import Authenticator, DevProvider, ServiceProvider
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import free_port
from tablehall_timer import service as timer_service
from tablehall_timer.settings import TimerSettings

TIMER_METADATA = [("authorization", f"Bearer {ServiceProvider(SERVICE_SECRET).service_token('timer')}")]


async def migrate_all(database_url: str) -> str:
    await migrate(database_url, extra=[match_service.MIGRATIONS, timer_service.MIGRATIONS])
    return database_url


@dataclass
class RunningTimer:
    store: EventStore
    service: timer_service.TimerService
    server: grpc.aio.Server
    channel: grpc.aio.Channel
    stub: timer_pb2_grpc.TimerServiceStub
    owner: str


async def start_timer(
    database_url: str,
    match_address: str,
    *,
    idle_close_seconds: float = 3600,
    lease_seconds: float = 2.0,
    owner: str | None = None,
    first_clock_wait_seconds: float = 0.0,
) -> RunningTimer:
    store = await EventStore.connect(database_url)
    settings = TimerSettings(
        match_address=match_address,
        idle_close_seconds=idle_close_seconds,
        lease_seconds=lease_seconds,
        concurrency=64,
        poll_seconds=0.02,
        first_clock_wait_seconds=first_clock_wait_seconds,
    )
    owner = owner or f"timer-test-{uuid.uuid4().hex[:6]}"
    service = timer_service.build(store, settings, owner, TIMER_METADATA)
    address = f"127.0.0.1:{free_port()}"
    server, _, _ = build_server(
        Authenticator([DevProvider(SECRET), ServiceProvider(SERVICE_SECRET)]), [service.register()], address
    )
    await server.start()
    await service.start()
    channel = grpc.aio.insecure_channel(address)
    return RunningTimer(store, service, server, channel, timer_pb2_grpc.TimerServiceStub(channel), owner)


@dataclass
class Env:
    """A test's own database, its match service and its timers."""

    database_url: str
    match: Running
    start_timer: Callable[..., Awaitable[RunningTimer]]
    stop_timer: Callable[[RunningTimer], Awaitable[None]]


async def stop_timer(timer: RunningTimer) -> None:
    await timer.channel.close()
    await timer.server.stop(grace=0.5)
    await timer.service.close()
    await timer.store.close()


def table_stream(table: str) -> str:
    return f"table-{table.split('/')[1]}"


async def events_of(store: EventStore, table: str) -> list[RecordedEvent]:
    return await store.read_stream(table_stream(table))


def timeouts(events: list[RecordedEvent]) -> Counter[str]:
    """How many default moves the stream holds per decision key."""
    return Counter(e.metadata["decision_key"] for e in events if e.metadata.get("timeout"))


async def wait_until(
    check: Callable[[], Awaitable[Any]], within: float = 60.0, interval: float = 0.05, what: str = "condition"
) -> Any:
    """Poll `check` until it returns something truthy; that value. `within` guards against a hang on
    however busy a machine; it is not a deadline the test asserts."""
    deadline = time.monotonic() + within
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(interval)


async def set_presence(store: EventStore, table: str, seat: int, user_id: str, present: bool) -> None:
    """What the lobby does: append lobby.PresenceChanged to the table's stream."""
    stream = table_stream(table)
    payload = {"seat": seat, "user_id": user_id, "present": present, "at_ms": int(time.time() * 1000)}
    version = await store.stream_version(stream)
    await store.append(stream, version, [NewEvent("lobby.PresenceChanged", 1, msgspec.json.encode(payload))])
