"""Spectators: enter, chat when allowed, removed by the host, take over bot seats."""

from __future__ import annotations

import json

import grpc
from support.lobbykit import Lobby, race_table, refused, rid
from support.matchkit import Tokens, race_command

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2
from tablehall_lobby.events import chat_stream, table_stream


async def _started_with_bot(lobby: Lobby, tokens: Tokens) -> str:
    made = await lobby.stub.CreateTable(race_table(), metadata=tokens("host"))
    name = made.table.name
    await lobby.stub.AddBot(lobby_pb2.AddBotRequest(table=name, request_id=rid()), metadata=tokens("host"))
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    return str(name)


async def test_a_spectator_enters_chats_when_allowed_and_is_removed(lobby: Lobby, tokens: Tokens) -> None:
    name = await _started_with_bot(lobby, tokens)
    entered = await lobby.stub.EnterTable(
        lobby_pb2.EnterTableRequest(table=name, request_id=rid()), metadata=tokens("sam")
    )
    assert entered.table.status == table_pb2.TABLE_STATUS_PLAYING
    watched = await lobby.stub.WatchTable(lobby_pb2.WatchTableRequest(table=name), metadata=tokens("sam"))
    view = json.loads(watched.view.view_json)
    assert watched.view.role == 2 and view["secrets"] == [None, None]  # the spectator's redacted view

    send = lobby.stub.SendChatMessage
    await refused(
        send(lobby_pb2.SendChatMessageRequest(table=name, text="hi", request_id=rid()), metadata=tokens("sam")),
        grpc.StatusCode.PERMISSION_DENIED,
        "CHAT_NOT_ALLOWED",
    )
    said = await send(
        lobby_pb2.SendChatMessageRequest(table=name, text="  welcome ", request_id=rid()), metadata=tokens("host")
    )
    assert said.message.text == "welcome" and said.message.seat == 0
    await lobby.stub.SetSpectatorPolicy(
        lobby_pb2.SetSpectatorPolicyRequest(table=name, spectator_chat=True, request_id=rid()), metadata=tokens("host")
    )
    spoke = await send(
        lobby_pb2.SendChatMessageRequest(table=name, text="hello", request_id=rid()), metadata=tokens("sam")
    )
    assert spoke.message.seat == -1 and spoke.message.number == 2
    page = await lobby.stub.ListChatMessages(lobby_pb2.ListChatMessagesRequest(table=name), metadata=tokens("sam"))
    assert [(m.user_id, m.text) for m in page.messages] == [("host", "welcome"), ("sam", "hello")]
    chat_events = await lobby.store.read_stream(chat_stream(name[7:]))
    assert [e.type for e in chat_events] == ["chat.MessagePosted", "chat.MessagePosted"]

    await refused(
        lobby.stub.RemoveSpectator(
            lobby_pb2.RemoveSpectatorRequest(table=name, user_id="sam", request_id=rid()), metadata=tokens("sam")
        ),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_THE_HOST",
    )
    await lobby.stub.RemoveSpectator(
        lobby_pb2.RemoveSpectatorRequest(table=name, user_id="sam", request_id=rid()), metadata=tokens("host")
    )
    for call in (
        lobby.stub.WatchTable(lobby_pb2.WatchTableRequest(table=name), metadata=tokens("sam")),
        lobby.stub.EnterTable(lobby_pb2.EnterTableRequest(table=name, request_id=rid()), metadata=tokens("sam")),
        lobby.stub.ListChatMessages(lobby_pb2.ListChatMessagesRequest(table=name), metadata=tokens("sam")),
    ):
        await refused(call, grpc.StatusCode.PERMISSION_DENIED, "SPECTATOR_REMOVED")
    await refused(
        send(lobby_pb2.SendChatMessageRequest(table=name, text="back", request_id=rid()), metadata=tokens("sam")),
        grpc.StatusCode.PERMISSION_DENIED,
        "CHAT_NOT_ALLOWED",
    )
    types = [e.type for e in await lobby.store.read_stream(table_stream(name[7:])) if e.type.startswith("lobby.")]
    assert types[-3:] == ["lobby.SpectatorEntered", "lobby.SpectatorChatAllowed", "lobby.SpectatorRemoved"]


