"""What a non-member sees of a table, on every service (docs/security.md):
one rule (`tablehall_platform.table_access`) for the lobby, the match, the
projection, the timer and the bot; spectators trail by the delay on every
path; a removed player neither sits nor watches."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
import pytest
from support.lobbykit import Lobby, refused, start_lobby, stop_lobby
from support.matchkit import SECRET, SERVICE_SECRET, Tokens, race_command
from tablehall_bot.grpc_port import BotServicer
from tablehall_bot.grpc_port import register as register_bot
from tablehall_bot.tables import Tables

from tablehall.bot.v1 import bot_pb2, bot_pb2_grpc
from tablehall.lobby.v1 import lobby_pb2
from tablehall.match.v1 import match_pb2
from tablehall.projection.v1 import projection_pb2 as pb
from tablehall.projection.v1 import projection_pb2_grpc
from tablehall.timer.v1 import timer_pb2, timer_pb2_grpc
from tablehall_eventstore import migrate
from tablehall_lobby import service as lobby_service
from tablehall_match import service as match_service
from tablehall_platform.auth import Authenticator, DevProvider, ServiceProvider
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import free_port
from tablehall_projection import service as projection_service
from tablehall_timer.grpc_port import TimerServicer
from tablehall_timer.grpc_port import register as register_timer
from tablehall_timer.scheduler import Scheduler

PIN = "7355-open"


@dataclass
class Stack:
    lobby: Lobby
    projection: projection_service.ProjectionService
    proj: projection_pb2_grpc.ProjectionServiceStub
    timer: timer_pb2_grpc.TimerServiceStub
    bots: bot_pb2_grpc.BotServiceStub


@pytest.fixture
async def stack(database_url: str) -> AsyncIterator[Stack]:
    await migrate(
        database_url, extra=[match_service.MIGRATIONS, lobby_service.MIGRATIONS, projection_service.MIGRATIONS]
    )
    lobby = await start_lobby(database_url)
    projection = projection_service.build(lobby.store, None)
    scheduler = Scheduler(executor=None, idle_ms=60_000)  # type: ignore[arg-type]
    address = f"127.0.0.1:{free_port()}"
    server, _, _ = build_server(
        Authenticator([DevProvider(SECRET), ServiceProvider(SERVICE_SECRET)]),
        [
            projection.register(),
            register_timer(TimerServicer(scheduler, lobby.store.pool)),
            register_bot(BotServicer(Tables(lobby.store, "easy"))),
        ],
        address,
    )
    await server.start()
    await projection.start()
    channel = grpc.aio.insecure_channel(address)
    yield Stack(
        lobby,
        projection,
        projection_pb2_grpc.ProjectionServiceStub(channel),
        timer_pb2_grpc.TimerServiceStub(channel),
        bot_pb2_grpc.BotServiceStub(channel),
    )
    await channel.close()
    await server.stop(grace=0)
    await projection.close()
    await stop_lobby(lobby)


def rid() -> str:
    return uuid.uuid4().hex[:10]


async def _table(stack: Stack, tokens: Tokens, *, private: bool, spectators: bool, delay: int = 0) -> str:
    stub = stack.lobby.stub
    made = await stub.CreateTable(
        lobby_pb2.CreateTableRequest(
            game="testgame",
            options_json=f'{{"target": 200, "clock_ms": 60000, "spectator_delay": {delay}}}',
            seat_count=2,
            private=private,
            pin=PIN if private else "",
            spectators_allowed=spectators,
            request_id=rid(),
        ),
        metadata=tokens("hana"),
    )
    name = made.table.name
    await stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, pin=PIN, request_id=rid()), metadata=tokens("gus"))
    await stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("hana"))
    return str(name)


async def _moves(stack: Stack, tokens: Tokens, table: str, count: int) -> int:
    version = 0
    for i in range(count):
        view = await stack.lobby.match_stub.GetTableView(
            match_pb2.GetTableViewRequest(table=table), metadata=tokens("op", ("operator",))
        )
        decision = view.view.decisions[0]
        user = ("hana", "gus")[decision.seat]
        reply = await stack.lobby.match_stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(
                table=table, seat=decision.seat, command=race_command("roll"), request_id=f"x{i}"
            ),
            metadata=tokens(user),
        )
        version = reply.version
    return version


async def _caught_up(stack: Stack) -> None:
    """Every read model at the head (the projection's own loop applies it)."""
    head = await stack.lobby.store.pool.fetchval("SELECT max(position) FROM events")
    for _ in range(400):
        positions = [await p.checkpoint() for p in stack.projection.app.projectors.values()]
        if min(positions) >= head:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("projections did not catch up")


async def _first_watch(stack: Stack, tokens: Tokens, table: str, user: str) -> pb.WatchTableResponse:
    call = stack.proj.WatchTable(pb.WatchTableRequest(table=table), metadata=tokens(user))
    try:
        async for update in call:
            return update
    finally:
        call.cancel()
    raise AssertionError("no frame")


async def test_a_private_table_shows_a_non_member_only_that_it_exists(stack: Stack, tokens: Tokens) -> None:
    table = await _table(stack, tokens, private=True, spectators=True)
    await _moves(stack, tokens, table, 2)
    await _caught_up(stack)
    mallory = tokens("mallory")
    card = (await stack.lobby.stub.GetTable(lobby_pb2.GetTableRequest(table=table), metadata=mallory)).table
    assert card.private and card.game == "testgame" and card.seats_taken == 2
    assert not card.host_user_id and all(not s.user_id for s in card.seats) and card.version == 0
    listed = await stack.lobby.stub.ListTables(lobby_pb2.ListTablesRequest(include_started=True), metadata=mallory)
    assert table not in [t.name for t in listed.tables]
    hosts = await stack.lobby.stub.ListTables(
        lobby_pb2.ListTablesRequest(include_started=True), metadata=tokens("hana")
    )
    assert table in [t.name for t in hosts.tables]
    summary = (await stack.proj.GetTable(pb.GetTableRequest(table=table), metadata=mallory)).table
    assert not summary.seats and summary.version == 0 and not summary.last_event_type
    member = (await stack.proj.GetTable(pb.GetTableRequest(table=table), metadata=tokens("gus"))).table
    assert [s.user_id for s in member.seats] == ["hana", "gus"] and member.version > 0
    projected = await stack.proj.ListTables(pb.ListTablesRequest(), metadata=mallory)
    assert table not in [t.table for t in projected.tables]
    for call in (
        stack.timer.GetTableClocks(timer_pb2.GetTableClocksRequest(table=table), metadata=mallory),
        stack.bots.GetTableBots(bot_pb2.GetTableBotsRequest(table=table), metadata=mallory),
        stack.lobby.match_stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=mallory),
        stack.proj.ListJournal(pb.ListJournalRequest(table=table), metadata=mallory),
        stack.proj.GetStandings(pb.GetStandingsRequest(table=table), metadata=mallory),
    ):
        await refused(call, grpc.StatusCode.PERMISSION_DENIED, "TABLE_PRIVATE")
    # members pass the same rule (the timer knows no clocks here: it is not following this store)
    await refused(
        stack.timer.GetTableClocks(timer_pb2.GetTableClocksRequest(table=table), metadata=tokens("gus")),
        grpc.StatusCode.NOT_FOUND,
        "TABLE_NOT_SCHEDULED",
    )
    bots = await stack.bots.GetTableBots(bot_pb2.GetTableBotsRequest(table=table), metadata=tokens("gus"))
    assert bots.game == "testgame"


