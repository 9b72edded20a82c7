"""GetTableBots: the seats bots play, read from the table's stream; precise refusals."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest
from support.lobbykit import refused
from support.matchkit import SECRET, SERVICE_SECRET, Running, Tokens, new_table
from tablehall_bot.grpc_port import BotServicer, register
from tablehall_bot.tables import Tables

from tablehall.bot.v1 import bot_pb2, bot_pb2_grpc
from tablehall.match.v1 import match_pb2
from tablehall_platform.auth import Authenticator, DevProvider, ServiceProvider
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import free_port


@pytest.fixture
async def bots(match: Running) -> AsyncIterator[bot_pb2_grpc.BotServiceStub]:
    address = f"127.0.0.1:{free_port()}"
    server, _, _ = build_server(
        Authenticator([DevProvider(SECRET), ServiceProvider(SERVICE_SECRET)]),
        [register(BotServicer(Tables(match.store, "easy")))],
        address,
    )
    await server.start()
    channel = grpc.aio.insecure_channel(address)
    yield bot_pb2_grpc.BotServiceStub(channel)
    await channel.close()
    await server.stop(grace=0)


async def test_bot_seats_of_a_started_table(match: Running, bots: bot_pb2_grpc.BotServiceStub, tokens: Tokens) -> None:
    table = new_table()
    seats = [
        match_pb2.Seat(seat=0, user_id="alice", name="Alice"),
        match_pb2.Seat(seat=1, user_id="bot:x:1", name="Bot 1", is_bot=True),
    ]
    await match.stub.StartMatch(
        match_pb2.StartMatchRequest(table=table, game="testgame", options_json="{}", seats=seats, request_id="s"),
        metadata=tokens("lobby", roles=("service",)),
    )
    reply = await bots.GetTableBots(bot_pb2.GetTableBotsRequest(table=table), metadata=tokens("carol"))
    assert reply.game == "testgame" and not reply.finished
    assert [(s.seat, s.user_id, s.difficulty, s.handed_over) for s in reply.seats] == [
        (1, "bot:x:1", bot_pb2.DIFFICULTY_EASY, False)
    ]


async def test_refusals(bots: bot_pb2_grpc.BotServiceStub, tokens: Tokens) -> None:
    await refused(
        bots.GetTableBots(bot_pb2.GetTableBotsRequest(table="tables/NOPE!"), metadata=tokens("carol")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_TABLE_NAME",
    )
    await refused(
        bots.GetTableBots(bot_pb2.GetTableBotsRequest(table="tables/no-such-table"), metadata=tokens("carol")),
        grpc.StatusCode.NOT_FOUND,
        "TABLE_NOT_FOUND",
    )
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await bots.GetTableBots(bot_pb2.GetTableBotsRequest(table="tables/no-such-table"))
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