async def test_chat_is_length_and_rate_limited(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(), metadata=tokens("talker"))
    name = made.table.name
    send = lobby.stub.SendChatMessage
    await refused(
        send(lobby_pb2.SendChatMessageRequest(table=name, text="x" * 501, request_id=rid()), metadata=tokens("talker")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "CHAT_TOO_LONG",
    )
    await refused(
        send(lobby_pb2.SendChatMessageRequest(table=name, text="   ", request_id=rid()), metadata=tokens("talker")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "CHAT_EMPTY",
    )
    await send(
        lobby_pb2.SendChatMessageRequest(table=name, text="x" * 500, request_id=rid()), metadata=tokens("talker")
    )
    for _ in range(4):
        await send(
            lobby_pb2.SendChatMessageRequest(table=name, text="more", request_id=rid()), metadata=tokens("talker")
        )
    await refused(
        send(lobby_pb2.SendChatMessageRequest(table=name, text="spam", request_id=rid()), metadata=tokens("talker")),
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "CHAT_RATE_LIMITED",
    )
    assert await lobby.store.stream_version(chat_stream(name[7:])) == 5


async def test_a_spectator_takes_over_a_bot_seat_when_the_host_allows(lobby: Lobby, tokens: Tokens) -> None:
    name = await _started_with_bot(lobby, tokens)
    take = lobby_pb2.TakeBotSeatRequest(table=name, seat=1, request_id=rid())
    await refused(
        lobby.stub.TakeBotSeat(take, metadata=tokens("sam")), grpc.StatusCode.PERMISSION_DENIED, "BOT_SEATS_CLOSED"
    )
    await lobby.stub.SetSpectatorPolicy(
        lobby_pb2.SetSpectatorPolicyRequest(table=name, bot_seats_to_spectators=True, request_id=rid()),
        metadata=tokens("host"),
    )
    await refused(
        lobby.stub.TakeBotSeat(
            lobby_pb2.TakeBotSeatRequest(table=name, seat=0, request_id=rid()), metadata=tokens("sam")
        ),
        grpc.StatusCode.FAILED_PRECONDITION,
        "SEAT_NOT_A_BOT",
    )
    taken = await lobby.stub.TakeBotSeat(take, metadata=tokens("sam"))
    assert taken.table.seats[1].user_id == "sam" and not taken.table.seats[1].is_bot
    await refused(
        lobby.stub.TakeBotSeat(take, metadata=tokens("tom")), grpc.StatusCode.FAILED_PRECONDITION, "SEAT_NOT_A_BOT"
    )
    # sam plays the bot's seat, with what it has, through the lobby
    await lobby.stub.SubmitSeatCommand(
        lobby_pb2.SubmitSeatCommandRequest(table=name, command=race_command("pass"), request_id="h1"),
        metadata=tokens("host"),
    )
    played = await lobby.stub.SubmitSeatCommand(
        lobby_pb2.SubmitSeatCommandRequest(table=name, command=race_command("roll"), request_id="s1"),
        metadata=tokens("sam"),
    )
    assert json.loads(played.view.view_json)["scores"][1] > 0
    await refused(
        lobby.stub.SubmitSeatCommand(
            lobby_pb2.SubmitSeatCommandRequest(table=name, command=race_command("roll"), request_id="t1"),
            metadata=tokens("tom"),
        ),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_SEATED",
    )
    events = await lobby.store.read_stream(table_stream(name[7:]))
    taken_event = next(e for e in events if e.type == "lobby.BotSeatTaken")
    assert json.loads(taken_event.payload)["bot_id"].startswith("bot:")


async def test_a_spectator_takes_a_bot_seat_of_a_game_on_the_kit(lobby: Lobby, tokens: Tokens) -> None:
    """On the kit a bot's own seat is no seat handed to a bot (the AFK ladder's `by_bot` is for
    hand-overs): the lobby's "a person plays it now" changes nothing in the game, and the match
    answers so (applied: false) instead of refusing the take-over as NOTHING_HAPPENED."""
    made = await lobby.stub.CreateTable(
        lobby_pb2.CreateTableRequest(game="nim", options_json="{}", seat_count=2, request_id=rid()),
        metadata=tokens("host"),
    )
    name = made.table.name
    await lobby.stub.AddBot(lobby_pb2.AddBotRequest(table=name, request_id=rid()), metadata=tokens("host"))
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    await lobby.stub.SetSpectatorPolicy(
        lobby_pb2.SetSpectatorPolicyRequest(table=name, bot_seats_to_spectators=True, request_id=rid()),
        metadata=tokens("host"),
    )
    await lobby.stub.EnterTable(lobby_pb2.EnterTableRequest(table=name, request_id=rid()), metadata=tokens("sam"))
    before = len(await lobby.store.read_stream(table_stream(name[7:])))
    taken = await lobby.stub.TakeBotSeat(
        lobby_pb2.TakeBotSeatRequest(table=name, seat=1, request_id=rid()), metadata=tokens("sam")
    )
    assert taken.table.seats[1].user_id == "sam" and not taken.table.seats[1].is_bot
    added = [e.type for e in (await lobby.store.read_stream(table_stream(name[7:])))[before:]]
    assert added == ["lobby.BotSeatTaken"]  # no game event: nothing changed in the game
