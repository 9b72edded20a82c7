"""SubmitCommands: many commands on one stream, each answered as SubmitCommand would be."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from support.matchkit import SECRET, Running, Tokens, race_command, start_race, start_service, stop_service

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_platform.auth import DevProvider
from tablehall_platform.errors import error_info, status_error_info
from tablehall_stream.names import stream_id


def command(table: str, seat: int, kind: str, request_id: str) -> match_pb2.SubmitCommandsRequest:
    return match_pb2.SubmitCommandsRequest(
        command=match_pb2.SubmitCommandRequest(
            table=table, seat=seat, command=race_command(kind), request_id=request_id
        )
    )


async def messages(items: list[match_pb2.SubmitCommandsRequest]) -> AsyncIterator[match_pb2.SubmitCommandsRequest]:
    for item in items:
        yield item


async def exchange(
    stub: match_pb2_grpc.MatchServiceStub, metadata: list[tuple[str, str]], items: list[match_pb2.SubmitCommandsRequest]
) -> dict[str, match_pb2.SubmitCommandsResponse]:
    """Send every item at once (without waiting for answers); the answers by request_id."""
    call = stub.SubmitCommands(messages(items), metadata=metadata)
    answers = {reply.request_id: reply async for reply in call}
    assert len(answers) == len(items)
    return answers


def open_stream(
    stub: match_pb2_grpc.MatchServiceStub, metadata: list[tuple[str, str]]
) -> tuple[asyncio.Queue[match_pb2.SubmitCommandsRequest | None], Any]:
    """A stream the test feeds as it goes: put requests on the queue, None to stop sending."""
    queue: asyncio.Queue[match_pb2.SubmitCommandsRequest | None] = asyncio.Queue()

    async def requests() -> AsyncIterator[match_pb2.SubmitCommandsRequest]:
        while (item := await queue.get()) is not None:
            yield item

    return queue, stub.SubmitCommands(requests(), metadata=metadata)


def slow_submits(monkeypatch: pytest.MonkeyPatch, match: Running, seconds: float = 0.3) -> asyncio.Event:
    """Every command takes `seconds` longer; the event is set once one has begun."""
    app = match.service.app
    real_submit = app.submit
    entered = asyncio.Event()

    async def slow(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        await asyncio.sleep(seconds)
        return await real_submit(*args, **kwargs)

    monkeypatch.setattr(app, "submit", slow)
    return entered


async def test_one_stream_commits_commands_for_several_tables(match: Running, tokens: Tokens) -> None:
    tables = [await start_race(match.stub, tokens) for _ in range(3)]
    items = [command(t, 0, "roll", f"{t}-r") for t in tables]
    answers = await exchange(match.stub, tokens("alice"), items)
    for table in tables:
        reply = answers[f"{table}-r"]
        assert reply.table == table and reply.WhichOneof("result") == "committed"
        committed = reply.committed
        # answered only after commit: the store holds that version
        assert committed.version == await match.store.stream_version(stream_id(table.split("/")[1]))
        assert committed.view.seat == 0 and json.loads(committed.view.view_json)["turn"] == 1
        assert not committed.duplicate


async def test_a_refused_command_is_answered_with_its_status_and_the_stream_goes_on(
    match: Running, tokens: Tokens
) -> None:
    table = await start_race(match.stub, tokens)
    sid = stream_id(table.split("/")[1])
    before = await match.store.stream_version(sid)
    items = [
        command(table, 1, "roll", "not-mine"),  # alice holds seat 0
        command(table, 0, "roll", "ok-1"),
        command(table, 0, "roll", "out-of-turn"),  # bob's turn now
        command("no/such/name", 0, "roll", "bad-name"),
        match_pb2.SubmitCommandsRequest(
            command=match_pb2.SubmitCommandRequest(table=table, seat=0, command=race_command("roll"))
        ),  # no request_id
    ]
    answers = await exchange(match.stub, tokens("alice"), items)
    expected = {
        "not-mine": (grpc.StatusCode.PERMISSION_DENIED, "NOT_YOUR_SEAT"),
        "out-of-turn": (grpc.StatusCode.FAILED_PRECONDITION, None),
        "bad-name": (grpc.StatusCode.INVALID_ARGUMENT, None),
        "": (grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_ID_REQUIRED"),
    }
    for request_id, (code, reason) in expected.items():
        reply = answers[request_id]
        assert reply.WhichOneof("result") == "error", request_id
        assert reply.error.code == code.value[0], (request_id, reply.error)
        info = status_error_info(reply.error)
        assert info is not None and info.domain == "tablehall" and info.reason
        if reason:
            assert info.reason == reason
    assert answers["ok-1"].WhichOneof("result") == "committed"
    # only the one good command reached the stream
    assert await match.store.stream_version(sid) == answers["ok-1"].committed.version == before + 1


async def test_a_repeated_request_id_is_answered_as_a_duplicate(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    answers = await exchange(match.stub, tokens("alice"), [command(table, 0, "roll", "once")])
    again = await exchange(match.stub, tokens("alice"), [command(table, 0, "roll", "once")])
    assert again["once"].committed.duplicate
    assert again["once"].committed.version == answers["once"].committed.version


async def test_commands_for_one_table_apply_in_the_order_sent(
    match: Running, tokens: Tokens, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one player in both seats: each pass is legal only after the one before it
    table = await start_race(match.stub, tokens, users=("alice", "alice"))
    other = await start_race(match.stub, tokens)
    app = match.service.app
    real_submit = app.submit

    async def slow_first(*args: Any, **kwargs: Any) -> Any:
        if args[4] == "p0":  # request_id: the first command takes long to get going
            await asyncio.sleep(0.2)
        return await real_submit(*args, **kwargs)

    monkeypatch.setattr(app, "submit", slow_first)
    items = [command(table, i % 2, "pass", f"p{i}") for i in range(6)] + [command(other, 0, "roll", "other")]
    call = match.stub.SubmitCommands(messages(items), metadata=tokens("alice"))
    order = [reply.request_id async for reply in call]
    # the other table did not wait for the slow one; this table's commands came in order
    assert order.index("other") < order.index("p0")
    assert [r for r in order if r != "other"] == [f"p{i}" for i in range(6)]


async def test_a_stream_to_an_instance_that_does_not_hold_the_table_is_served_by_its_writer(
    migrated: str, tokens: Tokens
) -> None:
    first = await start_service(migrated)
    second = await start_service(migrated)
    try:
        table = await start_race(first.stub, tokens, users=("alice", "alice"))
        await first.service.app.table(table.split("/")[1])
        items = [command(table, i % 2, "pass", f"p{i}") for i in range(12)]
        items.append(command(table, 7, "roll", "no-seat"))  # refused by the writer
        answers = await exchange(second.stub, tokens("alice"), items)
        versions = [answers[f"p{i}"].committed.version for i in range(12)]
        assert versions == sorted(versions) and len(set(versions)) == 12
        # the writer's refusal arrives as it was sent, ErrorInfo and all
        refused = answers["no-seat"].error
        assert refused.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        info = status_error_info(refused)
        assert info is not None and info.reason == "NO_SUCH_SEAT"
        assert table.split("/")[1] not in second.service.app.tables  # the writer did the work
    finally:
        await stop_service(first)
        await stop_service(second)


async def test_a_stream_without_a_valid_token_is_refused(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    call = match.stub.SubmitCommands(messages([command(table, 0, "roll", "x")]))
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await call.read()
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED


async def test_a_stream_ends_when_its_token_expires(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    token = DevProvider(SECRET).issue("alice", ttl_seconds=1)
    queue, call = open_stream(match.stub, [("authorization", f"Bearer {token}")])
    queue.put_nowait(command(table, 0, "roll", "in-time"))
    first = await call.read()
    assert first.WhichOneof("result") == "committed"
    version = first.committed.version
    await asyncio.sleep(max(0.0, json.loads(_claims(token))["exp"] - time.time()) + 0.2)
    queue.put_nowait(command(table, 1, "roll", "too-late"))
    with pytest.raises(grpc.aio.AioRpcError) as ended:
        await call.read()
    assert ended.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert await match.store.stream_version(stream_id(table.split("/")[1])) == version


def _claims(token: str) -> str:
    import base64

    body = token.split(".")[1]
    return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()


async def test_a_stream_holds_at_most_its_limit_of_commands_in_flight(
    match: Running, tokens: Tokens, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablehall_match import grpc_port

    monkeypatch.setattr(grpc_port, "STREAM_IN_FLIGHT", 3)
    tables = [await start_race(match.stub, tokens) for _ in range(8)]
    app = match.service.app
    real_submit = app.submit
    running = peak = 0

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        try:
            await asyncio.sleep(0.05)
            return await real_submit(*args, **kwargs)
        finally:
            running -= 1

    monkeypatch.setattr(app, "submit", counted)
    answers = await exchange(match.stub, tokens("alice"), [command(t, 0, "roll", f"r-{t}") for t in tables])
    assert all(a.WhichOneof("result") == "committed" for a in answers.values())
    assert peak == 3  # eight tables, never more than three at once


async def test_a_stopping_server_answers_what_its_streams_hold_then_ends_them(
    match: Running, tokens: Tokens, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await start_race(match.stub, tokens)
    entered = slow_submits(monkeypatch, match)
    queue, call = open_stream(match.stub, tokens("alice"))
    queue.put_nowait(command(table, 0, "roll", "in-flight"))
    await entered.wait()
    await match.service.servicer.drain()  # the process begins to stop
    # the command it held is answered (committed), then the stream ends: reconnect elsewhere
    held = await call.read()
    assert held.request_id == "in-flight" and held.WhichOneof("result") == "committed"
    with pytest.raises(grpc.aio.AioRpcError) as ended:
        await call.read()
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
    assert error_info(ended.value).reason == "SERVER_STOPPING"  # type: ignore[union-attr]
    # and a new stream is refused the same way
    late = match.stub.SubmitCommands(messages([command(table, 1, "roll", "late")]), metadata=tokens("bob"))
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await late.read()
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    assert await match.store.stream_version(stream_id(table.split("/")[1])) == held.committed.version


async def test_a_stopping_server_still_answers_a_stream_whose_client_finished_sending(
    match: Running, tokens: Tokens, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await start_race(match.stub, tokens)
    entered = slow_submits(monkeypatch, match)
    call = match.stub.SubmitCommands(messages([command(table, 0, "roll", "last")]), metadata=tokens("alice"))
    await entered.wait()
    await asyncio.sleep(0.05)  # the client has half-closed: the server is only waiting for the answer
    await match.service.servicer.drain()
    answers = [reply async for reply in call]
    assert [a.request_id for a in answers] == ["last"] and answers[0].WhichOneof("result") == "committed"
