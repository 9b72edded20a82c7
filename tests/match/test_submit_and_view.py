"""Submitting commands and reading views through the match service's gRPC API."""

from __future__ import annotations

import json

import grpc
import pytest
from support.matchkit import Running, Tokens, race_command, start_race

from tablehall.match.v1 import match_pb2
from tablehall_platform.errors import error_info
from tablehall_stream.names import stream_id


def submit(table: str, seat: int, kind: str, request_id: str, **extra: object) -> match_pb2.SubmitCommandRequest:
    return match_pb2.SubmitCommandRequest(
        table=table, seat=seat, command=race_command(kind), request_id=request_id, **extra
    )


async def test_a_command_is_committed_and_answered_with_the_callers_view(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    version_before = await match.store.stream_version(stream_id(table.split("/")[1]))
    reply = await match.stub.SubmitCommand(submit(table, 0, "roll", "r1"), metadata=tokens("alice"))
    assert reply.version == version_before + 1 and not reply.duplicate
    assert reply.view.seat == 0 and reply.view.role == match_pb2.VIEWER_ROLE_SEAT
    view = json.loads(reply.view.view_json)
    assert view["scores"][0] >= 1 and view["turn"] == 1
    # alice sees her own secret, not bob's
    assert view["secrets"][0] is not None and view["secrets"][1] is None
    stored = await match.store.stream_version(stream_id(table.split("/")[1]))
    assert stored == reply.version
    # bob now has the turn: his legal commands and the open decision with its clock
    bob = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("bob"))
    assert bob.view.seat == 1 and len(bob.view.legal_moves) == 2
    (decision,) = bob.view.decisions
    assert decision.seat == 1 and decision.deadline_unix_ms == decision.opened_at_unix_ms + decision.clock_ms


async def test_spectator_sees_no_secrets_and_no_legal_commands(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    reply = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("carol"))
    assert reply.view.role == match_pb2.VIEWER_ROLE_SPECTATOR and reply.view.seat == -1
    assert json.loads(reply.view.view_json)["secrets"] == [None, None]
    assert not reply.view.legal_moves


