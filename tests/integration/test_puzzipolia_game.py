"""A whole game of Пузиполия through the match service's gRPC API: one person, three bots.

The person (alice) plays random legal commands (but never quits); the three bots play with the
game's bot policy on their own seat's view. Both see only what the service
gives their seat. Clock-driven decisions (closing an auction or a vote) are
made as the timer would: the test moves the service's clock past the deadline
and asks for the default move.
"""

from __future__ import annotations

import json
import random

from support.matchkit import Running, Tokens, new_table

from puzzipolia.game import GAME as PUZZIPOLIA
from tablehall.match.v1 import match_pb2
from tablehall_match.audit import verify_draws_in_stream
from tablehall_stream.names import ENDED, stream_id
from tablehall_stream.proto_games import legal_commands_of

PLAYERS = ("alice", "bot-1", "bot-2", "bot-3")
QUITTING = {"Leave", "Surrender", "ProposeEnd"}


async def test_one_person_and_three_bots_play_a_game_to_the_end(match: Running, tokens: Tokens) -> None:
    table = new_table()
    stub = match.stub
    await stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="puzzipolia",
            options_json=json.dumps({"start_money": 1500, "decision_clock_s": 20, "round_limit": 4}),
            seats=[match_pb2.Seat(seat=i, user_id=u, name=u, is_bot=u != "alice") for i, u in enumerate(PLAYERS)],
            request_id="start",
        ),
        metadata=tokens("lobby", ("service",)),
    )
    rng = random.Random(7)
    app = match.service.app
    now = [app.clock()]
    app.clock = lambda: now[0]
    moves = 0
    for step in range(5000):
        view = (await stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))).view
        if view.finished:
            break
        acted = False
        for seat in sorted({d.seat for d in view.decisions}):
            user = PLAYERS[seat]
            mine = (await stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens(user))).view
            legal = legal_commands_of(mine)
            if not legal:
                continue
            if user == "alice":  # a person who plays on: never leaves, surrenders or calls a vote
                staying = [x for x in legal if type(x).__name__ not in QUITTING]
                command = rng.choice(staying or legal)
            else:
                command = PUZZIPOLIA.bot_policy(json.loads(mine.view_json), legal, rng)
            reply = await stub.SubmitCommand(
                match_pb2.SubmitCommandRequest(
                    table=table,
                    seat=seat,
                    command=match_pb2.GameCommand(puzzipolia=_proto(command)),
                    request_id=f"{step}-{seat}",
                ),
                metadata=tokens(user),
            )
            assert reply.version > 0
            moves += 1
            acted = True
            break
        if not acted:
            # only clocks can move the game on: let the earliest one run out
            first = min(view.decisions, key=lambda d: d.deadline_unix_ms)
            now[0] = first.deadline_unix_ms / 1000 + 0.001
            await stub.SubmitDefaultCommand(
                match_pb2.SubmitDefaultCommandRequest(table=table, decision_key=first.key, request_id=first.key),
                metadata=tokens("timer", ("service",)),
            )
        now[0] += 0.5
    else:
        raise AssertionError("the game did not end")
    assert moves > 20
    outcome = json.loads(view.outcome_json)
    assert sorted(s for place in outcome["places"] for s in place) == [0, 1, 2, 3]
    events = await match.store.read_stream(stream_id(table.split("/")[1]))
    assert events[-1].type == ENDED
    verdict = verify_draws_in_stream(events)
    assert verdict.ok and verdict.draws_checked > 10, verdict.message


def _proto(command: object) -> object:
    from puzzipolia.proto_codec import command_to_proto

    return command_to_proto(command)  # type: ignore[arg-type]
