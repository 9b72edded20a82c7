"""Presence streams, removing people, handing a seat to a bot and reclaiming
it, and an operator closing a table."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import grpc
from support.lobbykit import Lobby, eventually, race_table, refused, rid
from support.matchkit import Tokens

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2
from tablehall_lobby.events import table_stream


async def _table(lobby: Lobby, tokens: Tokens, players: tuple[str, ...] = ("bob",)) -> str:
    made = await lobby.stub.CreateTable(race_table(), metadata=tokens("host"))
    for player in players:
        await lobby.stub.JoinTable(
            lobby_pb2.JoinTableRequest(table=made.table.name, request_id=rid()), metadata=tokens(player)
        )
    return str(made.table.name)


async def _presence(lobby: Lobby, name: str) -> list[dict[str, Any]]:
    events = await lobby.store.read_stream(table_stream(name[7:]))
    return [json.loads(e.payload) for e in events if e.type == "lobby.PresenceChanged"]


async def _seat(lobby: Lobby, tokens: Tokens, name: str, seat: int) -> lobby_pb2.SeatState:
    got = await lobby.stub.GetTable(lobby_pb2.GetTableRequest(table=name), metadata=tokens("host"))
    return got.table.seats[seat]


async def test_a_held_stream_is_presence_and_a_dropped_one_absence(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens)
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    call = lobby.stub.HoldPresence(lobby_pb2.HoldPresenceRequest(table=name), metadata=tokens("bob"))
    first = await call.read()
    assert first.seat == 1 and first.present and not first.heartbeat
    beat = await call.read()
    assert beat.heartbeat
    assert (await _seat(lobby, tokens, name, 1)).present
    call.cancel()
    changes = await eventually(lambda: _presence(lobby, name), lambda p: len(p) == 2)
    assert [(c["seat"], c["user_id"], c["present"]) for c in changes] == [(1, "bob", True), (1, "bob", False)]
    assert set(changes[0]) == {"seat", "user_id", "present", "at_ms"}
    assert not (await _seat(lobby, tokens, name, 1)).present
    # a user without a seat holds no presence
    await refused(
        lobby.stub.HoldPresence(lobby_pb2.HoldPresenceRequest(table=name), metadata=tokens("eve")).read(),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_SEATED",
    )


async def test_two_streams_of_one_player_count_once(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens)
    one = lobby.stub.HoldPresence(lobby_pb2.HoldPresenceRequest(table=name), metadata=tokens("bob"))
    two = lobby.stub.HoldPresence(lobby_pb2.HoldPresenceRequest(table=name), metadata=tokens("bob"))
    await one.read()
    await two.read()
    one.cancel()
    await asyncio.sleep(0.3)
    assert (await _seat(lobby, tokens, name, 1)).present
    two.cancel()
    await eventually(lambda: _seat(lobby, tokens, name, 1), lambda s: not s.present)
    assert [c["present"] for c in await _presence(lobby, name)] == [True, False]


async def test_host_removes_absent_players_and_bots_but_only_an_operator_a_present_one(
    lobby: Lobby, tokens: Tokens
) -> None:
    name = await _table(lobby, tokens, ("bob", "carl"))
    await lobby.stub.AddBot(lobby_pb2.AddBotRequest(table=name, request_id=rid()), metadata=tokens("host"))
    held = lobby.stub.HoldPresence(lobby_pb2.HoldPresenceRequest(table=name), metadata=tokens("bob"))
    await held.read()
    remove = lobby.stub.RemoveSeat
    await refused(
        remove(lobby_pb2.RemoveSeatRequest(table=name, seat=2, request_id=rid()), metadata=tokens("bob")),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_THE_HOST",
    )
    await refused(
        remove(lobby_pb2.RemoveSeatRequest(table=name, seat=1, request_id=rid()), metadata=tokens("host")),
        grpc.StatusCode.PERMISSION_DENIED,
        "PLAYER_PRESENT",
    )
    await remove(lobby_pb2.RemoveSeatRequest(table=name, seat=3, request_id=rid()), metadata=tokens("host"))  # the bot
    gone = await remove(lobby_pb2.RemoveSeatRequest(table=name, seat=2, request_id=rid()), metadata=tokens("host"))
    assert gone.table.seats[2].user_id == "" and gone.table.seats[3].user_id == ""
    await refused(
        lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("carl")),
        grpc.StatusCode.PERMISSION_DENIED,
        "REMOVED_FROM_TABLE",
    )
    kicked = await remove(
        lobby_pb2.RemoveSeatRequest(table=name, seat=1, request_id=rid()), metadata=tokens("root", ("operator",))
    )
    assert kicked.table.seats[1].user_id == ""
    held.cancel()
    events = await lobby.store.read_stream(table_stream(name[7:]))
    removed = [json.loads(e.payload) for e in events if e.type == "lobby.PlayerRemoved"]
    assert [(r["user_id"], r["by"], r["by_operator"], r["was_present"]) for r in removed] == [
        ("carl", "host", False, False),
        ("bob", "root", True, True),
    ]


async def test_an_absent_players_seat_goes_to_a_bot_and_back(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens)
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    hand = lobby_pb2.HandSeatToBotRequest(table=name, seat=1, request_id=rid())
    await refused(
        lobby.stub.HandSeatToBot(hand, metadata=tokens("bob")), grpc.StatusCode.PERMISSION_DENIED, "NOT_THE_HOST"
    )
    held = lobby.stub.HoldPresence(lobby_pb2.HoldPresenceRequest(table=name), metadata=tokens("bob"))
    await held.read()
    await refused(
        lobby.stub.HandSeatToBot(hand, metadata=tokens("host")), grpc.StatusCode.FAILED_PRECONDITION, "PLAYER_PRESENT"
    )
    held.cancel()
    await eventually(lambda: _seat(lobby, tokens, name, 1), lambda s: not s.present)

    handed = await lobby.stub.HandSeatToBot(hand, metadata=tokens("host"))
    assert handed.table.seats[1].played_by_bot and handed.table.seats[1].user_id == "bob"
    await refused(
        lobby.stub.SubmitSeatCommand(
            lobby_pb2.SubmitSeatCommandRequest(table=name, request_id=rid()), metadata=tokens("bob")
        ),
        grpc.StatusCode.FAILED_PRECONDITION,
        "SEAT_PLAYED_BY_BOT",
    )
    await refused(
        lobby.stub.ReclaimSeat(lobby_pb2.ReclaimSeatRequest(table=name, request_id=rid()), metadata=tokens("host")),
        grpc.StatusCode.FAILED_PRECONDITION,
        "SEAT_NOT_HANDED",
    )
    await refused(
        lobby.stub.ReclaimSeat(lobby_pb2.ReclaimSeatRequest(table=name, request_id=rid()), metadata=tokens("eve")),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_SEATED",
    )
    back = await lobby.stub.ReclaimSeat(
        lobby_pb2.ReclaimSeatRequest(table=name, request_id=rid()), metadata=tokens("bob")
    )
    assert not back.table.seats[1].played_by_bot
    types = [e.type for e in await lobby.store.read_stream(table_stream(name[7:])) if e.type.startswith("lobby.")]
    assert types[-2:] == ["lobby.SeatHandedToBot", "lobby.SeatReclaimed"]


async def test_an_operator_closes_a_running_table_at_once(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens)
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    close = lobby_pb2.CloseTableRequest(table=name, request_id=rid())
    await refused(
        lobby.stub.CloseTable(close, metadata=tokens("host")), grpc.StatusCode.PERMISSION_DENIED, "OPERATOR_ONLY"
    )
    closed = await lobby.stub.CloseTable(close, metadata=tokens("root", ("operator",)))
    assert closed.table.status == table_pb2.TABLE_STATUS_CLOSED
    types = [e.type for e in await lobby.store.read_stream(table_stream(name[7:]))]
    assert types[-3:] == ["testgame.Finished", "match.Ended", "lobby.TableClosed"]
    await refused(
        lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("eve")),
        grpc.StatusCode.FAILED_PRECONDITION,
        "TABLE_CLOSED",
    )
    listed = await lobby.stub.ListTables(
        lobby_pb2.ListTablesRequest(include_started=True, page_size=100), metadata=tokens("eve")
    )
    assert name not in [t.name for t in listed.tables]


async def test_a_removed_player_leaves_a_running_game_by_its_rule(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(
        lobby_pb2.CreateTableRequest(
            game="puzzipolia", options_json='{"round_limit": 3}', seat_count=3, request_id=rid()
        ),
        metadata=tokens("host"),
    )
    name = made.table.name
    for player in ("bob", "carl"):
        await lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens(player))
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    await lobby.stub.RemoveSeat(
        lobby_pb2.RemoveSeatRequest(table=name, seat=2, request_id=rid()), metadata=tokens("host")
    )
    events = await lobby.store.read_stream(table_stream(name[7:]))
    eliminated = [json.loads(e.payload) for e in events if e.type == "puzzipolia.PlayerEliminated"]
    assert [(x["seat"], x["reason"]) for x in eliminated] == [(2, "removed")]
    assert [e.type for e in events].index("puzzipolia.PlayerEliminated") < [e.type for e in events].index(
        "lobby.PlayerRemoved"
    )


async def test_a_removal_that_ends_the_game_is_recorded_not_refused(lobby: Lobby, tokens: Tokens) -> None:
    """Ним ends when one of two players is left: the match ends before the lobby records the
    removal, which must still be recorded (it was refused as MATCH_FINISHED, the host told of
    an error although the player was out)."""
    made = await lobby.stub.CreateTable(
        lobby_pb2.CreateTableRequest(game="nim", options_json="{}", seat_count=2, request_id=rid()),
        metadata=tokens("host"),
    )
    name = made.table.name
    await lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("bob"))
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    removal = lobby_pb2.RemoveSeatRequest(table=name, seat=1, request_id=rid())
    answer = await lobby.stub.RemoveSeat(removal, metadata=tokens("host"))
    assert answer.table.seats[1].removed and answer.table.status == table_pb2.TABLE_STATUS_FINISHED
    types = [e.type for e in await lobby.store.read_stream(table_stream(name[7:]))]
    assert types.index("nim.Left") < types.index("nim.Ended") < types.index("lobby.PlayerRemoved")
    again = await lobby.stub.RemoveSeat(removal, metadata=tokens("host"))  # a retry is answered, not refused
    assert again.table.seats[1].removed
    await refused(
        lobby.stub.RemoveSeat(
            lobby_pb2.RemoveSeatRequest(table=name, seat=0, request_id=rid()), metadata=tokens("root", ("operator",))
        ),
        grpc.StatusCode.FAILED_PRECONDITION,
        "MATCH_FINISHED",
    )
