"""Generic table actions and the timer's default moves."""

from __future__ import annotations

import json

import grpc
import pytest
from support.matchkit import Running, Tokens, start_race

from tablehall.match.v1 import match_pb2
from tablehall_match.stream_events import ENDED, stream_id
from tablehall_platform.errors import error_info

TIMER = ("timer", ("service",))


async def test_default_move_is_made_once_the_clock_has_run_out(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens, options='{"target": 30, "clock_ms": 100}')
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    (decision,) = view.view.decisions
    match.service.app.clock = lambda: (decision.deadline_unix_ms + 1) / 1000
    request = match_pb2.SubmitDefaultCommandRequest(table=table, decision_key=decision.key, request_id=decision.key)
    reply = await match.stub.SubmitDefaultCommand(request, metadata=tokens(*TIMER))
    assert json.loads(reply.view.view_json)["turn"] == 1
    events = await match.store.read_stream(stream_id(table.split("/")[1]))
    assert events[-1].type == "testgame.Passed" and events[-1].metadata["timeout"] is True
    # the same deadline firing again is answered, not applied
    again = await match.stub.SubmitDefaultCommand(request, metadata=tokens(*TIMER))
    assert again.duplicate and again.version == reply.version
    # a different request for the taken decision is refused harmlessly
    request.request_id = "other"
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await match.stub.SubmitDefaultCommand(request, metadata=tokens(*TIMER))
    info = error_info(caught.value)
    assert (
        caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION and info and info.reason == "DECISION_ALREADY_TAKEN"
    )
    assert await match.store.stream_version(stream_id(table.split("/")[1])) == reply.version


async def test_default_move_before_the_deadline_is_refused(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens, options='{"target": 30, "clock_ms": 60000}')
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    request = match_pb2.SubmitDefaultCommandRequest(
        table=table, decision_key=view.view.decisions[0].key, request_id="early"
    )
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await match.stub.SubmitDefaultCommand(request, metadata=tokens(*TIMER))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.aio.AioRpcError) as denied:
        await match.stub.SubmitDefaultCommand(request, metadata=tokens("alice"))
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_an_operator_closes_a_table_and_the_seed_is_revealed(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    close = match_pb2.ControlTableRequest(
        table=table, request_id="close", close=match_pb2.CloseTable(reason=match_pb2.CLOSE_REASON_OPERATOR)
    )
    with pytest.raises(grpc.aio.AioRpcError) as denied:
        await match.stub.ControlTable(close, metadata=tokens("alice"))
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    reply = await match.stub.ControlTable(close, metadata=tokens("root", ("operator",)))
    assert reply.applied
    events = await match.store.read_stream(stream_id(table.split("/")[1]))
    assert events[-1].type == ENDED and events[-1].version == reply.version


async def test_an_action_the_game_has_no_rule_for_changes_nothing(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    before = await match.store.stream_version(stream_id(table.split("/")[1]))
    reply = await match.stub.ControlTable(
        match_pb2.ControlTableRequest(
            table=table, request_id="p", controller=match_pb2.SetController(seat=1, by_bot=True)
        ),
        metadata=tokens("lobby", ("service",)),
    )
    assert not reply.applied and reply.version == before
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await match.stub.ControlTable(
            match_pb2.ControlTableRequest(table=table, request_id="e"), metadata=tokens("lobby", ("service",))
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
