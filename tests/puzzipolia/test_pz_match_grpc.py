"""Пузиполия's table actions through the match service's gRPC API, as the other games': a player
drops out (AFK at once, on the ladder), a bot plays the seat, the player takes it back, and is
removed; the same presence again changes nothing."""

from __future__ import annotations

import json

from support.matchkit import Running, Tokens, control, players_seen, start_seated

from tablehall.match.v1 import match_pb2
from tablehall_stream.names import stream_id


async def test_presence_hand_over_hand_back_and_removal_through_the_match(match: Running, tokens: Tokens) -> None:
    table = await start_seated(match, tokens, "puzzipolia")
    gone = await control(match, tokens, table, "p0", presence=match_pb2.SetPresence(seat=1, present=False))
    assert [(p["absent"], p["afk"]) for p in await players_seen(match, tokens, table)] == [(False, False), (True, True)]
    same = await control(match, tokens, table, "p1", False, presence=match_pb2.SetPresence(seat=1, present=False))
    assert same == gone  # the ladder shows it already: nothing written
    bot = await control(match, tokens, table, "c0", controller=match_pb2.SetController(seat=1, by_bot=True))
    assert [p["bot_controlled"] for p in await players_seen(match, tokens, table)] == [False, True]
    back = await control(match, tokens, table, "c1", controller=match_pb2.SetController(seat=1, by_bot=False))
    assert [p["bot_controlled"] for p in await players_seen(match, tokens, table)] == [False, False]
    out = await control(match, tokens, table, "r0", remove=match_pb2.RemovePlayer(seat=1))
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