async def test_a_retried_request_is_answered_not_applied_again(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    first = await match.stub.SubmitCommand(submit(table, 0, "roll", "same"), metadata=tokens("alice"))
    again = await match.stub.SubmitCommand(submit(table, 0, "roll", "same"), metadata=tokens("alice"))
    assert again.duplicate and again.version == first.version
    events = await match.store.read_stream(stream_id(table.split("/")[1]))
    assert events[-1].version == first.version
    # after a restart (no memory of recent ids) the store's record answers
    match.service.app.evict(table.split("/")[1])
    third = await match.stub.SubmitCommand(submit(table, 0, "roll", "same"), metadata=tokens("alice"))
    assert third.duplicate and third.version == first.version


async def test_start_is_idempotent_and_a_second_start_is_refused(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    request = match_pb2.StartMatchRequest(
        table=table, game="testgame", seats=[match_pb2.Seat(seat=0, user_id="alice")], request_id="start"
    )
    again = await match.stub.StartMatch(request, metadata=tokens("lobby", ("service",)))
    assert again.version >= 2 and len(again.seed_sha256) == 64
    request.request_id = "another"
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await match.stub.StartMatch(request, metadata=tokens("lobby", ("service",)))
    assert caught.value.code() == grpc.StatusCode.ALREADY_EXISTS


async def _refused(call: object, code: grpc.StatusCode, reason: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code() == code, caught.value.details()
    info = error_info(caught.value)
    assert info is not None and info.reason == reason and info.domain == "tablehall"


async def test_every_refusal_has_its_status_and_reason_and_leaves_the_table_untouched(
    match: Running, tokens: Tokens
) -> None:
    table = await start_race(match.stub, tokens)
    sid = stream_id(table.split("/")[1])
    before = await match.store.stream_version(sid)
    stub = match.stub
    C = grpc.StatusCode
    await _refused(stub.SubmitCommand(submit(table, 0, "roll", "x")), C.UNAUTHENTICATED, "TOKEN_MISSING")
    await _refused(
        stub.SubmitCommand(submit(table, 0, "roll", "x"), metadata=[("authorization", "Bearer junk")]),
        C.UNAUTHENTICATED,
        "TOKEN_INVALID",
    )
    await _refused(
        stub.SubmitCommand(submit(table, 1, "roll", "x"), metadata=tokens("alice")),
        C.PERMISSION_DENIED,
        "NOT_YOUR_SEAT",
    )
    await _refused(
        stub.SubmitCommand(submit(table, 0, "roll", "x"), metadata=tokens("mallory")),
        C.PERMISSION_DENIED,
        "NOT_A_MEMBER",
    )
    await _refused(
        stub.SubmitCommand(submit(table, 0, "roll", "x", decision_key="turn-0"), metadata=tokens("alice")),
        C.PERMISSION_DENIED,
        "NOT_ALLOWED",
    )
    await _refused(
        stub.SubmitCommand(submit(table, 1, "roll", "x"), metadata=tokens("bob")),
        C.FAILED_PRECONDITION,
        "NOT_YOUR_TURN",
    )
    await _refused(
        stub.SubmitCommand(submit("tables/Bad Name", 0, "roll", "x"), metadata=tokens("alice")),
        C.INVALID_ARGUMENT,
        "INVALID_TABLE_NAME",
    )
    await _refused(
        stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table, seat=0, request_id="x"), metadata=tokens("alice")
        ),
        C.INVALID_ARGUMENT,
        "EMPTY_COMMAND",
    )
    await _refused(
        stub.SubmitCommand(submit(table, 7, "roll", "x"), metadata=tokens("alice")), C.INVALID_ARGUMENT, "NO_SUCH_SEAT"
    )
    await _refused(
        stub.SubmitCommand(submit(table, 0, "roll", ""), metadata=tokens("alice")),
        C.INVALID_ARGUMENT,
        "REQUEST_ID_REQUIRED",
    )
    await _refused(
        stub.SubmitCommand(submit("tables/nowhere", 0, "roll", "x"), metadata=tokens("alice")),
        C.NOT_FOUND,
        "TABLE_NOT_FOUND",
    )
    await _refused(
        stub.StartMatch(
            match_pb2.StartMatchRequest(table=table, game="chess", request_id="s"), metadata=tokens("alice")
        ),
        C.PERMISSION_DENIED,
        "NOT_ALLOWED",
    )
    await _refused(
        stub.StartMatch(
            match_pb2.StartMatchRequest(table="tables/new-one", game="chess", request_id="s"),
            metadata=tokens("lobby", ("service",)),
        ),
        C.INVALID_ARGUMENT,
        "UNKNOWN_GAME",
    )
    await _refused(
        stub.StartMatch(
            match_pb2.StartMatchRequest(
                table="tables/new-two",
                game="testgame",
                options_json='{"target": -1}',
                seats=[match_pb2.Seat(seat=0, user_id="a")],
                request_id="s",
            ),
            metadata=tokens("lobby", ("service",)),
        ),
        C.INVALID_ARGUMENT,
        "INVALID_TARGET",
    )
    # a default move for a clock that has not run out is refused by the game's rule
    await _refused(
        stub.SubmitCommand(
            submit(table, 0, "pass", "x", decision_key="turn-0"), metadata=tokens("timer", ("service",))
        ),
        C.FAILED_PRECONDITION,
        "CLOCK_NOT_EXPIRED",
    )
    await _refused(
        stub.SubmitCommand(
            submit(table, 0, "pass", "x", decision_key="turn-9"), metadata=tokens("timer", ("service",))
        ),
        C.FAILED_PRECONDITION,
        "DECISION_ALREADY_TAKEN",
    )
    await _refused(
        stub.GetTableView(
            match_pb2.GetTableViewRequest(table=table, role=match_pb2.VIEWER_ROLE_AUDITOR), metadata=tokens("alice")
        ),
        C.PERMISSION_DENIED,
        "NOT_ALLOWED",
    )
    assert await match.store.stream_version(sid) == before


async def test_version_conflict_twice_is_aborted(
    match: Running, tokens: Tokens, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablehall_eventstore import ConcurrencyConflict

    table = await start_race(match.stub, tokens)
    await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))

    async def always_conflict(stream: str, expected: int, *args: object, **kwargs: object) -> object:
        raise ConcurrencyConflict(stream, expected, expected + 1)

    monkeypatch.setattr(match.service.app.appender, "append", always_conflict)
    await _refused(
        match.stub.SubmitCommand(submit(table, 0, "roll", "c"), metadata=tokens("alice")),
        grpc.StatusCode.ABORTED,
        "VERSION_CONFLICT",
    )


async def test_health_and_reflection_answer_without_a_token(match: Running) -> None:
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    health = health_pb2_grpc.HealthStub(match.channel)
    reply = await health.Check(health_pb2.HealthCheckRequest(service="tablehall.match.v1.MatchService"))
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(match.channel)
    names: list[str] = []
    async for response in reflection.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
    ):
        names += [s.name for s in response.list_services_response.service]
    assert "tablehall.match.v1.MatchService" in names


async def test_every_commit_records_the_open_decisions_it_leaves(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    reply = await match.stub.SubmitCommand(submit(table, 0, "roll", "p1"), metadata=tokens("alice"))
    events = await match.store.read_stream(stream_id(table.split("/")[1]))
    pending = events[-1].metadata["pending"]
    assert [(d["key"], d["seat"], d["clock_ms"]) for d in pending] == [
        (d.key, d.seat, d.clock_ms) for d in reply.view.decisions
    ]
