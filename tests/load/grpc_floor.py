"""The floor of Python gRPC on this machine: a bare grpc.aio echo server, no Tablehall code.

What a closed loop of unary calls (or messages on streams) can reach when the service does
nothing but hand back a fixed answer: the same grpcio, the same event loop (uvloop), the same
client shape as load.py part 1 (100 callers, one call in flight each, one connection; streams: one
per caller), bytes in and out with no protobuf work on either side. No Tablehall transport can go
faster than this on the same cores, so it says how much of a figure is the gRPC machinery's:
load.py prints it beside boardgame.io and Tablehall.

    .venv/bin/python tests/load/grpc_floor.py [--seconds 10] [--callers 100]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from asyncio.subprocess import PIPE
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import uvloop

from tablehall_cli.runtime import GC_THRESHOLDS
from tablehall_platform.infra import free_port

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from bench_match import percentile, proc_cpu

UNARY = "/floor.Echo/Unary"
STREAM = "/floor.Echo/Stream"
# about a dice race's SubmitCommandRequest and its answer with the view
REQUEST_BYTES = 96
ANSWER_BYTES = 512


def _identity(data: bytes) -> bytes:
    return data


class _Echo(grpc.GenericRpcHandler):  # type: ignore[misc]  # grpc has no type stubs here
    def __init__(self) -> None:
        answer = b"a" * ANSWER_BYTES

        async def unary(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
            return answer

        async def stream(
            requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext[bytes, bytes]
        ) -> AsyncIterator[bytes]:
            async for _ in requests:
                yield answer

        self.handlers = {
            UNARY: grpc.unary_unary_rpc_method_handler(unary, _identity, _identity),
            STREAM: grpc.stream_stream_rpc_method_handler(stream, _identity, _identity),
        }

    def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler | None:
        return self.handlers.get(details.method)


async def serve(port: int) -> None:
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)  # as tablehall_cli.runtime.tune_gc
    server = grpc.aio.server()
    server.add_generic_rpc_handlers([_Echo()])
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print("serving", flush=True)
    await server.wait_for_termination()


@dataclass
class Floor:
    transport: str
    calls_per_s: float
    p50_ms: float
    p99_ms: float
    server_us: float  # server CPU per call
    client_us: float  # this process's CPU per call


async def _loop(channel: grpc.aio.Channel, transport: str, callers: int, seconds: float) -> list[float]:
    request = b"r" * REQUEST_BYTES
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds
    unary = channel.unary_unary(UNARY, _identity, _identity)
    stream = channel.stream_stream(STREAM, _identity, _identity)

    async def caller(call: Any) -> None:
        while time.perf_counter() < stop_at:
            began = time.perf_counter()
            if call is None:
                await unary(request)
            else:
                await call.write(request)
                await call.read()
            latencies.append(time.perf_counter() - began)

    calls = [stream() for _ in range(callers)] if transport == "stream" else [None] * callers
    await asyncio.gather(*(caller(call) for call in calls))
    for call in calls:
        if call is not None:
            await call.done_writing()
    return latencies


async def measure(seconds: float, callers: int = 100) -> list[Floor]:
    """Start the echo server in its own process, drive each transport, stop it."""
    port = free_port()
    proc = await asyncio.create_subprocess_exec(sys.executable, __file__, "--serve", str(port), stdout=PIPE)
    try:
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        if line.strip() != b"serving":
            raise RuntimeError(f"the echo server did not start: {line!r}")
        out = []
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            for transport in ("stream", "unary"):
                await _loop(channel, transport, callers, min(2.0, seconds / 4))  # warm-up
                gc.collect()
                gc.disable()
                try:
                    server0, client0, wall0 = proc_cpu(proc.pid), time.process_time(), time.perf_counter()
                    latencies = await _loop(channel, transport, callers, seconds)
                    server1, client1, wall1 = proc_cpu(proc.pid), time.process_time(), time.perf_counter()
                finally:
                    gc.enable()
                n = len(latencies)
                out.append(
                    Floor(
                        transport,
                        n / (wall1 - wall0),
                        percentile(latencies, 0.5) * 1000,
                        percentile(latencies, 0.99) * 1000,
                        (server1 - server0) / n * 1e6,
                        (client1 - client0) / n * 1e6,
                    )
                )
        return out
    finally:
        proc.terminate()
        await proc.wait()


def floor_line(f: Floor) -> str:
    return (
        f"grpc.aio echo {f.transport:>6} {f.calls_per_s:>8.0f} calls/s  p50 {f.p50_ms:6.1f} ms  p99 {f.p99_ms:6.1f} ms"
        f"  µs/call: server {f.server_us:.0f}, client {f.client_us:.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--callers", type=int, default=100)
    args = parser.parse_args()
    if args.serve:
        uvloop.run(serve(args.serve))
        return
    for f in uvloop.run(measure(args.seconds, args.callers)):
        print(floor_line(f), flush=True)


if __name__ == "__main__":
    main()
