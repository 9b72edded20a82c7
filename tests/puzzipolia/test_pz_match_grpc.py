"""Пузиполия's table actions through the match service's gRPC API, as the other games': a player
drops out (AFK at once, on the ladder), a bot plays the seat, the player takes it back, and is
removed; the same presence again changes nothing."""

from __future__ import annotations

import json

from support.matchkit import Running, Tokens, new_table

from tablehall.match.v1 import match_pb2
from tablehall_stream.names import stream_id

LOBBY = ("lobby", ("service",))


async def _start(match: Running, tokens: Tokens) -> str:
    table = new_table()
    await match.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="puzzipolia",
            seats=[match_pb2.Seat(seat=i, user_id=u, name=u.title()) for i, u in enumerate(("alice", "bob"))],
            request_id="start",
        ),
        metadata=tokens(*LOBBY),
    )
    return table


async def _control(match: Running, tokens: Tokens, table: str, rid: str, **action: object) -> int:
    reply = await match.stub.ControlTable(
        match_pb2.ControlTableRequest(table=table, request_id=rid, **action),  # type: ignore[arg-type]
        metadata=tokens(*LOBBY),
    )
    assert reply.applied
    return reply.version


async def _players(match: Running, tokens: Tokens, table: str) -> list[dict[str, object]]:
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    players: list[dict[str, object]] = json.loads(view.view.view_json)["players"]
    return players


async def test_presence_hand_over_hand_back_and_removal_through_the_match(match: Running, tokens: Tokens) -> None:
    table = await _start(match, tokens)
    gone = await _control(match, tokens, table, "p0", presence=match_pb2.SetPresence(seat=1, present=False))
    assert [(p["absent"], p["afk"]) for p in await _players(match, tokens, table)] == [(False, False), (True, True)]
    same = await match.stub.ControlTable(
        match_pb2.ControlTableRequest(
            table=table, request_id="p1", presence=match_pb2.SetPresence(seat=1, present=False)
        ),
        metadata=tokens(*LOBBY),
    )
    assert not same.applied and same.version == gone  # the ladder shows it already: nothing written
    bot = await _control(match, tokens, table, "c0", controller=match_pb2.SetController(seat=1, by_bot=True))
    assert [p["bot_controlled"] for p in await _players(match, tokens, table)] == [False, True]
    back = await _control(match, tokens, table, "c1", controller=match_pb2.SetController(seat=1, by_bot=False))
    assert [p["bot_controlled"] for p in await _players(match, tokens, table)] == [False, False]
    out = await _control(match, tokens, table, "r0", remove=match_pb2.RemovePlayer(seat=1))
    assert gone < bot < back < out
    stream = stream_id(table.split("/")[1])
    types = [e.type for e in await match.store.read_stream(stream) if e.type.startswith("puzzipolia.")]
    assert types[-5:] == [
        "puzzipolia.PresenceChanged",
        "puzzipolia.ControllerChanged",
        "puzzipolia.ControllerChanged",
        "puzzipolia.PlayerEliminated",
        "puzzipolia.GameEnded",
    ]
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    outcome = json.loads(view.view.outcome_json)
    assert outcome["places"] == [[0], [1]] and outcome["reason"] == "last_standing"
