"""Helpers for tests that run the match service in process."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace

import grpc

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_eventstore import EventStore
from tablehall_match import service as match_service
from tablehall_platform.auth import Authenticator, DevProvider, ServiceProvider
from tablehall_platform.config import Settings
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import free_port

# the test games (the dice race and Ним, the sixth game on the kit), and "ghost": a game the registry knows whose package is not installed
os.environ.setdefault(
    "TABLEHALL_EXTRA_GAMES", "testgame=testgame.game:GAME,nim=nim.game:GAME,ghost=tablehall_ghost.game:GAME"
)
SECRET = "test-secret-0123456789abcdef-0123456789"
SERVICE_SECRET = "test-service-secret-0123456789abcdef-01"
Tokens = Callable[..., list[tuple[str, str]]]


@dataclass
class Running:
    store: EventStore
    service: match_service.MatchService
    server: grpc.aio.Server
    address: str
    channel: grpc.aio.Channel
    stub: match_pb2_grpc.MatchServiceStub


async def start_service(database_url: str, **overrides: object) -> Running:
    store = await EventStore.connect(database_url)
    port = free_port()
    address = f"127.0.0.1:{port}"
    settings = replace(Settings(), instance_id=f"test-{uuid.uuid4().hex[:6]}", **overrides)  # type: ignore[arg-type]
    service = match_service.build(store, settings, address)
    server, _, _ = build_server(
        Authenticator([DevProvider(SECRET), ServiceProvider(SERVICE_SECRET)]), [service.register()], address
    )
    await server.start()
    service.start_background()
    channel = grpc.aio.insecure_channel(address)
    return Running(store, service, server, address, channel, match_pb2_grpc.MatchServiceStub(channel))


async def stop_service(running: Running) -> None:
    await running.channel.close()
    await running.server.stop(grace=1)
    await running.service.close()
    await running.store.close()


def new_table() -> str:
    return f"tables/t-{uuid.uuid4().hex[:12]}"


def race_command(kind: str) -> match_pb2.GameCommand:
    """A test game command as a client sends it: packed in GameCommand.other."""
    from testgame.proto import testgame_pb2

    inner = testgame_pb2.Command(**{kind: getattr(testgame_pb2, kind.capitalize())()})
    command = match_pb2.GameCommand()
    command.other.Pack(inner)
    return command


async def start_race(
    stub: match_pb2_grpc.MatchServiceStub,
    tokens: Callable[..., list[tuple[str, str]]],
    users: tuple[str, ...] = ("alice", "bob"),
    options: str = '{"target": 30}',
) -> str:
    table = new_table()
    await stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="testgame",
            options_json=options,
            seats=[match_pb2.Seat(seat=i, user_id=u, name=u.title()) for i, u in enumerate(users)],
            request_id="start",
        ),
        metadata=tokens("lobby", ("service",)),
    )
    return table


def token_maker(secret: str = SECRET, service_secret: str = SERVICE_SECRET) -> Tokens:
    """tokens(user, roles): a development token; role "service" gets a service token."""
    people = DevProvider(secret)
    services = ServiceProvider(service_secret)

    def make(user: str, roles: tuple[str, ...] = ("player",)) -> list[tuple[str, str]]:
        token = services.service_token(user) if "service" in roles else people.issue(user, roles=roles)
        return [("authorization", f"Bearer {token}")]

    return make


LOBBY = ("lobby", ("service",))


async def start_seated(match: Running, tokens: Tokens, game: str, users: tuple[str, ...] = ("alice", "bob")) -> str:
    """A new table of `game` for `users` (alice at seat 0, bob at seat 1, ...), started as the lobby starts it."""
    table = new_table()
    await match.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game=game,
            seats=[match_pb2.Seat(seat=i, user_id=u, name=u.title()) for i, u in enumerate(users)],
            request_id="start",
        ),
        metadata=tokens(*LOBBY),
    )
    return table


async def control(match: Running, tokens: Tokens, table: str, rid: str, applied: bool = True, **action: object) -> int:
    """A table action as the lobby sends it (`ControlTable`); checks `applied`, returns the version."""
    reply = await match.stub.ControlTable(
        match_pb2.ControlTableRequest(table=table, request_id=rid, **action),
        metadata=tokens(*LOBBY),
    )
    assert reply.applied == applied
    return int(reply.version)


async def players_seen(match: Running, tokens: Tokens, table: str) -> list[dict[str, object]]:
    """The view's `players`, as alice sees them."""
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    players: list[dict[str, object]] = json.loads(view.view.view_json)["players"]
    return players
