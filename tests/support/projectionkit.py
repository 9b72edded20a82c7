"""Helpers for tests that run the match and projection services in one process
on one gRPC server, sharing one event store (as `tablehall up` does)."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, replace

import grpc

from support.matchkit import SECRET, SERVICE_SECRET, Tokens, race_command
from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall.projection.v1 import projection_pb2_grpc
from tablehall_eventstore import EventStore
from tablehall_match import service as match_service
from tablehall_platform.auth import Authenticator, DevProvider, ServiceProvider
from tablehall_platform.config import Settings
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import free_port
from tablehall_projection import service as projection_service

MODEL_TABLES = ("proj_tables", "proj_journal", "proj_standings", "proj_player_games")
USERS = ("alice", "bob", "carol", "dave")


@dataclass
class Stack:
    store: EventStore
    match: match_service.MatchService
    projection: projection_service.ProjectionService
    server: grpc.aio.Server
    channel: grpc.aio.Channel
    stub: match_pb2_grpc.MatchServiceStub
    proj: projection_pb2_grpc.ProjectionServiceStub
    database_url: str


async def start_stack(database_url: str, batch: int | None = None) -> Stack:
    store = await EventStore.connect(database_url)
    address = f"127.0.0.1:{free_port()}"
    settings = replace(Settings(), instance_id=f"test-{uuid.uuid4().hex[:6]}")
    match = match_service.build(store, settings, address)
    projection = projection_service.build(store, batch)
    server, _, _ = build_server(
        Authenticator([DevProvider(SECRET), ServiceProvider(SERVICE_SECRET)]),
        [match.register(), projection.register()],
        address,
    )
    await server.start()
    match.start_background()
    await projection.start()
    channel = grpc.aio.insecure_channel(address)
    return Stack(
        store,
        match,
        projection,
        server,
        channel,
        match_pb2_grpc.MatchServiceStub(channel),
        projection_pb2_grpc.ProjectionServiceStub(channel),
        database_url,
    )


async def stop_stack(stack: Stack) -> None:
    await stack.channel.close()
    await stack.server.stop(grace=1)
    await stack.projection.close()
    await stack.match.close()
    await stack.store.close()


async def new_race(
    stack: Stack, tokens: Tokens, players: int = 2, options: str = '{"target": 30, "clock_ms": 100}'
) -> str:
    table = f"tables/t-{uuid.uuid4().hex[:12]}"
    await stack.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="testgame",
            options_json=options,
            seats=[match_pb2.Seat(seat=i, user_id=u, name=u.title()) for i, u in enumerate(USERS[:players])],
            request_id="start",
        ),
        metadata=tokens("lobby", ("service",)),
    )
    return table


async def play(stack: Stack, tokens: Tokens, table: str, moves: int, *, timeouts: bool = False) -> int:
    """Up to `moves` commands (rolls, passes, and timer defaults if asked); the version after."""
    version = 0
    for i in range(moves):
        view = await stack.stub.GetTableView(
            match_pb2.GetTableViewRequest(table=table), metadata=tokens("op", ("operator",))
        )
        if view.view.finished:
            return int(view.view.version)
        decision = view.view.decisions[0]
        if timeouts and i % 5 == 4:
            await asyncio.sleep(decision.clock_ms / 1000 + 0.01)  # let the clock run out
            reply = await stack.stub.SubmitDefaultCommand(
                match_pb2.SubmitDefaultCommandRequest(table=table, decision_key=decision.key, request_id=decision.key),
                metadata=tokens("timer", ("service",)),
            )
        else:
            reply = await stack.stub.SubmitCommand(
                match_pb2.SubmitCommandRequest(
                    table=table,
                    seat=decision.seat,
                    command=race_command("pass" if i % 4 == 3 else "roll"),
                    request_id=f"m{i}",
                ),
                metadata=tokens(USERS[decision.seat]),
            )
        version = reply.version
    return version


async def finish(stack: Stack, tokens: Tokens, table: str, *, timeouts: bool = False) -> int:
    """Play until the race ends; the final version."""
    for _ in range(20):
        await play(stack, tokens, table, 50, timeouts=timeouts)
        reply = await stack.stub.GetTableView(
            match_pb2.GetTableViewRequest(table=table), metadata=tokens("op", ("operator",))
        )
        if reply.view.finished:
            return int(reply.view.version)
    raise AssertionError("the race did not end")


async def dump_models(store: EventStore) -> dict[str, list[tuple[object, ...]]]:
    """Every read model's rows, in a stable order (for comparisons)."""
    out = {}
    for table in MODEL_TABLES:
        rows = await store.pool.fetch(f"SELECT * FROM {table} t ORDER BY t::text")
        out[table] = [tuple(r) for r in rows]
    return out


async def caught_up(stack: Stack) -> None:
    """Wait until every projector has applied every event."""
    for _ in range(400):
        lags = [await p.lag() for p in stack.projection.app.projectors.values()]
        positions = [await p.checkpoint() for p in stack.projection.app.projectors.values()]
        head = await stack.store.pool.fetchval("SELECT coalesce(max(position), 0) FROM events")
        if all(pos == head for pos in positions) and all(lag.events == 0 for lag in lags):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("projections did not catch up")
