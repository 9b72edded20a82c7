"""Concurrent lobby commands and the match writing into the same stream."""

from __future__ import annotations

import asyncio
import itertools
import json

import grpc
from support.lobbykit import Lobby, eventually, race_table, rid
from support.matchkit import Tokens, race_command

from tablehall.lobby.v1 import lobby_pb2
from tablehall.match.v1 import match_pb2
from tablehall_lobby.events import table_stream
from tablehall_platform.errors import error_info


async def test_many_race_for_the_last_seats_and_exactly_enough_win(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(seat_count=4), metadata=tokens("host"))
    name = made.table.name
    users = [f"u{i}" for i in range(10)]
    results = await asyncio.gather(
        *(
            lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens(u))
            for u in users
        ),
        return_exceptions=True,
    )
    won = [r for r in results if isinstance(r, lobby_pb2.JoinTableResponse)]
    lost = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
    assert len(won) == 3 and len(lost) == 7
    assert sorted(r.seat for r in won) == [1, 2, 3]
    assert {(e.code(), getattr(error_info(e), "reason", "")) for e in lost} == {
        (grpc.StatusCode.FAILED_PRECONDITION, "TABLE_FULL")
    }
    events = await lobby.store.read_stream(table_stream(name[7:]))
    assert [e.type for e in events].count("lobby.SeatTaken") == 3


async def test_lobby_and_match_share_the_stream_while_playing(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(options='{"target": 500}'), metadata=tokens("host"))
    name = made.table.name
    await lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("bob"))
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))

    async def play() -> None:
        for turn in range(20):
            who, seat = ("host", 0) if turn % 2 == 0 else ("bob", 1)
            request = match_pb2.SubmitCommandRequest(
                table=name, seat=seat, command=race_command("pass"), request_id=f"m{turn}"
            )
            for _ in range(5):  # ABORTED: the lobby got in between; a client retries the same request
                try:
                    await lobby.match_stub.SubmitCommand(request, metadata=tokens(who))
                    break
                except grpc.aio.AioRpcError as exc:
                    if exc.code() != grpc.StatusCode.ABORTED:
                        raise

    async def chatter() -> None:
        for _ in range(10):
            call = lobby.stub.HoldPresence(lobby_pb2.HoldPresenceRequest(table=name), metadata=tokens("bob"))
            await call.read()
            call.cancel()
            await asyncio.sleep(0.01)

    await asyncio.gather(play(), chatter())
    await lobby.lobby.presence.settle()
    events = await lobby.store.read_stream(table_stream(name[7:]))
    assert [e.type for e in events].count("testgame.Passed") == 20
    presence = [json.loads(e.payload)["present"] for e in events if e.type == "lobby.PresenceChanged"]
    assert presence and presence[-1] is False
    assert all(a != b for a, b in itertools.pairwise(presence))  # alternating: never twice the same


async def test_a_match_that_ends_by_itself_leaves_the_listing(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(options='{"target": 1}'), metadata=tokens("solo"))
    name = made.table.name
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("solo"))
    await lobby.match_stub.SubmitCommand(
        match_pb2.SubmitCommandRequest(table=name, seat=0, command=race_command("roll"), request_id="win"),
        metadata=tokens("solo"),
    )

    async def status() -> str:
        # only the background catch-up touches the row: no lobby command ran since the start
        return str(await lobby.store.pool.fetchval("SELECT status FROM lobby_tables WHERE table_id = $1", name[7:]))

    await eventually(status, lambda s: s == "finished")
    page = await lobby.stub.ListTables(
        lobby_pb2.ListTablesRequest(include_started=True, page_size=100, game="testgame"), metadata=tokens("x")
    )
    assert name not in [t.name for t in page.tables]


async def test_a_match_that_only_plays_on_is_not_reloaded_by_the_catch_up(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(options='{"target": 500}'), metadata=tokens("solo"))
    name = made.table.name
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("solo"))

    async def row_version() -> int:
        return int(await lobby.store.pool.fetchval("SELECT version FROM lobby_tables WHERE table_id = $1", name[7:]))

    async def status() -> str:
        return str(await lobby.store.pool.fetchval("SELECT status FROM lobby_tables WHERE table_id = $1", name[7:]))

    await eventually(status, lambda s: s == "playing")  # the catch-up saw the match start
    started = await row_version()
    for i in range(3):
        await lobby.match_stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=name, seat=0, command=race_command("roll"), request_id=f"r{i}"),
            metadata=tokens("solo"),
        )
    stream = await lobby.store.stream_version(table_stream(name[7:]))
    assert name[7:] not in await lobby.lobby.app.readmodel.behind()  # game events only: nothing the row shows
    for _ in range(3):  # several sweeps (every 0.1 s here) pass: the row is left as it was
        await lobby.lobby.app.catch_up_running()
    assert await row_version() == started < stream
