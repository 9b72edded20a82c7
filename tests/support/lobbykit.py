"""Helpers for tests that run the lobby and the match service in one process,
on one gRPC server, as `tablehall up` does."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import grpc
import pytest

from support.matchkit import SECRET, SERVICE_SECRET
from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall.match.v1 import match_pb2_grpc
from tablehall_eventstore import EventStore
from tablehall_lobby import service as lobby_service
from tablehall_lobby.settings import LobbySettings
from tablehall_match import service as match_service
from tablehall_platform.auth import Authenticator, DevProvider, ServiceProvider
from tablehall_platform.config import Settings
from tablehall_platform.errors import error_info
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import free_port

T = TypeVar("T")


@dataclass
class Lobby:
    store: EventStore
    match: match_service.MatchService
    lobby: lobby_service.LobbyService
    server: grpc.aio.Server
    channel: grpc.aio.Channel
    stub: lobby_pb2_grpc.LobbyServiceStub
    identity: lobby_pb2_grpc.IdentityServiceStub
    match_stub: match_pb2_grpc.MatchServiceStub


async def start_lobby(database_url: str, dev: bool = True, **lobby_overrides: Any) -> Lobby:
    store = await EventStore.connect(database_url)
    address = f"127.0.0.1:{free_port()}"
    settings = replace(Settings(), instance_id=f"test-{uuid.uuid4().hex[:6]}")
    match = match_service.build(store, settings, address)
    services = ServiceProvider(SERVICE_SECRET)
    conf = replace(LobbySettings(), match_address=address, heartbeat_seconds=0.2, sweep_seconds=0.1, **lobby_overrides)
    metadata = [("authorization", f"Bearer {services.service_token('lobby')}")]
    lobby = lobby_service.build(store, address, metadata, DevProvider(SECRET) if dev else None, conf)
    providers: list[Any] = [DevProvider(SECRET)] if dev else []
    server, _, _ = build_server(
        Authenticator([*providers, services]),
        [match.register(), *lobby.register()],
        address,
        lobby_service.OPEN_METHODS,
    )
    await server.start()
    match.start_background()
    lobby.start_background()
    channel = grpc.aio.insecure_channel(address)
    return Lobby(
        store,
        match,
        lobby,
        server,
        channel,
        lobby_pb2_grpc.LobbyServiceStub(channel),
        lobby_pb2_grpc.IdentityServiceStub(channel),
        match_pb2_grpc.MatchServiceStub(channel),
    )


async def stop_lobby(running: Lobby) -> None:
    await running.channel.close()
    await running.server.stop(grace=1)
    await running.lobby.close()
    await running.match.close()
    await running.store.close()


def rid() -> str:
    return uuid.uuid4().hex[:10]


async def refused(call: Awaitable[Any], code: grpc.StatusCode, reason: str) -> None:
    """Assert the call fails with this status and ErrorInfo reason."""
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    info = error_info(caught.value)
    got = (caught.value.code(), info.reason if info else None)
    assert got == (code, reason), f"expected {code.name} {reason}, got {got[0].name} {got[1]}: {caught.value.details()}"


async def eventually(probe: Callable[[], Awaitable[T]], ok: Callable[[T], bool], within: float = 60.0) -> T:
    """`probe` until `ok` holds of its value (that value); `within` guards against a hang on however
    busy a machine, it is not a deadline the test asserts."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        value = await probe()
        if ok(value) or asyncio.get_running_loop().time() > deadline:
            assert ok(value), f"condition not met: {value!r}"
            return value
        await asyncio.sleep(0.05)


def race_table(
    private: bool = False, pin: str = "", seat_count: int = 4, options: str = '{"target": 30}'
) -> lobby_pb2.CreateTableRequest:
    return lobby_pb2.CreateTableRequest(
        game="testgame",
        options_json=options,
        seat_count=seat_count,
        private=private,
        pin=pin,
        request_id=rid(),
    )
