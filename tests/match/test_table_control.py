"""Generic table actions and the timer's default moves."""

from __future__ import annotations

import json

import grpc
import pytest
from support.matchkit import Running, Tokens, start_race

from tablehall.match.v1 import match_pb2
from tablehall_platform.errors import error_info
from tablehall_stream.names import ENDED, stream_id

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


async def test_the_bot_service_plays_only_seats_a_bot_plays(match: Running, tokens: Tokens) -> None:
    from puzzipolia import commands as pz
    from puzzipolia.proto_codec import command_to_proto

    table = "tables/" + f"bots-{__import__('uuid').uuid4().hex[:8]}"
    await match.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="puzzipolia",
            options_json='{"round_limit": 3}',
            seats=[
                match_pb2.Seat(seat=0, user_id="ann"),
                match_pb2.Seat(seat=1, user_id="ben"),
                match_pb2.Seat(seat=2, user_id="bot-1", is_bot=True),
            ],
            request_id="start",
        ),
        metadata=tokens("lobby", ("service",)),
    )
    roll = match_pb2.GameCommand(puzzipolia=command_to_proto(pz.RollForOrder()))
    bot = tokens("bot", ("service",))

    async def bot_rolls_for(seat: int, rid: str) -> match_pb2.SubmitCommandResponse:
        return await match.stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table, seat=seat, command=roll, request_id=rid), metadata=bot
        )

    assert (await bot_rolls_for(2, "b2")).version > 0  # a bot seat
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await bot_rolls_for(1, "b1")  # ben's own seat
    info = error_info(caught.value)
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED and info and info.reason == "NOT_A_BOT_SEAT"

    async def control(by_bot: bool, rid: str) -> None:
        await match.stub.ControlTable(
            match_pb2.ControlTableRequest(
                table=table, request_id=rid, controller=match_pb2.SetController(seat=1, by_bot=by_bot)
            ),
            metadata=tokens("lobby", ("service",)),
        )

    await control(True, "hand")  # the host handed ben's seat to a bot
    assert (await bot_rolls_for(1, "b1-handed")).version > 0
    match.service.app.evict(table.split("/")[1])  # the fact survives a rebuild
    await control(False, "reclaim")  # ben is back: the bot may not move for him any more
    with pytest.raises(grpc.aio.AioRpcError) as again:
        await match.stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(
                table=table,
                seat=1,
                command=match_pb2.GameCommand(puzzipolia=command_to_proto(pz.EndTurn())),
                request_id="b1-late",
            ),
            metadata=bot,
        )
    assert error_info(again.value).reason == "NOT_A_BOT_SEAT"  # type: ignore[union-attr]


async def test_a_retried_close_is_answered_as_a_duplicate_after_the_table_was_reloaded(
    match: Running, tokens: Tokens
) -> None:
    # the lobby retries a control call when its own append meets a conflict; the match may have
    # reloaded the table in between (another writer), so only the store remembers the first call
    table = await start_race(match.stub, tokens)
    close = match_pb2.ControlTableRequest(
        table=table, request_id="close-once", close=match_pb2.CloseTable(reason=match_pb2.CLOSE_REASON_OPERATOR)
    )
    first = await match.stub.ControlTable(close, metadata=tokens("lobby", ("service",)))
    match.service.app.evict(table.split("/")[1])
    again = await match.stub.ControlTable(close, metadata=tokens("lobby", ("service",)))
    assert again.duplicate and again.version == first.version and not first.duplicate
    assert await match.store.stream_version(stream_id(table.split("/")[1])) == first.version


async def test_a_deadline_firing_again_after_a_reload_is_answered_not_refused(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens, options='{"target": 30, "clock_ms": 100}')
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    (decision,) = view.view.decisions
    match.service.app.clock = lambda: (decision.deadline_unix_ms + 1) / 1000
    request = match_pb2.SubmitDefaultCommandRequest(table=table, decision_key=decision.key, request_id=decision.key)
    reply = await match.stub.SubmitDefaultCommand(request, metadata=tokens(*TIMER))
    match.service.app.evict(table.split("/")[1])
    again = await match.stub.SubmitDefaultCommand(request, metadata=tokens(*TIMER))
    assert again.duplicate and again.version == reply.version