async def test_a_table_without_spectators_shows_a_non_member_its_lobby_card_only(stack: Stack, tokens: Tokens) -> None:
    table = await _table(stack, tokens, private=False, spectators=False)
    await _moves(stack, tokens, table, 2)
    await _caught_up(stack)
    mallory = tokens("mallory")
    card = (await stack.lobby.stub.GetTable(lobby_pb2.GetTableRequest(table=table), metadata=mallory)).table
    assert [s.user_id for s in card.seats] == ["hana", "gus"] and card.version == 0
    summary = (await stack.proj.GetTable(pb.GetTableRequest(table=table), metadata=mallory)).table
    assert len(summary.seats) == 2 and summary.version == 0 and not summary.last_event_type
    for call in (
        stack.timer.GetTableClocks(timer_pb2.GetTableClocksRequest(table=table), metadata=mallory),
        stack.bots.GetTableBots(bot_pb2.GetTableBotsRequest(table=table), metadata=mallory),
    ):
        await refused(call, grpc.StatusCode.PERMISSION_DENIED, "SPECTATORS_NOT_ALLOWED")


async def test_spectators_trail_by_the_delay_on_every_path(stack: Stack, tokens: Tokens) -> None:
    table = await _table(stack, tokens, private=True, spectators=True, delay=3)
    await stack.lobby.stub.EnterTable(
        lobby_pb2.EnterTableRequest(table=table, pin=PIN, request_id=rid()), metadata=tokens("sam")
    )
    head = await _moves(stack, tokens, table, 6)
    await _caught_up(stack)
    sam = tokens("sam")
    match_view = await stack.lobby.match_stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=sam)
    assert match_view.view.version == head - 3 and match_view.view.role == match_pb2.VIEWER_ROLE_SPECTATOR
    lobby_view = await stack.lobby.stub.WatchTable(lobby_pb2.WatchTableRequest(table=table), metadata=sam)
    assert lobby_view.view.version == head - 3
    summary = (await stack.proj.GetTable(pb.GetTableRequest(table=table), metadata=sam)).table
    assert summary.version == head - 3
    frame = await _first_watch(stack, tokens, table, "sam")
    assert frame.version == head - 3
    await refused(
        stack.timer.GetTableClocks(timer_pb2.GetTableClocksRequest(table=table), metadata=sam),
        grpc.StatusCode.PERMISSION_DENIED,
        "SPECTATOR_DELAYED",
    )
    player = await stack.lobby.match_stub.GetTableView(
        match_pb2.GetTableViewRequest(table=table), metadata=tokens("gus")
    )
    assert player.view.version == head


