"""A whole game of Драконы through the match service's gRPC API: one person and one bot.

The person (alice) plays random legal commands from her seat's view; the bot plays the game's
easy bot policy on its own view. Commands travel packed in `GameCommand.other` (the game has no
field of its own in `GameCommand` yet). Every draw of the stream follows from the revealed seed.
"""

from __future__ import annotations

import json
import random

from support.matchkit import Running, Tokens, new_table

from dragons.game import GAME
from tablehall.match.v1 import match_pb2
from tablehall_match.audit import verify_draws_in_stream
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
