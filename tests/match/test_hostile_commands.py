"""Issue 13: a request id names one command; a bad command harms nobody else."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from support.matchkit import Running, Tokens, race_command, start_race

from tablehall.match.v1 import match_pb2
from tablehall_platform.errors import error_info, status_error_info
from tablehall_stream.names import stream_id


def _submit(table: str, seat: int, kind: str, request_id: str) -> match_pb2.SubmitCommandRequest:
    return match_pb2.SubmitCommandRequest(table=table, seat=seat, command=race_command(kind), request_id=request_id)


async def _refused_reason(call: object) -> tuple[grpc.StatusCode, str]:
    try:
        await call  # type: ignore[misc]
    except grpc.aio.AioRpcError as exc:
        info = error_info(exc)
        return exc.code(), info.reason if info else ""
    raise AssertionError("not refused")


async def test_a_request_id_sent_again_with_another_command_is_refused(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    alice = tokens("alice")
    first = await match.stub.SubmitCommand(_submit(table, 0, "roll", "r1"), metadata=alice)
    assert not first.duplicate
    again = await match.stub.SubmitCommand(_submit(table, 0, "roll", "r1"), metadata=alice)
    assert again.duplicate and again.version == first.version
    other = match.stub.SubmitCommand(_submit(table, 0, "pass", "r1"), metadata=alice)
    assert await _refused_reason(other) == (grpc.StatusCode.FAILED_PRECONDITION, "REQUEST_ID_REUSED")
    # the same after the table left memory (a restart): answered from the store
    match.service.app.evict(table.split("/")[1])
    again = await match.stub.SubmitCommand(_submit(table, 0, "roll", "r1"), metadata=alice)
    assert again.duplicate and again.version == first.version
    other = match.stub.SubmitCommand(_submit(table, 0, "pass", "r1"), metadata=alice)
    assert await _refused_reason(other) == (grpc.StatusCode.FAILED_PRECONDITION, "REQUEST_ID_REUSED")
    assert await match.store.stream_version(stream_id(table.split("/")[1])) == first.version


async def test_bad_request_ids_in_a_stream_fail_alone_and_honest_tables_commit(match: Running, tokens: Tokens) -> None:
    tables = [await start_race(match.stub, tokens, users=(f"p{i}", f"q{i}")) for i in range(8)]
    heads = [await match.store.stream_version(stream_id(t.split("/")[1])) for t in tables]
    attacker_table = await start_race(match.stub, tokens, users=("mallory", "trent"))

    async def honest(i: int) -> list[match_pb2.SubmitCommandsResponse]:
        async def items() -> object:
            yield match_pb2.SubmitCommandsRequest(command=_submit(tables[i], 0, "roll", f"h{i}"))

        return [r async for r in match.stub.SubmitCommands(items(), metadata=tokens(f"p{i}"))]

    async def attacker() -> list[match_pb2.SubmitCommandsResponse]:
        async def items() -> object:
            for n in range(20):
                bad = "x" * 3000 if n % 2 else f"r{n}\x00"
                yield match_pb2.SubmitCommandsRequest(command=_submit(attacker_table, 0, "roll", bad))

        return [r async for r in match.stub.SubmitCommands(items(), metadata=tokens("mallory"))]

    results = await asyncio.gather(attacker(), *(honest(i) for i in range(8)))
    for reply in results[0]:
        assert reply.WhichOneof("result") == "error"
        assert reply.error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        info = status_error_info(reply.error)
        assert info is not None and info.reason == "INVALID_REQUEST_ID"
        assert "commands_pkey" not in reply.error.message
    for i, replies in enumerate(results[1:]):
        [reply] = replies
        assert reply.WhichOneof("result") == "committed", reply
        assert reply.committed.version > heads[i]
    assert len(results[0]) == 20


async def test_corrupt_messages_on_a_command_stream_end_it_with_invalid_argument(
    match: Running, tokens: Tokens
) -> None:
    stream = match.channel.stream_stream(
        "/tablehall.match.v1.MatchService/SubmitCommands", request_serializer=None, response_deserializer=None
    )

    async def items() -> object:
        for _ in range(3):
            yield b"\n\x03\xff\xfe\xfd"  # a string field of invalid UTF-8

    with pytest.raises(grpc.aio.AioRpcError) as caught:
        async for _ in stream(items(), metadata=tokens("alice")):
            pass
    info = error_info(caught.value)
    assert (caught.value.code(), info.reason if info else "") == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")


async def test_undecodable_bytes_in_game_command_other_are_refused_and_nothing_is_written(
    match: Running, tokens: Tokens
) -> None:
    """Issue 30.3: invalid UTF-8 or corrupt bytes inside the Any once answered INTERNAL."""
    table = await start_race(match.stub, tokens)
    head = await match.store.stream_version(stream_id(table.split("/")[1]))
    type_url = race_command("roll").other.type_url
    close_with_bad_utf8 = b"\x22\x03\x0a\x01\xff"  # Command.close (4) = Close{reason (1) = b"\xff"}
    for n, value in enumerate((close_with_bad_utf8, b"\xff\xff\xff", b"\x0a\x10")):
        command = match_pb2.GameCommand()
        command.other.type_url = type_url
        command.other.value = value
        request = match_pb2.SubmitCommandRequest(table=table, seat=0, command=command, request_id=f"bad{n}")
        call = match.stub.SubmitCommand(request, metadata=tokens("alice"))
        assert await _refused_reason(call) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"), value
        check = match_pb2.CheckCommandRequest(table=table, seat=0, command=command)
        refused = match.stub.CheckCommand(check, metadata=tokens("alice"))
        assert await _refused_reason(refused) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    assert await match.store.stream_version(stream_id(table.split("/")[1])) == head


@pytest.mark.parametrize(("reason", "refusal"), [("a\x07b", "INVALID_TEXT"), ("r" * 3000, "INVALID_TEXT")])
async def test_the_input_policy_applies_inside_game_command_other(
    match: Running, tokens: Tokens, reason: str, refusal: str
) -> None:
    """Issue 30.3: the strings of a command packed in `other` reached the rules unchecked."""
    from testgame.proto import testgame_pb2

    table = await start_race(match.stub, tokens)
    head = await match.store.stream_version(stream_id(table.split("/")[1]))
    command = match_pb2.GameCommand()
    command.other.Pack(testgame_pb2.Command(close=testgame_pb2.Close(reason=reason)))
    request = match_pb2.SubmitCommandRequest(table=table, command=command, request_id="close", as_table=True)
    call = match.stub.SubmitCommand(request, metadata=tokens("op", ("operator",)))
    assert await _refused_reason(call) == (grpc.StatusCode.INVALID_ARGUMENT, refusal)
    assert await match.store.stream_version(stream_id(table.split("/")[1])) == head