async def test_a_removed_player_no_longer_watches_as_their_seat(stack: Stack, tokens: Tokens) -> None:
    table = await _table(stack, tokens, private=False, spectators=True)
    await _moves(stack, tokens, table, 2)
    await stack.lobby.stub.RemoveSeat(
        lobby_pb2.RemoveSeatRequest(table=table, seat=1, request_id=rid()), metadata=tokens("hana")
    )
    await _caught_up(stack)
    gus = tokens("gus")
    call = stack.proj.WatchTable(pb.WatchTableRequest(table=table), metadata=gus)
    await refused(_drain(call), grpc.StatusCode.PERMISSION_DENIED, "REMOVED_FROM_TABLE")
    for request in (
        stack.proj.ListJournal(pb.ListJournalRequest(table=table), metadata=gus),
        stack.lobby.match_stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=gus),
        stack.lobby.match_stub.GetTableView(match_pb2.GetTableViewRequest(table=table, seat=1), metadata=gus),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await request
        assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    # a spectator who was never removed still watches
    frame = await _first_watch(stack, tokens, table, "walt")
    assert frame.role == match_pb2.VIEWER_ROLE_SPECTATOR


async def _drain(call: grpc.aio.UnaryStreamCall) -> None:
    """The stream's refusal; a first frame is a failure (a removed player got their old seat)."""
    async for update in call:
        call.cancel()
        raise AssertionError(f"watched as {update.role} seat {update.seat}")
