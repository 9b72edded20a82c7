"""Every refusal has a precise status and reason, and writes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import pytest
from support.lobbykit import Lobby, race_table, refused, rid
from support.matchkit import Tokens

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2
from tablehall_lobby.events import table_stream


async def _version(lobby: Lobby, name: str) -> int:
    return await lobby.store.stream_version(table_stream(name[7:]))


async def _refused_unchanged(lobby: Lobby, name: str, call: Awaitable[Any], code: grpc.StatusCode, reason: str) -> None:
    before = await _version(lobby, name)
    await refused(call, code, reason)
    assert await _version(lobby, name) == before, f"{reason} wrote to the stream"


@pytest.mark.parametrize(
    ("request_", "code", "reason"),
    [
        (
            lobby_pb2.CreateTableRequest(game="chess960", request_id="a"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "UNKNOWN_GAME",
        ),
        (lobby_pb2.CreateTableRequest(game="", request_id="a"), grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME"),
        (
            lobby_pb2.CreateTableRequest(game="testgame", options_json='{"target": 0}', request_id="a"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_TARGET",
        ),
        (
            lobby_pb2.CreateTableRequest(game="testgame", options_json='{"colour": 1}', request_id="a"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "UNKNOWN_OPTION",
        ),
        (
            lobby_pb2.CreateTableRequest(game="testgame", options_json="[1]", request_id="a"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_OPTIONS_JSON",
        ),
        (
            lobby_pb2.CreateTableRequest(game="testgame", seat_count=9, request_id="a"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_SEAT_COUNT",
        ),
        (
            lobby_pb2.CreateTableRequest(game="testgame", private=True, request_id="a"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_PIN",
        ),
        (lobby_pb2.CreateTableRequest(game="testgame"), grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_ID_REQUIRED"),
        (
            lobby_pb2.CreateTableRequest(game="ghost", request_id="a"),
            grpc.StatusCode.FAILED_PRECONDITION,
            "GAME_NOT_INSTALLED",
        ),
    ],
)
async def test_a_bad_table_is_not_created(
    lobby: Lobby, tokens: Tokens, request_: lobby_pb2.CreateTableRequest, code: grpc.StatusCode, reason: str
) -> None:
    request_.request_id = request_.request_id and rid()
    user = f"maker-{rid()}"
    await refused(lobby.stub.CreateTable(request_, metadata=tokens(user)), code, reason)
    rows = await lobby.store.pool.fetchval("SELECT count(*) FROM lobby_tables WHERE host_user_id = $1", user)
    assert rows == 0


async def test_seat_and_host_refusals(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(seat_count=2), metadata=tokens("host"))
    name = made.table.name
    s = lobby.stub
    cases: list[tuple[Callable[[], Awaitable[Any]], grpc.StatusCode, str]] = [
        (
            lambda: s.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("host")),
            grpc.StatusCode.FAILED_PRECONDITION,
            "ALREADY_SEATED",
        ),
        (
            lambda: s.JoinTable(
                lobby_pb2.JoinTableRequest(table=name, seat=0, request_id=rid()), metadata=tokens("bob")
            ),
            grpc.StatusCode.FAILED_PRECONDITION,
            "SEAT_TAKEN",
        ),
        (
            lambda: s.JoinTable(
                lobby_pb2.JoinTableRequest(table=name, seat=7, request_id=rid()), metadata=tokens("bob")
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "NO_SUCH_SEAT",
        ),
        (
            lambda: s.JoinTable(
                lobby_pb2.JoinTableRequest(table="tables/nope", request_id=rid()), metadata=tokens("bob")
            ),
            grpc.StatusCode.NOT_FOUND,
            "TABLE_NOT_FOUND",
        ),
        (
            lambda: s.JoinTable(lobby_pb2.JoinTableRequest(table="nope", request_id=rid()), metadata=tokens("bob")),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_TABLE_NAME",
        ),
        (
            lambda: s.JoinTable(lobby_pb2.JoinTableRequest(table=name), metadata=tokens("bob")),
            grpc.StatusCode.INVALID_ARGUMENT,
            "REQUEST_ID_REQUIRED",
        ),
        (
            lambda: s.AddBot(lobby_pb2.AddBotRequest(table=name, request_id=rid()), metadata=tokens("bob")),
            grpc.StatusCode.PERMISSION_DENIED,
            "NOT_THE_HOST",
        ),
        (
            lambda: s.UpdateOptions(
                lobby_pb2.UpdateOptionsRequest(table=name, options_json="{}", request_id=rid()), metadata=tokens("bob")
            ),
            grpc.StatusCode.PERMISSION_DENIED,
            "NOT_THE_HOST",
        ),
        (
            lambda: s.UpdateOptions(
                lobby_pb2.UpdateOptionsRequest(table=name, options_json='{"target": -1}', request_id=rid()),
                metadata=tokens("host"),
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_TARGET",
        ),
        (
            lambda: s.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("bob")),
            grpc.StatusCode.PERMISSION_DENIED,
            "NOT_THE_HOST",
        ),
        (
            lambda: s.InvitePlayer(
                lobby_pb2.InvitePlayerRequest(table=name, user_id="x", request_id=rid()), metadata=tokens("bob")
            ),
            grpc.StatusCode.PERMISSION_DENIED,
            "NOT_THE_HOST",
        ),
        (
            lambda: s.InvitePlayer(
                lobby_pb2.InvitePlayerRequest(table=name, user_id="", request_id=rid()), metadata=tokens("host")
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_USER_ID",
        ),
        (
            lambda: s.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=name, request_id=rid()), metadata=tokens("bob")),
            grpc.StatusCode.PERMISSION_DENIED,
            "NOT_SEATED",
        ),
        (
            lambda: s.RemoveSeat(
                lobby_pb2.RemoveSeatRequest(table=name, seat=1, request_id=rid()), metadata=tokens("host")
            ),
            grpc.StatusCode.FAILED_PRECONDITION,
            "SEAT_EMPTY",
        ),
        (
            lambda: s.RemoveSeat(
                lobby_pb2.RemoveSeatRequest(table=name, seat=0, request_id=rid()), metadata=tokens("host")
            ),
            grpc.StatusCode.FAILED_PRECONDITION,
            "USE_LEAVE_SEAT",
        ),
        (
            lambda: s.HandSeatToBot(
                lobby_pb2.HandSeatToBotRequest(table=name, seat=0, request_id=rid()), metadata=tokens("host")
            ),
            grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_STARTED",
        ),
        (
            lambda: s.WatchTable(lobby_pb2.WatchTableRequest(table=name), metadata=tokens("bob")),
            grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_STARTED",
        ),
        (
            lambda: s.CloseTable(lobby_pb2.CloseTableRequest(table=name, request_id=rid()), metadata=tokens("bob")),
            grpc.StatusCode.PERMISSION_DENIED,
            "NOT_THE_HOST",
        ),
        (
            lambda: s.SubmitSeatCommand(
                lobby_pb2.SubmitSeatCommandRequest(table=name, request_id=rid()), metadata=tokens("host")
            ),
            grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_STARTED",
        ),
    ]
    for call, code, reason in cases:
        await _refused_unchanged(lobby, name, call(), code, reason)

    await s.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("bob"))
    await _refused_unchanged(
        lobby,
        name,
        s.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("carol")),
        grpc.StatusCode.FAILED_PRECONDITION,
        "TABLE_FULL",
    )
    await _refused_unchanged(
        lobby,
        name,
        s.AddBot(lobby_pb2.AddBotRequest(table=name, request_id=rid()), metadata=tokens("host")),
        grpc.StatusCode.FAILED_PRECONDITION,
        "TABLE_FULL",
    )
    await s.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    after_start: list[tuple[Callable[[], Awaitable[Any]], grpc.StatusCode, str]] = [
        (
            lambda: s.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host")),
            grpc.StatusCode.FAILED_PRECONDITION,
            "ALREADY_STARTED",
        ),
        (
            lambda: s.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("carol")),
            grpc.StatusCode.FAILED_PRECONDITION,
            "ALREADY_STARTED",
        ),
        (
            lambda: s.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=name, request_id=rid()), metadata=tokens("bob")),
            grpc.StatusCode.FAILED_PRECONDITION,
            "ALREADY_STARTED",
        ),
        (
            lambda: s.AddBot(lobby_pb2.AddBotRequest(table=name, request_id=rid()), metadata=tokens("host")),
            grpc.StatusCode.FAILED_PRECONDITION,
            "ALREADY_STARTED",
        ),
        (
            lambda: s.UpdateOptions(
                lobby_pb2.UpdateOptionsRequest(table=name, options_json="{}", request_id=rid()), metadata=tokens("host")
            ),
            grpc.StatusCode.FAILED_PRECONDITION,
            "ALREADY_STARTED",
        ),
        (
            lambda: s.HandSeatToBot(
                lobby_pb2.HandSeatToBotRequest(table=name, seat=5, request_id=rid()), metadata=tokens("host")
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "NO_SUCH_SEAT",
        ),
        (
            lambda: s.ReclaimSeat(lobby_pb2.ReclaimSeatRequest(table=name, request_id=rid()), metadata=tokens("bob")),
            grpc.StatusCode.FAILED_PRECONDITION,
            "SEAT_NOT_HANDED",
        ),
        (
            lambda: s.CloseTable(lobby_pb2.CloseTableRequest(table=name, request_id=rid()), metadata=tokens("host")),
            grpc.StatusCode.PERMISSION_DENIED,
            "OPERATOR_ONLY",
        ),
    ]
    for call, code, reason in after_start:
        await _refused_unchanged(lobby, name, call(), code, reason)


async def test_a_start_needs_enough_players_and_a_closed_table_takes_nothing(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(), metadata=tokens("host"))
    name = made.table.name
    await lobby.stub.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=name, request_id=rid()), metadata=tokens("host"))
    await _refused_unchanged(
        lobby,
        name,
        lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host")),
        grpc.StatusCode.FAILED_PRECONDITION,
        "NOT_ENOUGH_PLAYERS",
    )
    closed = await lobby.stub.CloseTable(
        lobby_pb2.CloseTableRequest(table=name, request_id=rid()), metadata=tokens("host")
    )
    assert closed.table.status == table_pb2.TABLE_STATUS_CLOSED
    await _refused_unchanged(
        lobby,
        name,
        lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("bob")),
        grpc.StatusCode.FAILED_PRECONDITION,
        "TABLE_CLOSED",
    )
    await _refused_unchanged(
        lobby,
        name,
        lobby.stub.CloseTable(
            lobby_pb2.CloseTableRequest(table=name, request_id=rid()), metadata=tokens("root", ("operator",))
        ),
        grpc.StatusCode.FAILED_PRECONDITION,
        "TABLE_CLOSED",
    )


async def test_spectators_can_be_shut_out(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(
        lobby_pb2.CreateTableRequest(game="testgame", spectators_allowed=False, request_id=rid()),
        metadata=tokens("host"),
    )
    name = made.table.name
    assert not made.table.spectators_allowed
    await _refused_unchanged(
        lobby,
        name,
        lobby.stub.EnterTable(lobby_pb2.EnterTableRequest(table=name, request_id=rid()), metadata=tokens("sam")),
        grpc.StatusCode.PERMISSION_DENIED,
        "SPECTATORS_NOT_ALLOWED",
    )
    await _refused_unchanged(
        lobby,
        name,
        lobby.stub.ListChatMessages(lobby_pb2.ListChatMessagesRequest(table=name), metadata=tokens("sam")),
        grpc.StatusCode.PERMISSION_DENIED,
        "SPECTATORS_NOT_ALLOWED",
    )


async def test_a_start_the_game_refuses_reopens_the_table(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(seat_count=3, options='{"target": 900}'), metadata=tokens("solo"))
    name = made.table.name
    await refused(
        lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("solo")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "SOLO_TARGET",
    )
    got = await lobby.stub.GetTable(lobby_pb2.GetTableRequest(table=name), metadata=tokens("solo"))
    assert got.table.status == table_pb2.TABLE_STATUS_WAITING and len(got.table.seats) == 3
    joined = await lobby.stub.JoinTable(
        lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("bob")
    )
    assert joined.seat == 1
    started = await lobby.stub.StartTable(
        lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("solo")
    )
    assert started.table.status == table_pb2.TABLE_STATUS_PLAYING
    types = [e.type for e in await lobby.store.read_stream(table_stream(name[7:]))]
    assert types[:6] == [
        "lobby.TableCreated",
        "lobby.StartRequested",
        "lobby.StartAborted",
        "lobby.SeatTaken",
        "lobby.StartRequested",
        "match.Started",
    ]
