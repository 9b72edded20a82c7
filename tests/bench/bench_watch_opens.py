"""Many WatchTable streams opened at once against `tablehall up` (issue 13, «Limits»).

Opens N projection WatchTable streams on one table from N spectators at once and
counts how each first answer came: a message, or a status. With
TABLEHALL_MAX_STREAMS_PER_METHOD below N, the streams within the limit get their
snapshot and the rest RESOURCE_EXHAUSTED (TOO_MANY_STREAMS) at once.

    python tests/bench/bench_watch_opens.py --streams 2000 --limit 1000
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import time
import uuid
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.serverkit import start_up

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall.projection.v1 import projection_pb2, projection_pb2_grpc
from tablehall_platform.errors import error_info

CHANNELS = 8


async def run(streams: int, limit: int) -> None:
    up = start_up({"TABLEHALL_MAX_STREAMS_PER_METHOD": str(limit), "TABLEHALL_LOG_LEVEL": "warning"})
    # each channel its own connection (channels to one target share one by default)
    channels = [
        grpc.aio.insecure_channel(up.address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(CHANNELS)
    ]
    try:
        await asyncio.wait_for(channels[0].channel_ready(), 120)
        table = f"tables/w-{uuid.uuid4().hex[:10]}"
        await match_pb2_grpc.MatchServiceStub(channels[0]).StartMatch(
            match_pb2.StartMatchRequest(
                table=table,
                game="testgame",
                options_json='{"target": 30}',
                seats=[match_pb2.Seat(seat=0, user_id="a", name="A"), match_pb2.Seat(seat=1, user_id="b", name="B")],
                request_id="start",
            ),
            metadata=up.service("lobby"),
        )
        outcomes: collections.Counter[str] = collections.Counter()
        calls = []
        started = time.perf_counter()

        async def open_one(i: int) -> None:
            stub = projection_pb2_grpc.ProjectionServiceStub(channels[i % len(channels)])
            call = stub.WatchTable(projection_pb2.WatchTableRequest(table=table), metadata=up.player(f"s{i}"))
            calls.append(call)
            try:
                await asyncio.wait_for(call.read(), 120)
                outcomes["first message"] += 1
            except grpc.aio.AioRpcError as exc:
                info = error_info(exc)
                outcomes[f"{exc.code().name} {info.reason if info else exc.details()}".strip()] += 1
            except TimeoutError:
                outcomes["no answer in 120 s"] += 1

        await asyncio.gather(*(open_one(i) for i in range(streams)))
        elapsed = time.perf_counter() - started
        print(f"{streams} WatchTable opens, limit {limit} per method: {elapsed:.1f} s")
        for name, n in outcomes.most_common():
            print(f"  {name:40} {n}")
        for call in calls:
            call.cancel()
    finally:
        for channel in channels:
            await channel.close()
        await up.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--limit", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.streams, args.limit))


if __name__ == "__main__":
    main()
