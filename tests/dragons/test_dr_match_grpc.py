"""Драконы through the match service's gRPC API: a whole game of one person and one bot; the
platform's table actions; a table loaded from a snapshot stored before the game moved onto the kit.

The person (alice) plays random legal commands from her seat's view; the bot plays the game's
easy bot policy on its own view. Commands travel packed in `GameCommand.other` (the game has no
field of its own in `GameCommand` yet). Every draw of the stream follows from the revealed seed.
"""

from __future__ import annotations

import json
import random

import msgspec
from support.matchkit import Running, Tokens, control, new_table, players_seen, start_seated

from dragons.game import GAME
from tablehall.match.v1 import match_pb2
from tablehall_match.audit import verify_draws_in_stream
from tablehall_match.live_table import SNAPSHOT_TYPE
from tablehall_stream import proto_games
from tablehall_stream.names import ENDED, stream_id
from tablehall_stream.proto_games import legal_commands_of

PLAYERS = ("alice", "bot-1")


async def test_one_person_and_one_bot_play_dragons_to_the_end(match: Running, tokens: Tokens) -> None:
    table = new_table()
    stub = match.stub
    await stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="dragons",
            options_json=json.dumps({"decision_clock_s": 30}),
            seats=[match_pb2.Seat(seat=i, user_id=u, name=u, is_bot=u != "alice") for i, u in enumerate(PLAYERS)],
            request_id="start",
        ),
        metadata=tokens("lobby", ("service",)),
    )
    rng = random.Random(3)
    moves = 0
    for step in range(2000):
        view = (await stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))).view
        if view.finished:
            break
        seat = sorted({d.seat for d in view.decisions})[step % len({d.seat for d in view.decisions})]
        user = PLAYERS[seat]
        mine = (await stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens(user))).view
        legal = legal_commands_of(mine)
        assert legal, "an open decision with nothing to do"
        seen = json.loads(mine.view_json)
        assert "hands" not in seen and seen["me"]["seat"] == seat
        command = rng.choice(legal) if user == "alice" else GAME.bot_policy(seen, legal, rng)
        reply = await stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(
                table=table,
                seat=seat,
                command=proto_games.command_to_proto("dragons", command),
                request_id=f"{step}-{seat}",
            ),
            metadata=tokens(user),
        )
        assert reply.version > 0
        moves += 1
    else:
        raise AssertionError("the game did not end")
    assert moves > 100
    outcome = json.loads(view.outcome_json)
    assert sorted(s for place in outcome["places"] for s in place) == [0, 1]
    events = await match.store.read_stream(stream_id(table.split("/")[1]))
    assert events[-1].type == ENDED
    verdict = verify_draws_in_stream(events)
    assert verdict.ok and verdict.draws_checked > 100, verdict.message


async def test_presence_hand_over_hand_back_and_removal_through_the_match(match: Running, tokens: Tokens) -> None:
    table = await start_seated(match, tokens, "dragons")
    gone = await control(match, tokens, table, "p0", presence=match_pb2.SetPresence(seat=1, present=False))
    assert [(p["absent"], p["afk"]) for p in await players_seen(match, tokens, table)] == [(False, False), (True, True)]
    same = await control(match, tokens, table, "p1", False, presence=match_pb2.SetPresence(seat=1, present=False))
    assert same == gone, "the same presence twice writes nothing"
    bot = await control(match, tokens, table, "c0", controller=match_pb2.SetController(seat=1, by_bot=True))
    assert [p["by_bot"] for p in await players_seen(match, tokens, table)] == [False, True]
    back = await control(match, tokens, table, "c1", controller=match_pb2.SetController(seat=1, by_bot=False))
    out = await control(match, tokens, table, "r0", remove=match_pb2.RemovePlayer(seat=1))
    assert gone < bot < back < out
    stream = stream_id(table.split("/")[1])
    types = [e.type for e in await match.store.read_stream(stream) if e.type.startswith("dragons.")]
    assert types[-4:] == [
        "dragons.PresenceChanged",
        "dragons.ControllerChanged",
        "dragons.ControllerChanged",
        "dragons.GameEnded",
    ]
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    assert json.loads(view.view.outcome_json)["places"] == [[0], [1]]


async def test_a_snapshot_stored_before_the_kit_restores_who_is_absent(match: Running, tokens: Tokens) -> None:
    """Snapshots written by the game before it moved onto the kit kept absence per player and
    not in the AFK ladder: a table loaded from one still knows who is away."""
    table = await start_seated(match, tokens, "dragons")
    version = await control(match, tokens, table, "p0", presence=match_pb2.SetPresence(seat=1, present=False))
    table_id = table.split("/")[1]
    live = match.service.app.tables[table_id]
    await match.service.app.host.snapshots_saved()  # the match's own, which would overwrite ours
    snapshot = msgspec.json.decode(live.snapshot())
    for player in snapshot["state"]["players"]:
        player["absent"] = player["seat"] == 1
    del snapshot["state"]["afk"]["absent"]
    await match.store.save_snapshot(live.stream_id, version, msgspec.json.encode(snapshot), state_type=SNAPSHOT_TYPE)
    match.service.app.evict(table_id)
    assert [p["absent"] for p in await players_seen(match, tokens, table)] == [False, True]
    assert match.service.app.tables[table_id].last_snapshot_version == version  # loaded from the snapshot
    back = await control(match, tokens, table, "p1", presence=match_pb2.SetPresence(seat=1, present=True))
    assert back == version + 1
