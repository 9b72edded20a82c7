"""AddBot takes a difficulty (host option) and records it in lobby.BotAdded."""

from __future__ import annotations

import grpc
import msgspec
from support.lobbykit import Lobby, race_table, refused, rid
from support.matchkit import Tokens

from tablehall.lobby.v1 import lobby_pb2


async def test_a_bots_difficulty_is_recorded_and_defaults_to_easy(lobby: Lobby, tokens: Tokens) -> None:
    host = tokens("dora")
    table = (await lobby.stub.CreateTable(race_table(), metadata=host)).table.name
    strong = lobby_pb2.AddBotRequest(table=table, request_id=rid(), difficulty=lobby_pb2.BOT_DIFFICULTY_STRONG)
    await lobby.stub.AddBot(strong, metadata=host)
    await lobby.stub.AddBot(lobby_pb2.AddBotRequest(table=table, request_id=rid()), metadata=host)
    events = await lobby.store.read_stream("table-" + table.removeprefix("tables/"))
    added = [msgspec.json.decode(e.payload) for e in events if e.type == "lobby.BotAdded"]
    assert [(a["seat"], a["difficulty"]) for a in added] == [(1, "strong"), (2, "easy")]


async def test_an_unknown_difficulty_is_refused_and_writes_nothing(lobby: Lobby, tokens: Tokens) -> None:
    host = tokens("dora")
    table = (await lobby.stub.CreateTable(race_table(), metadata=host)).table.name
    stream = "table-" + table.removeprefix("tables/")
    before = await lobby.store.stream_version(stream)
    await refused(
        lobby.stub.AddBot(lobby_pb2.AddBotRequest(table=table, request_id=rid(), difficulty=9), metadata=host),
        grpc.StatusCode.INVALID_ARGUMENT,
        "UNKNOWN_DIFFICULTY",
    )
    assert await lobby.store.stream_version(stream) == before
