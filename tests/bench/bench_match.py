"""Match service benchmark: submit-to-commit through gRPC, replay speed, memory.

Run with `make bench-match` (not part of `make test`). It starts a match
service in a subprocess (`tablehall serve match`) against a fresh database on
the servers found as for tests, then drives it from this process:

- commands per second and p50/p99 latency with 1, 100 and 1,000 concurrent
  tables (one command in flight per table, each durably committed before its
  answer), through both ways of submitting: a SubmitCommand call per command
  ("unary") and a SubmitCommands stream per (table, seat), as a player's
  client keeps one open ("stream");
- replay speed (events per second) rebuilding a 10,000-event table;
- memory of 1,000 active tables in the service (RSS growth).

Options: --seconds per scenario (default 8), --tables (comma list), --rate
(open-loop offered load at 100 tables, default 3000/s). Little's law: a closed
loop of 100 tables at N cmd/s has a mean latency of 100/N s, so the latency
target is measured open loop, at the target rate. The load generator shares
the two cores with the service and PostgreSQL; its own garbage collector is
paused while it measures, so its pauses are not counted as the service's.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import msgspec
import uvloop

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("TABLEHALL_EXTRA_GAMES", "testgame=testgame.game:GAME")

from support.matchkit import SECRET, SERVICE_SECRET, race_command, token_maker  # noqa: E402

from tablehall.match.v1 import match_pb2, match_pb2_grpc  # noqa: E402
from tablehall_eventstore import EventStore, migrate  # noqa: E402
from tablehall_match import service as match_service  # noqa: E402
from tablehall_match.live_table import REBUILD_METADATA, LiveTable  # noqa: E402
from tablehall_platform.infra import ensure_database, find_servers, free_port, with_database  # noqa: E402

TARGETS = {
    "throughput_100": 3000.0,
    "p99_100_ms": 30.0,
    "replay_eps": 100_000.0,
    "memory_1000_mb": 200.0,
}

TRANSPORTS = ("unary", "stream")
tokens = token_maker()
TURN: dict[str, int] = {}  # whose turn it is at each table (the race alternates seats)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of one process, 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def start_tables(stub: match_pb2_grpc.MatchServiceStub, n: int) -> list[str]:
    service = tokens("bench-lobby", ("service",))
    tables = [f"tables/b-{uuid.uuid4().hex[:12]}" for _ in range(n)]
    sem = asyncio.Semaphore(50)

    async def one(table: str) -> None:
        async with sem:
            await stub.StartMatch(
                match_pb2.StartMatchRequest(
                    table=table,
                    game="testgame",
                    options_json='{"target": 1000}',
                    seats=[match_pb2.Seat(seat=0, user_id="p0"), match_pb2.Seat(seat=1, user_id="p1")],
                    request_id="start",
                ),
                metadata=service,
            )

    await asyncio.gather(*(one(t) for t in tables))
    return tables


# One client process of grpc.aio fails calls beyond about 1,200 open streams, so
# past 200 tables a stream carries the commands of several tables' seats (as a
# gateway or the bot service would); up to 200 tables it is one per (table, seat).
MAX_STREAM_GROUPS = 200
STREAMS_PER_CONNECTION = 100


# Connections kept for drive(connections=N): the same N connections every time, so behind a
# shared address (several match processes) each table's commands keep reaching the process
# that holds its lease (a new connection may reach the other one, which forwards every call).
_KEPT: dict[tuple[str, int], list[grpc.aio.Channel]] = {}


def kept_connections(address: str, n: int) -> list[grpc.aio.Channel]:
    channels = _KEPT.get((address, n))
    if channels is None:
        options = [("grpc.use_local_subchannel_pool", 1)]
        channels = _KEPT[(address, n)] = [grpc.aio.insecure_channel(address, options=options) for _ in range(n)]
    return channels


async def close_kept(address: str) -> None:
    for key in [k for k in _KEPT if k[0] == address]:
        for channel in _KEPT.pop(key):
            await channel.close()


class Streams:
    """SubmitCommands streams: one per (table, seat), as each player's client holds one.

    A stream of one (table, seat) has at most one command in flight (the closed loop waits for
    each answer), so its client writes the command and reads the answer itself; a stream shared
    by several tables' seats (past MAX_STREAM_GROUPS tables) has a reader task that hands each
    answer to its waiter.
    """

    def __init__(
        self,
        address: str,
        tables: list[str],
        metas: list[Any],
        per_connection: int = STREAMS_PER_CONNECTION,
        kept: list[grpc.aio.Channel] | None = None,
    ) -> None:
        self.route: dict[tuple[str, int], asyncio.Queue[match_pb2.SubmitCommandsRequest | None]] = {}
        # by (table, request_id): request ids are unique per table only
        self.waiting: dict[tuple[str, str], asyncio.Future[match_pb2.SubmitCommandsResponse]] = {}
        self.readers: list[asyncio.Task[None]] = []
        self.channels: list[grpc.aio.Channel] = []  # its own, closed with it
        used: list[grpc.aio.Channel] = []
        # the dedicated streams, by (table, seat): the call, and the one message it sends again
        self.calls: dict[tuple[str, int], Any] = {}
        self.messages: dict[tuple[str, int], match_pb2.SubmitCommandsRequest] = {}
        groups = min(len(tables), MAX_STREAM_GROUPS)
        dedicated = len(tables) <= MAX_STREAM_GROUPS
        queues: list[asyncio.Queue[match_pb2.SubmitCommandsRequest | None]] = []
        for index in range(groups * 2):
            if index % per_connection == 0:
                if kept is not None:
                    used.append(kept[len(used) % len(kept)])
                else:
                    # a connection of its own (not the shared subchannel of an equal channel)
                    options = [("grpc.use_local_subchannel_pool", 1)]
                    self.channels.append(grpc.aio.insecure_channel(address, options=options))
                    used.append(self.channels[-1])
            stub = match_pb2_grpc.MatchServiceStub(used[-1])
            if dedicated:
                table, seat = tables[index // 2], index % 2
                self.calls[(table, seat)] = stub.SubmitCommands(metadata=metas[seat])
                continue
            queue: asyncio.Queue[match_pb2.SubmitCommandsRequest | None] = asyncio.Queue()
            queues.append(queue)
            call = stub.SubmitCommands(self._requests(queue), metadata=metas[index % 2])
            self.readers.append(asyncio.create_task(self._answers(call)))
        if not dedicated:
            for i, table in enumerate(tables):
                for seat in (0, 1):
                    self.route[(table, seat)] = queues[(i % groups) * 2 + seat]

    @staticmethod
    async def _requests(
        queue: asyncio.Queue[match_pb2.SubmitCommandsRequest | None],
    ) -> AsyncIterator[match_pb2.SubmitCommandsRequest]:
        while (item := await queue.get()) is not None:
            yield item

    async def _answers(self, call: Any) -> None:
        try:
            async for reply in call:
                self.waiting.pop((reply.table, reply.request_id)).set_result(reply)
        except grpc.aio.AioRpcError as exc:  # fail the waiting commands instead of hanging
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(exc)
            raise

    def message(self, table: str, seat: int, command: match_pb2.GameCommand) -> match_pb2.SubmitCommandsRequest:
        """The (table, seat)'s message, built once: each command changes only its request id (a
        message is serialised when it is written, before the next command changes it)."""
        message = self.messages.get((table, seat))
        if message is None:
            message = match_pb2.SubmitCommandsRequest()
            message.command.table = table
            message.command.seat = seat
            message.command.command.CopyFrom(command)
            self.messages[(table, seat)] = message
        return message

    async def submit(self, table: str, seat: int, command: match_pb2.GameCommand, request_id: str) -> None:
        call = self.calls.get((table, seat))
        if call is None:  # a shared stream
            request = match_pb2.SubmitCommandRequest(table=table, seat=seat, command=command, request_id=request_id)
            future = asyncio.get_running_loop().create_future()
            self.waiting[(table, request_id)] = future
            self.route[(table, seat)].put_nowait(match_pb2.SubmitCommandsRequest(command=request))
            reply = await future
        else:
            message = self.message(table, seat, command)
            message.command.request_id = request_id
            await call.write(message)
            reply = await call.read()
            if reply is grpc.aio.EOF or (reply.table, reply.request_id) != (table, request_id):
                raise RuntimeError(f"the stream of {table} seat {seat} answered {reply!r}")
        if reply.WhichOneof("result") != "committed":
            raise RuntimeError(f"refused: {reply.error}")

    async def close(self) -> None:
        for queue in set(self.route.values()):
            queue.put_nowait(None)
        for call in self.calls.values():
            await call.done_writing()
            while await call.read() is not grpc.aio.EOF:  # the server ends it once all is answered
                pass
        await asyncio.gather(*self.readers)
        for channel in self.channels:
            await channel.close()


async def drive(
    address: str,
    stub: match_pb2_grpc.MatchServiceStub,
    tables: list[str],
    seconds: float,
    rate: float = 0.0,
    transport: str = "unary",
    connections: int = 1,
    streams: Streams | None = None,
) -> tuple[int, list[float]]:
    """Each table passes its turn, one command in flight per table.

    rate 0: closed loop, the next command as soon as the answer comes back
    (maximum throughput). rate > 0: open loop, the tables together offer
    `rate` commands per second (each table its share, on a fixed schedule);
    latency is then the service's, not the queue this generator builds.
    transport "unary": a SubmitCommand call per command; "stream": the
    commands of each (table, seat) on its own SubmitCommands stream; `streams` (from
    `open_streams`): streams already open, e.g. by the warm-up (a player's client holds its stream:
    opening it is not a command's latency), left open for the caller to close.
    """
    metas = [grpc.aio.Metadata(*tokens("p0")), grpc.aio.Metadata(*tokens("p1"))]
    latencies: list[float] = []
    count = 0
    begin = time.perf_counter()
    stop_at = begin + seconds
    per_table = rate / len(tables) if rate else 0.0
    # connections > 1: the tables' calls spread over that many connections of their own (both
    # seats of a table on one), e.g. to reach every process behind a shared address
    groups = min(len(tables), MAX_STREAM_GROUPS)
    per_connection = _per_connection(tables, connections)
    kept = kept_connections(address, connections) if connections > 1 else None
    own_streams = streams is None and transport == "stream"
    if own_streams:
        streams = open_streams(address, tables, connections)
    stubs = [stub] if kept is None else [match_pb2_grpc.MatchServiceStub(c) for c in kept]

    async def worker(index: int, table: str) -> None:
        nonlocal count
        seat = TURN.get(table, 0)
        i = 0
        command = race_command("pass")
        # the connection its streams use too (Streams: per_connection streams on each, in turn)
        table_stub = stubs[(2 * (index % groups) // per_connection) % len(stubs)]
        requests = [match_pb2.SubmitCommandRequest(table=table, seat=k, command=command) for k in (0, 1)]
        # spread the tables' schedules evenly over one period
        next_at = begin + (index / len(tables)) / per_table if per_table else begin
        while time.perf_counter() < stop_at:
            if per_table:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                next_at += 1 / per_table
            i += 1
            started = time.perf_counter()
            if streams is None:
                request = requests[seat]  # sent again with a new request id once answered
                request.request_id = f"{begin}-{i}"
                await table_stub.SubmitCommand(request, metadata=metas[seat])
            else:
                await streams.submit(table, seat, command, f"{begin}-{i}")
            latencies.append(time.perf_counter() - started)
            count += 1
            seat = TURN[table] = 1 - seat

    await asyncio.gather(*(worker(i, t) for i, t in enumerate(tables)))
    if own_streams and streams is not None:
        await streams.close()
    return count, latencies


def _per_connection(tables: list[str], connections: int) -> int:
    """Streams per connection: both seats of a table on one, the tables spread over `connections`."""
    groups = min(len(tables), MAX_STREAM_GROUPS)
    return STREAMS_PER_CONNECTION if connections <= 1 else 2 * -(-groups // connections)


def open_streams(address: str, tables: list[str], connections: int = 1) -> Streams:
    """The SubmitCommands streams `drive(transport="stream", connections=...)` uses for `tables`."""
    metas = [grpc.aio.Metadata(*tokens("p0")), grpc.aio.Metadata(*tokens("p1"))]
    kept = kept_connections(address, connections) if connections > 1 else None
    return Streams(address, tables, metas, _per_connection(tables, connections), kept)


async def throughput(
    address: str, n_tables: int, seconds: float, rate: float = 0.0, transport: str = "unary"
) -> dict[str, float]:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = match_pb2_grpc.MatchServiceStub(channel)
        tables = await start_tables(stub, n_tables)
        streams = open_streams(address, tables) if transport == "stream" else None
        # warm-up: load tables, fill caches, open the streams
        await drive(address, stub, tables, min(2.0, seconds / 4), transport=transport, streams=streams)
        # the load generator's own collector must not stall the measured calls
        gc.collect()
        gc.disable()
        try:
            began = time.perf_counter()
            count, latencies = await drive(address, stub, tables, seconds, rate, transport, streams=streams)
            elapsed = time.perf_counter() - began
        finally:
            gc.enable()
            if streams is not None:
                await streams.close()
    return {
        "tables": n_tables,
        "cps": count / elapsed,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "mean_ms": statistics.fmean(latencies) * 1000 if latencies else float("nan"),
    }


async def replay(database_url: str, n_events: int = 10_000) -> dict[str, float]:
    """Append a long dice race directly, then time its rebuild from events."""
    from tablehall_eventstore import NewEvent
    from tablehall_rules import SeatInfo, commitment
    from tablehall_stream.events import MatchStarted
    from tablehall_stream.names import game_event_type
    from testgame.game import Passed, Started

    store = await EventStore.connect(database_url)
    table_id = f"r-{uuid.uuid4().hex[:10]}"
    sid = f"table-{table_id}"
    seats = [SeatInfo(0, "p0", "P0"), SeatInfo(1, "p1", "P1")]
    started = MatchStarted("testgame", "1", {"target": 1000, "clock_ms": 30000}, seats, commitment(b"x" * 32), 0)
    batch = [
        NewEvent("match.Started", 1, msgspec.json.encode(started), {"command_id": "s"}),
        NewEvent(
            game_event_type("testgame", "Started"),
            1,
            msgspec.json.encode(Started(seats, 1000, 30000, [5, 6], 0)),
            {"command_id": "s"},
        ),
    ]
    version = 0
    result = await store.append(sid, version, batch)
    version = result.last_version
    chunk = 500
    for start in range(0, n_events, chunk):
        events = [
            NewEvent(
                game_event_type("testgame", "Passed"),
                1,
                msgspec.json.encode(Passed((start + i) % 2, start + i)),
                {"command_id": f"c{start + i}", "seat": (start + i) % 2},
            )
            for i in range(min(chunk, n_events - start))
        ]
        result = await store.append(sid, version, events)
        version = result.last_version
    runs, cpu = [], []
    # the match service rebuilds with its collector tuned (tablehall_cli.runtime.tune_gc): so does this
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        live = LiveTable(table_id, sid)
        for event in await store.read_facts(sid, metadata=REBUILD_METADATA):  # as the match reads
            live.apply_recorded(event)
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    gc.set_threshold(*thresholds)
    gc.unfreeze()
    await store.close()
    best = min(runs)
    # this process's CPU alone (decoding the rows, evolving): what others' load on the machine does not inflate
    return {"events": version, "seconds": best, "eps": version / best, "eps_cpu": version / min(cpu)}


async def memory(address: str, pid: int, n_tables: int = 1000) -> dict[str, float]:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = match_pb2_grpc.MatchServiceStub(channel)
        before = rss_mb(pid)
        tables = await start_tables(stub, n_tables)
        await drive(address, stub, tables, 2.0)
        after = rss_mb(pid)
    return {"tables": n_tables, "rss_before_mb": before, "rss_after_mb": after, "growth_mb": after - before}


async def bench_database() -> tuple[Any, str, str]:
    """(servers, database name, its URL): a fresh, migrated database on the servers found as for tests."""
    servers = await find_servers(ROOT / ".data" / "bench", "postgres")
    name = f"tablehall_bench_{uuid.uuid4().hex[:8]}"
    database_url = await ensure_database(servers.database_url, name)
    await migrate(database_url, extra=[match_service.MIGRATIONS])
    return servers, name, database_url


async def drop_database(servers: Any, name: str) -> None:
    """Drop the benchmark's database and stop the servers it started."""
    import asyncpg

    conn = await asyncpg.connect(with_database(servers.database_url, "postgres"))
    await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await conn.close()
    servers.stop()


def spawn(
    database_url: str,
    nats_url: str,
    port: int,
    extra_env: dict[str, str] | None = None,
    prefix: list[str] | None = None,
) -> subprocess.Popen[bytes]:
    """`tablehall serve match`; `prefix`: interpreter options before it (e.g. `-m cProfile`)."""
    env = {
        **os.environ,
        "TABLEHALL_DATABASE_URL": database_url,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_TOKEN_SECRET": SECRET,
        "TABLEHALL_SERVICE_SECRET": SERVICE_SECRET,
        "PYTHONPATH": str(ROOT / "tests"),
        "TABLEHALL_METRICS_PORT": "0",
        "TABLEHALL_LOG_LEVEL": "warning",
        # two users (p0, p1) stand in for every player of every table: their streams are
        # many more than one person's limit (docs/security.md, «Limits»)
        "TABLEHALL_MAX_STREAMS_PER_USER": "100000",
        **(extra_env or {}),
    }
    return subprocess.Popen(
        [sys.executable, *(prefix or []), "-m", "tablehall_cli.main", "serve", "match", "--port", str(port)],
        env=env,
        cwd=ROOT,
    )


async def wait_ready(address: str) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = match_pb2_grpc.MatchServiceStub(channel)
        for _ in range(300):
            try:
                await stub.GetTableView(match_pb2.GetTableViewRequest(table="tables/probe"), metadata=tokens("x"))
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.NOT_FOUND:
                    return
            await asyncio.sleep(0.1)
    raise TimeoutError("match service did not start")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--tables", default="1,100,1000")
    parser.add_argument("--rate", type=float, default=3000.0, help="open-loop offered load at 100 tables")
    args = parser.parse_args()
    servers, name, database_url = await bench_database()
    port = free_port()
    address = f"127.0.0.1:{port}"
    proc = spawn(database_url, servers.nats_url, port)
    try:
        await wait_ready(address)
        print(
            f"match service pid {proc.pid} at {address}; PostgreSQL {servers.how['postgres']}; {os.cpu_count()} cores"
        )
        print("\nsubmit-to-commit through gRPC, closed loop (one command in flight per table):")
        print(
            "  unary: one SubmitCommand call per command; stream: one SubmitCommands stream per (table, seat),"
            f" at most {MAX_STREAM_GROUPS * 2} streams (past {MAX_STREAM_GROUPS} tables a stream serves several)"
        )
        print(f"{'tables':>7} {'transport':>9} {'cmd/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        for n in (int(x) for x in args.tables.split(",")):
            for transport in TRANSPORTS:
                r = await throughput(address, n, args.seconds, transport=transport)
                print(f"{n:>7} {transport:>9} {r['cps']:>9.0f} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f}", flush=True)
        for rate in (args.rate, args.rate / 2):
            print(f"\nopen loop: 100 tables offered {rate:.0f} cmd/s together")
            for transport in TRANSPORTS:
                r = await throughput(address, 100, args.seconds, rate=rate, transport=transport)
                met = r["cps"] >= TARGETS["throughput_100"] * 0.99 and r["p99_ms"] < TARGETS["p99_100_ms"]
                verdict = ("target met" if met else "target missed") if rate >= TARGETS["throughput_100"] else ""
                print(
                    f"{transport:>9}: achieved {r['cps']:.0f} cmd/s, p50 {r['p50_ms']:.1f} ms, "
                    f"p99 {r['p99_ms']:.1f} ms {verdict}",
                    flush=True,
                )
        print(
            f"(target: >= {TARGETS['throughput_100']:.0f} cmd/s at 100 tables with p99 < "
            f"{TARGETS['p99_100_ms']:.0f} ms; an open loop counts as meeting the rate within 1%)"
        )
        mem = await memory(address, proc.pid)
        print(
            f"\nmemory: {mem['tables']} more active tables grew RSS by {mem['growth_mb']:.1f} MB "
            f"({mem['rss_before_mb']:.0f} -> {mem['rss_after_mb']:.0f} MB); "
            f"target: 1,000 tables under {TARGETS['memory_1000_mb']:.0f} MB"
        )
    finally:
        proc.terminate()
        proc.wait()
    rep = await replay(database_url)
    print(
        f"\nreplay: {rep['events']} events rebuilt in {rep['seconds'] * 1000:.0f} ms = {rep['eps']:,.0f} events/s "
        f"(target >= {TARGETS['replay_eps']:,.0f})"
    )
    await drop_database(servers, name)


if __name__ == "__main__":
    # the load generator runs on uvloop too: it shares the two cores with the service
    uvloop.run(main())
