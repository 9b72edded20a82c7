"""Ним, the sixth game (tests/nim, built on the game kit and registered by name only), played
through the real match service: a player's moves, a refusal, and the platform's table actions
(presence, hand-over, hand-back, removal) which the kit gives every game the same way."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import grpc
import pytest
from nim.proto import nim_pb2
from support.matchkit import Running, Tokens, new_table

from tablehall.match.v1 import match_pb2
from tablehall_platform.errors import error_info
from tablehall_stream.names import stream_id

LOBBY = ("lobby", ("service",))


def take(heap: int, count: int) -> match_pb2.GameCommand:
    command = match_pb2.GameCommand()
    command.other.Pack(nim_pb2.Command(take=nim_pb2.Take(heap=heap, count=count)))
    return command


async def start_nim(match: Running, tokens: Tokens) -> str:
    table = new_table()
    await match.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="nim",
            options_json='{"heaps": [2, 3]}',
            seats=[match_pb2.Seat(seat=i, user_id=u, name=u.title()) for i, u in enumerate(("alice", "bob", "carol"))],
            request_id="start",
        ),
        metadata=tokens(*LOBBY),
    )
    return table


async def control(
    match: Running, tokens: Tokens, table: str, rid: str, **action: object
) -> match_pb2.ControlTableResponse:
    reply: match_pb2.ControlTableResponse = await match.stub.ControlTable(
        match_pb2.ControlTableRequest(table=table, request_id=rid, **action),
        metadata=tokens(*LOBBY),
    )
    return reply


async def test_a_game_on_the_kit_plays_through_the_match(match: Running, tokens: Tokens) -> None:
    table = await start_nim(match, tokens)
    reply = await match.stub.SubmitCommand(
        match_pb2.SubmitCommandRequest(table=table, seat=0, command=take(1, 2), request_id="a1"),
        metadata=tokens("alice"),
    )
    assert json.loads(reply.view.view_json)["heaps"] == [2, 1]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await match.stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table, seat=1, command=take(0, 3), request_id="b1"),
            metadata=tokens("bob"),
        )
    info = error_info(caught.value)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION and info and info.reason == "NOT_ENOUGH_STONES"
    with pytest.raises(grpc.aio.AioRpcError) as foreign:
        await match.stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table, seat=1, command=take(0, 1), request_id="a2"),
            metadata=tokens("alice"),
        )
    assert foreign.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_presence_hand_over_hand_back_and_removal(match: Running, tokens: Tokens) -> None:
    table = await start_nim(match, tokens)
    stream = stream_id(table.split("/")[1])
    gone = await control(match, tokens, table, "p0", presence=match_pb2.SetPresence(seat=1, present=False))
    assert gone.applied
    same = await control(match, tokens, table, "p1", presence=match_pb2.SetPresence(seat=1, present=False))
    assert not same.applied and same.version == gone.version, "the same presence twice writes nothing"
    assert await match.store.stream_version(stream) == gone.version
    bot = await control(match, tokens, table, "c0", controller=match_pb2.SetController(seat=1, by_bot=True))
    back = await control(match, tokens, table, "c1", controller=match_pb2.SetController(seat=1, by_bot=False))
    out = await control(match, tokens, table, "r0", remove=match_pb2.RemovePlayer(seat=2))
    assert gone.version < bot.version < back.version < out.version
    types = [e.type for e in await match.store.read_stream(stream)]
    assert [t for t in types if t.startswith("nim.")][1:] == [
        "nim.PresenceChanged",
        "nim.ControllerChanged",
        "nim.ControllerChanged",
        "nim.Left",
    ]
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    shown = json.loads(view.view.view_json)
    assert shown["out"] == [False, False, True] and shown["afk"] == [False, False, False]


async def test_a_view_never_shows_a_state_under_an_older_version(match: Running, tokens: Tokens) -> None:
    """The match applies a command's events to its copy before appending them (so the events
    can carry the open decisions that follow); a view asked meanwhile waits for the append
    instead of answering the new state under the old version (a web page saw «auction» and
    «action» at one version)."""
    table = await start_nim(match, tokens)
    app = match.service.app
    gate = asyncio.Event()
    appending = asyncio.Event()
    real_append = app.appender.append

    async def held_append(*args: Any, **kwargs: Any) -> Any:
        appending.set()
        await gate.wait()
        return await real_append(*args, **kwargs)

    app.appender.append = held_append  # type: ignore[method-assign]
    before = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    move = asyncio.ensure_future(
        match.stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table, seat=0, command=take(1, 2), request_id="held"),
            metadata=tokens("alice"),
        )
    )
    await appending.wait()  # the events are applied to the copy, the append waits
    view = asyncio.ensure_future(
        match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("bob"))
    )
    done, _ = await asyncio.wait({view}, timeout=0.5)
    assert not done, "a view answered while the state ran ahead of the version"
    gate.set()
    moved, seen = await move, await view
    assert seen.view.version == moved.version > before.view.version
    assert json.loads(seen.view.view_json)["heaps"] == [2, 1]
