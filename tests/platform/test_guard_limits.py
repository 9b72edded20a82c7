"""The gRPC guard: unexpected errors answer INTERNAL without their text, a database out of
reach UNAVAILABLE; stream limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from support.matchkit import SECRET, token_maker

from tablehall_platform.auth import Authenticator, DevProvider
from tablehall_platform.errors import error_info
from tablehall_platform.grpcserver import build_server
from tablehall_platform.stream_gate import StreamLimits

SERVICE = "tablehall.test.v1.Probe"
BLOB = b"x" * 65536
BURST = 2000


class Probe:
    def __init__(self) -> None:
        self.source_closed = asyncio.Event()

    async def boom(self, request: bytes, context: Any) -> bytes:
        raise RuntimeError('duplicate key value violates unique constraint "commands_pkey" (0,42)')

    async def no_database(self, request: bytes, context: Any) -> bytes:
        raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")

    async def ticks(self, request: bytes, context: Any) -> AsyncIterator[bytes]:
        yield b"first"
        await asyncio.Event().wait()  # open until the client goes

    async def flood(self, request: bytes, context: Any) -> AsyncIterator[bytes]:
        try:
            while True:
                yield BLOB
                await asyncio.sleep(0)
        finally:
            self.source_closed.set()

    async def burst(self, request: bytes, context: Any) -> AsyncIterator[bytes]:
        """A catch-up: far more messages than the send queue holds, made without a pause."""
        for i in range(BURST):
            yield i.to_bytes(4, "big")

    def register(self, server: grpc.aio.Server) -> str:
        raw = {"request_deserializer": None, "response_serializer": None}
        handlers = {
            "Boom": grpc.unary_unary_rpc_method_handler(self.boom, **raw),
            "NoDatabase": grpc.unary_unary_rpc_method_handler(self.no_database, **raw),
            "Ticks": grpc.unary_stream_rpc_method_handler(self.ticks, **raw),
            "Flood": grpc.unary_stream_rpc_method_handler(self.flood, **raw),
            "Burst": grpc.unary_stream_rpc_method_handler(self.burst, **raw),
        }
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, handlers)])
        return SERVICE


@pytest.fixture
async def probe() -> AsyncIterator[tuple[Probe, grpc.aio.Channel]]:
    from tablehall_platform.infra import free_port

    probe = Probe()
    address = f"127.0.0.1:{free_port()}"
    server, _, _ = build_server(
        Authenticator([DevProvider(SECRET)]),
        [probe.register],
        address,
        streams=StreamLimits(per_user=2, per_method=3, send_queue=8, stall_seconds=0.2),
    )
    await server.start()
    channel = grpc.aio.insecure_channel(address)
    yield probe, channel
    await channel.close()
    await server.stop(grace=0)


def _method(channel: grpc.aio.Channel, name: str, streaming: bool) -> Any:
    make = channel.unary_stream if streaming else channel.unary_unary
    return make(f"/{SERVICE}/{name}", request_serializer=None, response_deserializer=None)


async def test_an_unexpected_error_is_internal_without_its_text(probe: tuple[Probe, grpc.aio.Channel]) -> None:
    _, channel = probe
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _method(channel, "Boom", False)(b"", metadata=token_maker()("alice"))
    assert caught.value.code() == grpc.StatusCode.INTERNAL
    assert "commands_pkey" not in (caught.value.details() or "")
    info = error_info(caught.value)
    assert info is not None and info.reason == "INTERNAL" and info.metadata["correlation_id"]


async def test_a_database_out_of_reach_is_unavailable_so_callers_retry(probe: tuple[Probe, grpc.aio.Channel]) -> None:
    _, channel = probe
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _method(channel, "NoDatabase", False)(b"", metadata=token_maker()("alice"))
    assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    info = error_info(caught.value)
    assert info is not None and info.reason == "DATABASE_UNAVAILABLE"


async def _first(call: Any) -> bytes:
    return bytes(await call.read())


async def test_streams_per_user_and_per_method_are_limited(probe: tuple[Probe, grpc.aio.Channel]) -> None:
    _, channel = probe
    tokens = token_maker()
    ticks = _method(channel, "Ticks", True)
    mine = [ticks(b"", metadata=tokens("alice")) for _ in range(2)]
    assert [await _first(c) for c in mine] == [b"first", b"first"]  # within the limit: served
    third = ticks(b"", metadata=tokens("alice"))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await third.read()
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    info = error_info(caught.value)
    assert info is not None and info.reason == "TOO_MANY_STREAMS"
    bobs = ticks(b"", metadata=tokens("bob"))
    assert await _first(bobs) == b"first"  # another user: the method's third stream
    carol = ticks(b"", metadata=tokens("carol"))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await carol.read()
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    for call in (*mine, bobs):
        call.cancel()


async def test_a_reader_that_does_not_read_is_dropped_after_a_bounded_queue(
    probe: tuple[Probe, grpc.aio.Channel],
) -> None:
    server_side, channel = probe
    call = _method(channel, "Flood", True)(b"", metadata=token_maker()("alice"))
    await call.wait_for_connection()
    await server_side.source_closed.wait()  # the server stopped producing: its queue was full
    received = 0
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        while True:
            message = await call.read()
            if message is grpc.aio.EOF:
                break
            received += 1
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    info = error_info(caught.value)
    assert info is not None and info.reason == "SLOW_CONSUMER"
    assert received < 10_000  # bounded: what the queue and gRPC's own window held


async def test_a_reader_that_reads_gets_a_long_catch_up_whole(probe: tuple[Probe, grpc.aio.Channel]) -> None:
    """A full queue is no fault while the reader reads: a watcher catching up on a long history
    (made far faster than any client reads) gets every message, in order."""
    _, channel = probe
    call = _method(channel, "Burst", True)(b"", metadata=token_maker()("alice"))
    received = [int.from_bytes(m, "big") async for m in call]
    assert received == list(range(BURST))
    assert await call.code() == grpc.StatusCode.OK


async def test_a_burst_of_two_thousand_stream_opens_gets_every_stream() -> None:
    """gRPC's own pending-call limit used to cancel about a tenth of such a burst
    before any handler saw it; now each gets its stream or, past our limit, a reason."""
    from tablehall_platform.infra import free_port

    probe = Probe()
    address = f"127.0.0.1:{free_port()}"
    server, _, _ = build_server(
        Authenticator([DevProvider(SECRET)]),
        [probe.register],
        address,
        streams=StreamLimits(per_user=10, per_method=1500, send_queue=8),
    )
    await server.start()
    channel = grpc.aio.insecure_channel(address)
    tokens = token_maker()
    ticks = _method(channel, "Ticks", True)
    calls = [ticks(b"", metadata=tokens(f"u{i}")) for i in range(2000)]
    outcomes: dict[str, int] = {}

    async def first(call: Any) -> None:
        try:
            await call.read()
            key = "stream"
        except grpc.aio.AioRpcError as exc:
            info = error_info(exc)
            key = f"{exc.code().name} {info.reason if info else ''}"
        outcomes[key] = outcomes.get(key, 0) + 1

    try:
        await asyncio.gather(*(first(c) for c in calls))
    finally:
        for call in calls:
            call.cancel()
        await channel.close()
        await server.stop(grace=0)
    assert outcomes == {"stream": 1500, "RESOURCE_EXHAUSTED TOO_MANY_STREAMS": 500}
