"""The seam's match API on the test game: legal-move descriptors, CheckCommand,
ListLegalCommands, the caller's choice of answer, reaction windows, private
decisions and teams."""

from __future__ import annotations

import json

import grpc
import pytest
from support.matchkit import Running, Tokens, race_command, start_race

from tablehall.match.v1 import match_pb2
from tablehall_platform.errors import error_info, status_error_info
from tablehall_stream.names import stream_id
from tablehall_stream.proto_games import command_from_proto, legal_commands_of
from testgame.game import Call, Pass, Roll

PLAYERS = ("alice", "bob", "carol", "dave")


def submit(table: str, seat: int, kind: str, rid: str, **extra: object) -> match_pb2.SubmitCommandRequest:
    return match_pb2.SubmitCommandRequest(table=table, seat=seat, command=race_command(kind), request_id=rid, **extra)


async def view_of(match: Running, tokens: Tokens, table: str, user: str) -> match_pb2.TableView:
    reply = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens(user))
    return reply.view


async def test_legal_moves_come_as_descriptors_and_spell_out_the_seats_commands(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    alice = await view_of(match, tokens, table, "alice")
    assert [command_from_proto("testgame", m.command) for m in alice.legal_moves] == [Roll(), Pass()]
    assert all(not m.parameters for m in alice.legal_moves)
    assert legal_commands_of(alice) == [Roll(), Pass()]
    bob = await view_of(match, tokens, table, "bob")
    assert not bob.legal_moves


async def test_check_command_answers_without_changing_anything(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    sid = stream_id(table.split("/")[1])
    before = await match.store.stream_version(sid)
    ok = await match.stub.CheckCommand(
        match_pb2.CheckCommandRequest(table=table, seat=0, command=race_command("roll")), metadata=tokens("alice")
    )
    assert ok.accepted and ok.version == before and not ok.HasField("refusal")
    refused = await match.stub.CheckCommand(
        match_pb2.CheckCommandRequest(table=table, seat=1, command=race_command("roll")), metadata=tokens("bob")
    )
    assert not refused.accepted and refused.refusal.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    info = status_error_info(refused.refusal)
    assert info is not None and info.reason == "NOT_YOUR_TURN"
    # a player may check only for their own seat, as they may submit only for it
    with pytest.raises(grpc.aio.AioRpcError) as denied:
        await match.stub.CheckCommand(
            match_pb2.CheckCommandRequest(table=table, seat=0, command=race_command("roll")), metadata=tokens("bob")
        )
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert await match.store.stream_version(sid) == before
    # the check drew nothing from the table's seed: the next roll takes the draw after the
    # two secrets dealt at the start, as if no check had been made
    done = await match.stub.SubmitCommand(submit(table, 0, "roll", "r1"), metadata=tokens("alice"))
    events = await match.store.read_stream(sid, from_version=before + 1)
    assert done.version == before + 1 and events[0].metadata["draw_start"] == 2


async def test_list_legal_commands_pages_and_refuses_a_token_of_an_older_version(
    match: Running, tokens: Tokens
) -> None:
    table = await start_race(match.stub, tokens)
    first = await match.stub.ListLegalCommands(
        match_pb2.ListLegalCommandsRequest(table=table, page_size=1), metadata=tokens("alice")
    )
    assert first.total_size == 2 and len(first.commands) == 1 and first.next_page_token
    second = await match.stub.ListLegalCommands(
        match_pb2.ListLegalCommandsRequest(table=table, page_size=1, page_token=first.next_page_token),
        metadata=tokens("alice"),
    )
    listed = [command_from_proto("testgame", c) for c in [*first.commands, *second.commands]]
    assert listed == [Roll(), Pass()] and not second.next_page_token
    await match.stub.SubmitCommand(submit(table, 0, "pass", "p1"), metadata=tokens("alice"))
    with pytest.raises(grpc.aio.AioRpcError) as stale:
        await match.stub.ListLegalCommands(
            match_pb2.ListLegalCommandsRequest(table=table, page_size=1, page_token=first.next_page_token),
            metadata=tokens("alice"),
        )
    assert stale.value.code() == grpc.StatusCode.ABORTED
    info = error_info(stale.value)
    assert info is not None and info.reason == "TABLE_CHANGED"


async def test_the_caller_chooses_a_minimal_answer(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    reply = await match.stub.SubmitCommand(
        submit(table, 0, "pass", "m1", response_view=match_pb2.RESPONSE_VIEW_MINIMAL), metadata=tokens("alice")
    )
    assert reply.version == reply.view.version and reply.view.table == table and reply.view.game == "testgame"
    assert not reply.view.view_json and not reply.view.legal_moves and not reply.view.decisions
    full = await match.stub.SubmitCommand(submit(table, 1, "pass", "f1"), metadata=tokens("bob"))
    assert json.loads(full.view.view_json)["turn"] == 0 and full.view.decisions


async def roll_until_a_six(match: Running, tokens: Tokens, table: str, seats: int) -> tuple[int, int]:
    """Take turns rolling until someone rolls a six; (roller, version)."""
    for n in range(400):
        view = await view_of(match, tokens, table, PLAYERS[0])
        turn = json.loads(view.view_json)["turn"]
        reply = await match.stub.SubmitCommand(submit(table, turn, "roll", f"r{n}"), metadata=tokens(PLAYERS[turn]))
        after = json.loads(reply.view.view_json)
        assert not reply.view.finished
        if after["six_by"] == turn:
            return turn, reply.version
    raise AssertionError("no six in 400 rolls")


async def test_a_reaction_window_is_open_to_every_other_seat_first_committed_wins(
    match: Running, tokens: Tokens
) -> None:
    table = await start_race(match.stub, tokens, users=PLAYERS[:3], options='{"target": 1000, "calls": true}')
    roller, _ = await roll_until_a_six(match, tokens, table, 3)
    others = [s for s in range(3) if s != roller]
    for seat in range(3):
        view = await view_of(match, tokens, table, PLAYERS[seat])
        calls = [d for d in view.decisions if d.reaction]
        # each seat knows only of its own window (the test game's private reaction), with no clock
        assert [d.seat for d in calls] == ([seat] if seat in others else [])
        if seat in others:
            assert Call() in legal_commands_of(view)
    spectator = await view_of(match, tokens, table, "zoe")
    assert not any(d.reaction for d in spectator.decisions)
    first, second = others
    # out of turn, the first call committed wins; the second is refused and changes nothing
    won = await match.stub.SubmitCommand(submit(table, first, "call", "c1"), metadata=tokens(PLAYERS[first]))
    assert json.loads(won.view.view_json)["scores"][first] >= 1
    with pytest.raises(grpc.aio.AioRpcError) as late:
        await match.stub.SubmitCommand(submit(table, second, "call", "c2"), metadata=tokens(PLAYERS[second]))
    info = error_info(late.value)
    assert late.value.code() == grpc.StatusCode.FAILED_PRECONDITION and info is not None
    assert info.reason == "NOTHING_TO_CALL"
    assert (await view_of(match, tokens, table, PLAYERS[0])).version == won.version


async def test_a_window_that_closes_unused_costs_nobody_anything(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens, users=PLAYERS[:2], options='{"target": 1000, "calls": true}')
    roller, version = await roll_until_a_six(match, tokens, table, 2)
    caller = 1 - roller
    (window,) = [d for d in (await view_of(match, tokens, table, PLAYERS[caller])).decisions if d.reaction]
    # the timer may not run out a reaction window's clock: it has none
    with pytest.raises(grpc.aio.AioRpcError) as no_clock:
        await match.stub.SubmitDefaultCommand(
            match_pb2.SubmitDefaultCommandRequest(table=table, decision_key=window.key, request_id="d"),
            metadata=tokens("timer", ("service",)),
        )
    info = error_info(no_clock.value)
    assert info is not None and info.reason == "NO_CLOCK"
    # the caller does not call but takes its turn: the window closes, nobody is struck
    reply = await match.stub.SubmitCommand(submit(table, caller, "pass", "pass-it"), metadata=tokens(PLAYERS[caller]))
    view = json.loads(reply.view.view_json)
    assert view["six_by"] == -1 and view["afk"] == [False, False]
    assert not any(d.reaction for d in reply.view.decisions)
    events = await match.store.read_stream(stream_id(table.split("/")[1]), from_version=version + 1)
    assert [e.type for e in events] == ["testgame.Passed"] and not events[0].metadata["timeout"]


async def test_teams_are_declared_by_options_shown_and_win_together(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens, users=PLAYERS, options='{"target": 8, "teams": true}')
    view = await view_of(match, tokens, table, "alice")
    assert [list(t.seats) for t in view.teams] == [[0, 2], [1, 3]]
    for n in range(200):
        turn = json.loads(view.view_json)["turn"]
        reply = await match.stub.SubmitCommand(submit(table, turn, "roll", f"t{n}"), metadata=tokens(PLAYERS[turn]))
        view = reply.view
        if view.finished:
            break
    outcome = json.loads(view.outcome_json)
    assert outcome["teams"] == [[0, 2], [1, 3]]
    scores = {int(k): v for k, v in outcome["scores"].items()}
    winners = outcome["places"][0]
    assert sorted(winners) in ([0, 2], [1, 3]) and sum(scores[s] for s in winners) >= 8
