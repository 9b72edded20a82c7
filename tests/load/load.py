"""Load harness (`make load`; not part of `make test`): the figures of issue 19, «Load and speed».

Prints progress and the figures as it goes and stops within `--budget` seconds (a scenario that
would not fit is skipped, and says so). `LOAD_QUICK=1` (or `--quick`) is the reviewer's run: a
few minutes, fewer table counts, shorter windows.

1. The comparison with boardgame.io (../shared/peers/boardgameio, its own run.sh), back to back in
   one run: boardgame.io in memory and on disk (FlatFile) at 100 matches, then Tablehall's match
   service (durable: every command committed before its answer) at 100 tables through the
   command stream (SubmitCommands) and one unary SubmitCommand call per command. The ratios are
   the figures that count on a shared machine. `--match-processes` (default 1,2) measures
   Tablehall on one match process and on two behind one address (TABLEHALL_SHARED_ADDRESS:
   SO_REUSEPORT spreads the client connections, each table's lease is with the process its
   connection reached).
   Then the floor: a bare grpc.aio echo server and the same client (tests/load/grpc_floor.py), what
   no Python gRPC transport can pass on these cores.
2. Replay: events per second rebuilding a 10,000-event table (bench_match.replay), and each game's
   longest of 3 random matches with its evolve alone (tests/bench/bench_replay.py).
3. The test game (a dice race) on one match service: maximum sustained commands per second,
   closed loop (one command in flight per table), p50/p99, at 1, 100, 1,000 and 5,000 tables,
   each transport; CPU of the match service, of its PostgreSQL backends and of the load client
   (µs per command), RSS per 1,000 tables.
4. Match instances on one machine (1, 2, 4 `tablehall serve match` processes on one database,
   the tables spread over them, one client process per instance): total commands/s and where
   the CPU goes, which says what limits it.
5. Every game through every service (`tablehall up`: lobby, match, timer, bot, projection,
   publisher), Пузиполия, Гомункул (and 2-on-2), Драконы and Магнаты (`--games`): N tables of easy
   bots opened through the lobby (all set up, then all started), one spectator per table watching
   through the projection's WatchTable (a table that ends is followed by a new one, opened and
   watched by its spectator), and on the first `--humans` tables a scripted person in
   seat 0 who follows its own live view and plays from its full view (GetTableView's legal
   moves); moves per second, the share of the bots' decisions the bots made (not the timer's
   defaults), latency from the match deciding a move to the spectator receiving it (p50/p99), CPU
   per move of tablehall up, its PostgreSQL backends and NATS, RSS per 1,000 tables.
   `--profile` samples tablehall up with py-spy during the window and says where a move's CPU
   goes (tests/load/profiler.py: bot decision, match decide/evolve/view/legal, projection views
   and journal, timer, publisher, gRPC, PostgreSQL and NATS clients).

The clients are tests/bench/bench_match.py's (start_tables, drive, Streams) and
tests/support/serverkit.py's `tablehall up`; boardgame.io's is its own load.js.
Every figure is measured while other work may share the machine: the machine's load average and
the CPU others used during each window are printed beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import itertools
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from support.serverkit import ServerProcesses

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "bench"))
os.environ.setdefault("TABLEHALL_EXTRA_GAMES", "testgame=testgame.game:GAME")

import asyncpg  # noqa: E402
import bench_match as bm  # noqa: E402
import grpc  # noqa: E402
import grpc_floor  # noqa: E402
import profiler  # noqa: E402
import uvloop  # noqa: E402

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc  # noqa: E402
from tablehall.match.v1 import match_pb2, match_pb2_grpc  # noqa: E402
from tablehall.projection.v1 import projection_pb2, projection_pb2_grpc  # noqa: E402
from tablehall_eventstore import migrate  # noqa: E402
from tablehall_match import service as match_service  # noqa: E402
from tablehall_platform.errors import error_info  # noqa: E402
from tablehall_platform.infra import Servers, ensure_database, find_servers, free_port, with_database  # noqa: E402
from tablehall_stream.names import BOT_SERVICE as BOT_ACTOR  # noqa: E402
from tablehall_stream.names import ENDED  # noqa: E402

# the peer beside the checkout (../shared/peers/boardgameio), or where LOAD_BGIO_DIR says (a clone elsewhere)
PEER = Path(os.environ.get("LOAD_BGIO_DIR") or ROOT.parent / "shared" / "peers" / "boardgameio")
CLK = os.sysconf("SC_CLK_TCK")
PACE_S = 2.0  # a brisk player's pace, for CPU per 1,000 tables
JOIN_WAIT_S = 120.0  # at most this long for every spectator's snapshot before a window
# From this many tables on, the window waits `--settle` seconds more by default: every table
# starts with a decision at every seat (20,000 of Пузиполия's order rolls at 5,000 tables), more
# than the server decides in their clocks' time; the window then measures the tables playing on,
# and the bots' share of that start is printed apart
SETTLE_FROM_TABLES = 5000
SETTLE_S = 90.0
TARGETS = {"vs_memory": 1.5, "p99_vs_memory": 0.5, "vs_disk": 5.0, "replay_eps": 100_000.0}


# ---- measuring ------------------------------------------------------------------------------


def machine_busy() -> float:
    """CPU seconds all cores spent busy since boot."""
    a, b, c, _idle, _iowait, f, g, h = (int(x) for x in Path("/proc/stat").read_text().split()[1:9])
    return (a + b + c + f + g + h) / CLK


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def backends(database_url: str, name: str) -> list[int]:
    """PostgreSQL backend pids serving database `name` (other sessions' are not ours)."""
    conn = await asyncpg.connect(with_database(database_url, "postgres"))
    try:
        rows = await conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", name)
    finally:
        await conn.close()
    return [int(r[0]) for r in rows]


@dataclass
class Cpu:
    """CPU seconds of the service processes, their PostgreSQL backends, this client, the machine."""

    services: list[int]
    database_url: str
    db_name: str
    clients: list[int] = field(default_factory=list)  # client subprocesses (instance scaling)
    nats: list[int] = field(default_factory=list)  # nats-server processes (part 5)
    start: dict[str, float] = field(default_factory=dict)
    pg_pids: list[int] = field(default_factory=list)

    async def _sample(self) -> dict[str, float]:
        self.pg_pids = sorted(set(self.pg_pids) | set(await backends(self.database_url, self.db_name)))
        own = os.times()
        return {
            "service": sum(bm.proc_cpu(p) for p in self.services),
            "postgres": sum(bm.proc_cpu(p) for p in self.pg_pids),
            "client": own.user + own.system + sum(bm.proc_cpu(p) for p in self.clients),
            "nats": sum(bm.proc_cpu(p) for p in self.nats),
            "machine": machine_busy(),
            "wall": time.perf_counter(),
        }

    async def begin(self) -> None:
        self.start = await self._sample()

    async def end(self) -> dict[str, float]:
        """Cores used by each part since begin(), and 'others': the rest of the machine."""
        now = await self._sample()
        wall = now["wall"] - self.start["wall"]
        used = {k: (now[k] - self.start[k]) / wall for k in ("service", "postgres", "client", "nats", "machine")}
        ours = used["service"] + used["postgres"] + used["client"] + used["nats"]
        used["others"] = max(0.0, used["machine"] - ours)
        used["wall"] = wall
        return used


def rss_mb(pid: int) -> float:
    return bm.rss_mb(pid)


def cpu_line(cpu: dict[str, float], per_second: float) -> str:
    def us(part: str) -> str:
        return f"{cpu[part] / per_second * 1e6:.0f}" if per_second else "-"

    nats = cpu.get("nats", 0.0)
    return (
        f"cores: service {cpu['service']:.2f}, postgres {cpu['postgres']:.2f}, client {cpu['client']:.2f}, "
        + (f"nats {nats:.2f}, " if nats else "")
        + f"others {cpu['others']:.2f}; µs/command: service {us('service')}, postgres {us('postgres')}, "
        f"client {us('client')}" + (f", nats {us('nats')}" if nats else "")
    )


# ---- the budget ---------------------------------------------------------------------------


class Budget:
    def __init__(self, seconds: float) -> None:
        self.until = time.monotonic() + seconds

    def left(self) -> float:
        return self.until - time.monotonic()

    def allows(self, seconds: float, what: str) -> bool:
        if self.left() >= seconds:
            return True
        print(f"  skipped {what}: needs ~{seconds:.0f} s, {max(0.0, self.left()):.0f} s of the budget left", flush=True)
        return False


def say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} load {load_average()}] {text}", flush=True)


# ---- the match service (test game) ----------------------------------------------------------


@dataclass
class Match:
    servers: Servers
    database_url: str
    db_name: str
    procs: list[subprocess.Popen[bytes]]
    addresses: list[str]
    # where the clients connect: the first instance's own address, or the address all share
    client_address: str = ""
    connections: int = 1  # client connections per transport (spread over the shared address)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]


async def new_database(servers: Servers, prefix: str) -> tuple[str, str]:
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    url = await ensure_database(servers.database_url, name)
    await migrate(url, extra=[match_service.MIGRATIONS])
    return url, name


async def drop_database(servers: Servers, name: str) -> None:
    conn = await asyncpg.connect(with_database(servers.database_url, "postgres"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def start_match(servers: Servers, instances: int = 1, shared: bool = False) -> Match:
    """`instances` match services on one database; `shared`: all of them also behind one address
    (TABLEHALL_SHARED_ADDRESS, SO_REUSEPORT), which the clients use over 16 connections per process."""
    url, name = await new_database(servers, "tablehall_load")
    procs, addresses = [], []
    shared_address = f"127.0.0.1:{free_port()}" if shared else ""
    extra = {"TABLEHALL_SHARED_ADDRESS": shared_address} if shared else None
    for _ in range(instances):
        port = free_port()
        procs.append(bm.spawn(url, servers.nats_url, port, extra))
        addresses.append(f"127.0.0.1:{port}")
    match = Match(servers, url, name, procs, addresses, shared_address or addresses[0], 16 * instances if shared else 1)
    try:
        for address in addresses:
            await ready(address)
    except BaseException:
        await stop_match(match)  # never leave a service behind
        raise
    return match


async def ready(address: str, tries: int = 6) -> None:
    """bench_match.wait_ready, given longer: on a busy machine a start can take a minute."""
    for attempt in range(tries):
        try:
            await bm.wait_ready(address)
            return
        except TimeoutError:
            if attempt == tries - 1:
                raise


async def stop_match(match: Match) -> None:
    await bm.close_kept(match.client_address)
    for proc in match.procs:
        proc.terminate()
    for proc in match.procs:
        await asyncio.to_thread(proc.wait)
    await drop_database(match.servers, match.db_name)


@dataclass
class Figures:
    tables: int
    transport: str
    cps: float
    p50_ms: float
    p99_ms: float
    cpu: dict[str, float]


async def closed_loop(match: Match, tables: list[str], seconds: float, transport: str, warmup: float = 2.0) -> Figures:
    """bench_match.drive on tables already started: warm-up, then the measured window."""
    address = match.client_address
    conns = match.connections
    async with grpc.aio.insecure_channel(address) as channel:
        stub = match_pb2_grpc.MatchServiceStub(channel)
        # the streams the warm-up opens carry the measured window too (a player holds its stream)
        streams = bm.open_streams(address, tables, conns) if transport == "stream" else None
        try:
            await bm.drive(address, stub, tables, warmup, transport=transport, connections=conns, streams=streams)
            cpu = Cpu(match.pids, match.database_url, match.db_name)
            gc.collect()
            gc.disable()  # the client's collector must not stall the measured calls
            try:
                await cpu.begin()
                began = time.perf_counter()
                count, latencies = await bm.drive(
                    address, stub, tables, seconds, transport=transport, connections=conns, streams=streams
                )
                elapsed = time.perf_counter() - began
                used = await cpu.end()
            finally:
                gc.enable()
        finally:
            if streams is not None:
                await streams.close()
    return Figures(
        len(tables),
        transport,
        count / elapsed,
        bm.percentile(latencies, 0.5) * 1000,
        bm.percentile(latencies, 0.99) * 1000,
        used,
    )


def figures_line(f: Figures) -> str:
    return (
        f"{f.tables:>6} {f.transport:>7} {f.cps:>8.0f} cmd/s  p50 {f.p50_ms:6.1f} ms  p99 {f.p99_ms:6.1f} ms  "
        + cpu_line(f.cpu, f.cps)
    )


async def started_tables(match: Match, n: int) -> list[str]:
    async with grpc.aio.insecure_channel(match.addresses[0]) as channel:
        return await bm.start_tables(match_pb2_grpc.MatchServiceStub(channel), n)


# ---- boardgame.io ---------------------------------------------------------------------------


def run_bgio(storage: str, matches: int, seconds: float, out: Path) -> dict[str, Any] | None:
    """One run of the peer's run.sh (its own server and load.js); its JSON result or None."""
    env = {
        **os.environ,
        "STORAGES": storage,
        "NS": str(matches),
        "DURATION": str(int(seconds)),
        "WARMUP": "3",
        "EXTRA_BGIO": "0",
        "EXTRA_ENDLESS": "0",
        "PROBE": "0",
        "OUT": str(out),
        # run.sh waits up to 900 s for an idle machine; a shared machine is never idle, so the
        # figures are measured back to back with Tablehall's instead, and others' load printed
        "QUIET_WAIT": os.environ.get("LOAD_BGIO_QUIET_WAIT", "0"),
        "PORT": str(free_port()),
    }
    done = subprocess.run(["bash", str(PEER / "run.sh")], env=env, capture_output=True, text=True, timeout=600)
    result = out / f"{storage}-n{matches}-raw.json"
    if done.returncode != 0 or not result.exists():
        print(f"  boardgame.io {storage} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        return None
    data: dict[str, Any] = json.loads(result.read_text())
    return data


def bgio_line(label: str, d: dict[str, Any]) -> str:
    r, s = d["result"], d["server"]
    return (
        f"{label:<30} {r['moves_per_s']:>7.0f} moves/s  p50 {r['latency_ms']['p50']:6.1f} ms  "
        f"p99 {r['latency_ms']['p99']:6.1f} ms  server {s['cpu_util']:.2f} cores ({s['cpu_us_per_move']:.0f} µs/move), "
        f"client {d['client_cpu_util']:.2f}, others {d['foreign_cpu_cores']:.2f} cores; errors {r['errors']}"
    )


async def compare(servers: Servers, seconds: float, budget: Budget, processes: list[int]) -> None:
    print("\n== 1. boardgame.io vs Tablehall, back to back, 100 matches/tables, closed loop ==", flush=True)
    print(
        "  boardgame.io 0.50 (peers/boardgameio: 4-seat dice race, raw socket.io client); Tablehall: the"
        " test game's dice race on one match service, every command durably committed before its answer"
    )
    if not (PEER / "run.sh").exists():
        print(f"  skipped: {PEER} is not there (LOAD_BGIO_DIR=PATH names the peer's folder)")
        return
    out = Path(tempfile.mkdtemp(prefix="load-bgio-"))
    peer: dict[str, dict[str, Any]] = {}
    for storage in ("memory", "flatfile"):
        if not budget.allows(seconds + 25, f"boardgame.io {storage}"):
            return
        say(f"boardgame.io {storage}: 100 matches for {seconds:.0f} s")
        d = run_bgio(storage, 100, seconds, out)
        if d is not None:
            peer[storage] = d
            print("  " + bgio_line(f"boardgame.io {'in memory' if storage == 'memory' else 'on disk (FlatFile)'}", d))
    ours: dict[str, Figures] = {}
    for k in processes:
        if not budget.allows(2 * seconds + 30, f"Tablehall at 100 tables on {k} match process(es)"):
            break
        # k > 1: k match processes behind one address (TABLEHALL_SHARED_ADDRESS), each table's
        # lease with the process its connection reached
        match = await start_match(servers, k, shared=k > 1)
        try:
            tables = await started_tables(match, 100)
            for transport in ("stream", "unary"):
                label = transport if k == 1 else f"{transport} x{k}"
                say(f"Tablehall {label}: 100 tables for {seconds:.0f} s")
                ours[label] = await closed_loop(match, tables, seconds, transport)
                print(f"  Tablehall {figures_line(ours[label])}" + (f" ({k} match processes)" if k > 1 else ""))
        finally:
            await stop_match(match)
    floors: list[grpc_floor.Floor] = []
    if budget.allows(2 * seconds + 15, "the grpc.aio floor"):
        say(f"grpc.aio floor: a bare echo server, 100 callers for {seconds:.0f} s each transport")
        floors = await grpc_floor.measure(seconds)
        for floor in floors:
            print("  " + grpc_floor.floor_line(floor) + " (no Tablehall code: the most any transport can reach)")
    if "memory" not in peer or "flatfile" not in peer:
        return
    mem, disk = peer["memory"]["result"], peer["flatfile"]["result"]
    for floor in floors:
        print(
            f"  the floor's {floor.transport}: {floor.calls_per_s / mem['moves_per_s']:.2f}x boardgame.io in memory,"
            f" p99 {floor.p99_ms / mem['latency_ms']['p99']:.2f}x of its"
        )
    print("  ratios (Tablehall / boardgame.io), targets: >= 1.5x in memory with p99 <= 0.5x, >= 5x on disk:")
    for transport, f in ours.items():
        vs_mem = f.cps / mem["moves_per_s"]
        p99_ratio = f.p99_ms / mem["latency_ms"]["p99"]
        vs_disk = f.cps / disk["moves_per_s"]
        met = vs_mem >= TARGETS["vs_memory"] and p99_ratio <= TARGETS["p99_vs_memory"] and vs_disk >= TARGETS["vs_disk"]
        print(
            f"  {transport:>9}: {vs_mem:.2f}x in memory, p99 {p99_ratio:.2f}x of its; {vs_disk:.2f}x on disk"
            f" -> {'targets met' if met else 'targets missed'}"
        )
    # closed loop on one machine: the rate is at most the cores over the CPU every part spends per command
    target_rate = TARGETS["vs_memory"] * mem["moves_per_s"]
    budget_us = (os.cpu_count() or 1) / target_rate * 1e6
    spent = {t: sum(f.cpu[k] for k in ("service", "postgres", "client")) / f.cps * 1e6 for t, f in ours.items()}
    spent.update({f"floor {fl.transport}": fl.server_us + fl.client_us for fl in floors})
    print(
        f"  CPU budget at the target rate ({target_rate:,.0f}/s on {os.cpu_count()} cores): {budget_us:.0f} µs per"
        " command for client, service and PostgreSQL together; spent: "
        + ", ".join(f"{t} {us:.0f}" for t, us in spent.items())
    )


# ---- replay ---------------------------------------------------------------------------------


async def replay(servers: Servers, games: list[str]) -> None:
    import bench_replay

    print("\n== 2. replay ==", flush=True)
    url, name = await new_database(servers, "tablehall_load_replay")
    try:
        r = await bm.replay(url)
        print(
            f"  dice race {r['events']:,.0f} events rebuilt in {r['seconds'] * 1000:.0f} ms = {r['eps']:,.0f} events/s"
            f" (target >= {TARGETS['replay_eps']:,.0f}: {'met' if r['eps'] >= TARGETS['replay_eps'] else 'missed'});"
            f" {r['eps_cpu']:,.0f} events per CPU second of the rebuilding process (the read's PostgreSQL time apart)",
            flush=True,
        )
        say("replay: every game's longest of 3 random matches")
        for g in await bench_replay.measure(url, sorted({GAME_LOADS[k].game for k in games}), seeds=3):
            print(bench_replay.line(g, TARGETS["replay_eps"]), flush=True)
    finally:
        await drop_database(servers, name)


# ---- the test game at 1..5,000 tables ---------------------------------------------------------


async def scaling(servers: Servers, counts: list[int], seconds: float, budget: Budget) -> None:
    print("\n== 3. the test game on one match service, closed loop, by tables ==", flush=True)
    match = await start_match(servers)
    pid = match.pids[0]
    try:
        for n in counts:
            if not budget.allows(2 * seconds + 10 + n / 150, f"{n} tables"):
                continue
            say(f"{n} tables: starting them")
            before = rss_mb(pid)
            tables = await started_tables(match, n)
            rows = []
            for transport in ("stream", "unary"):
                rows.append(await closed_loop(match, tables, seconds, transport))
                print("  " + figures_line(rows[-1]), flush=True)
            grown = rss_mb(pid) - before
            per_command = min((r.cpu["service"] + r.cpu["postgres"]) / r.cps for r in rows if r.cps)
            memory = f" = {grown / n * 1000:.0f} MB per 1,000 tables" if n >= 100 else ""
            print(
                f"  {n} tables: match service RSS {rss_mb(pid):.0f} MB, {grown:+.0f} MB for these tables{memory};"
                f" 1,000 tables at one move each every {PACE_S:.0f} s would take"
                f" {1000 / PACE_S * per_command:.2f} cores (service + PostgreSQL, at this window's CPU per command)",
                flush=True,
            )
    finally:
        await stop_match(match)


# ---- match instances ------------------------------------------------------------------------


def _client_worker(args: tuple[str, list[str], float, str, Any, Any]) -> tuple[int, list[float], float, float]:
    """A client process driving its instance's tables (the load generator must not be the limit):
    warm-up, say so on `ready`, wait for `go` (every client is warm), then the measured window."""
    address, tables, seconds, transport, ready, go = args

    async def run() -> tuple[int, list[float], float, float]:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = match_pb2_grpc.MatchServiceStub(channel)
            streams = bm.open_streams(address, tables) if transport == "stream" else None
            await bm.drive(address, stub, tables, 2.0, transport=transport, streams=streams)
            ready.put(os.getpid())
            await asyncio.to_thread(go.wait, 600)  # every worker measures the same window
            gc.collect()
            gc.disable()
            began, wall = time.perf_counter(), time.time()
            count, latencies = await bm.drive(address, stub, tables, seconds, transport=transport, streams=streams)
            elapsed = time.perf_counter() - began
            if streams is not None:
                await streams.close()
            return count, latencies, elapsed, wall

    return uvloop.run(run())


async def instances(servers: Servers, counts: list[int], n_tables: int, seconds: float, budget: Budget) -> None:
    print(f"\n== 4. match instances on this machine: {n_tables} tables spread over them, stream ==", flush=True)
    base = 0.0
    for k in counts:
        if not budget.allows(seconds + 25 + 3 * k, f"{k} instances"):
            continue
        say(f"{k} match instances")
        match = await start_match(servers, k)
        try:
            per: list[list[str]] = []
            for address in match.addresses:
                async with grpc.aio.insecure_channel(address) as channel:
                    per.append(await bm.start_tables(match_pb2_grpc.MatchServiceStub(channel), n_tables // k))
            ctx = multiprocessing.get_context("spawn")
            with ctx.Manager() as manager, ctx.Pool(k) as pool:
                ready, go = manager.Queue(), manager.Event()
                pending = pool.map_async(
                    _client_worker,
                    [(a, t, seconds, "stream", ready, go) for a, t in zip(match.addresses, per, strict=True)],
                )
                workers = [c.pid for c in pool._pool]  # type: ignore[attr-defined]
                for _ in range(k):  # every client started and warm
                    await asyncio.to_thread(ready.get, True, 300)
                cpu = Cpu(match.pids, match.database_url, match.db_name, clients=workers)
                go.set()
                start_at = time.time()
                await cpu.begin()
                await asyncio.sleep(seconds)  # the workers' window, not the hand-back of their figures
                used = await cpu.end()
                results = await asyncio.to_thread(pending.get, seconds + 120)
        finally:
            await stop_match(match)
        late = max(w for *_, w in results) - start_at
        if late > 0.5:
            print(f"    (a client began {late:.1f} s after the others: the CPU split is approximate)")
        cps = sum(c / e for c, _, e, _ in results)
        latencies = [x for _, lat, _, _ in results for x in lat]
        base = base or cps
        print(
            f"  {k} instance(s): {cps:>6.0f} cmd/s ({cps / base:.2f}x of one)  p50 {bm.percentile(latencies, 0.5) * 1000:.1f} ms"
            f"  p99 {bm.percentile(latencies, 0.99) * 1000:.1f} ms  " + cpu_line(used, cps),
            flush=True,
        )
        print(
            f"    machine busy {used['machine']:.2f} of {os.cpu_count()} cores"
            f" ({'CPU-bound: the cores are full' if used['machine'] > 0.9 * (os.cpu_count() or 1) else 'cores left over'})"
        )


# ---- every game through every service --------------------------------------------------------


@dataclass(frozen=True)
class GameLoad:
    """One game's tables in part 5: every seat a bot but the scripted human seats."""

    label: str
    game: str
    seats: int
    options: dict[str, Any]


GAME_LOADS = {
    "puzzipolia": GameLoad("Пузиполия", "puzzipolia", 4, {"round_limit": 0}),
    "homunculus": GameLoad("Гомункул", "homunculus", 4, {}),
    "homunculus-teams": GameLoad("Гомункул 2-on-2", "homunculus", 4, {"teams": True}),
    "dragons": GameLoad("Драконы", "dragons", 2, {}),
    "magnates": GameLoad("Магнаты", "magnates", 4, {"round_limit": 0}),
}
# commands a scripted person never sends (it plays on, as the load's bots do)
QUITTING = {"leave", "surrender", "propose_end", "resign", "concede"}


# Part 5's layouts: `up`, every service in one `tablehall up` process (one event loop: at most
# about one core); `split`, each service in a `tablehall serve SERVICE` process of its own, as a
# deployment runs them (docker-compose.yml, deploy/)
LAYOUTS = ("up", "split")


async def every_game(
    servers: Servers,
    games: list[str],
    counts: list[int],
    seconds: float,
    budget: Budget,
    humans: int,
    profile: bool,
    layouts: list[str],
    settle: float | None = None,
) -> None:
    from support.serverkit import start_split, start_up

    print(
        "\n== 5. Every game through every service: easy bots, 1 spectator a table,"
        f" {humans} scripted human seats on full views; layouts {', '.join(layouts)} ==",
        flush=True,
    )
    for key in games:
        load = GAME_LOADS[key]
        for layout in layouts:
            for n in counts:
                # opening measured at 51 tables/s set up and 37 started per second at 5,000 tables on a
                # busy machine (232 s); n / 15 leaves room, and 50 s the start and the stop
                settling = settle if settle is not None else (SETTLE_S if n >= SETTLE_FROM_TABLES else 0.0)
                if not budget.allows(seconds + settling + 50 + n / 15, f"{load.label} at {n} tables ({layout})"):
                    continue
                db_name = f"tablehall_load_up_{uuid.uuid4().hex[:8]}"
                # the spectators and the people's live views are streams of one method on the
                # projection: an operator expecting more than its 5,000 raises the limit, as here
                streams = str(max(5000, n + humans + 100))
                env = {
                    "TABLEHALL_DB_NAME": db_name,
                    "TABLEHALL_MAX_STREAMS_PER_USER": "100000",
                    "TABLEHALL_MAX_STREAMS_PER_METHOD": streams,
                }
                # the collectors' time is read from /metrics
                up: ServerProcesses = (
                    start_up({**env, "TABLEHALL_METRICS_PORT": str(free_port())})
                    if layout == "up"
                    else await asyncio.to_thread(start_split, env, True)
                )
                try:
                    await _wait_up(up)
                    idle_rss = rss_total(up)  # before any table: what the tables add is measured from here
                    url = with_database(servers.database_url, db_name)
                    say(f"{load.label}: opening {n} tables through the lobby ({_layout_name(up)})")
                    began = time.perf_counter()
                    tables = await _open_tables(up, load, n, min(humans, n))
                    print(f"  {n} tables opened in {time.perf_counter() - began:.1f} s", flush=True)
                    await _watch_and_measure(
                        up, load, url, db_name, tables, min(humans, n), seconds, profile, idle_rss, settling
                    )
                finally:
                    try:
                        await up.stop()
                    except subprocess.TimeoutExpired:  # draining thousands of tables can outlast its wait
                        await up.kill()  # closes its log and deletes its bot consumer too
                    await drop_database(servers, db_name)


def _bots_share(bots: int, timer: int) -> float:
    """The share of the bots' decisions the bots made (not the timer's defaults)."""
    return bots / (bots + timer) if bots + timer else 0.0


def _layout_name(up: ServerProcesses) -> str:
    return "tablehall up" if len(up.pids) == 1 else "a process a service"


def rss_total(up: ServerProcesses) -> float:
    return sum(rss_mb(pid) for pid in up.pids.values())


async def _wait_up(up: ServerProcesses) -> None:
    from support.upkit import wait_serving

    # a busy machine's slow start: up to 720 s, as long as the processes live
    for service in ("lobby", "projection", "timer", "bot"):
        grpc_service = f"tablehall.{service}.v1.{service.capitalize()}Service"
        address = up.address_of(service)
        if not await asyncio.to_thread(wait_serving, address, grpc_service, 720, lambda: up.alive):
            raise TimeoutError(f"{_layout_name(up)}: the {service} service did not start")


# Lobby calls in flight while opening tables. Opening is two passes: every table is set up
# (create, seats, bots) before any starts, so the set-up does not share the CPU with the tables
# already playing (one pass took 241 s for 1,000 tables, the later tables' calls waiting behind
# the first tables' bots), then every table is started.
OPEN_CONCURRENCY = 64


def _host(i: int) -> str:
    return f"host{i}"


async def _set_up_table(
    lobby: lobby_pb2_grpc.LobbyServiceStub, up: ServerProcesses, load: GameLoad, i: int, person: bool
) -> str:
    """Table `i` of `load.game`, set up and not started: every seat a bot's but seat 0 where `person`."""
    host = up.player(_host(i))
    created = await lobby.CreateTable(
        lobby_pb2.CreateTableRequest(
            game=load.game, options_json=json.dumps(load.options), seat_count=load.seats, request_id=f"c{i}"
        ),
        metadata=host,
    )
    name = str(created.table.name)
    if not person:
        await lobby.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=name, request_id=f"l{i}"), metadata=host)
    for seat in range(1 if person else 0, load.seats):
        await lobby.AddBot(
            lobby_pb2.AddBotRequest(
                table=name, seat=seat, difficulty=lobby_pb2.BOT_DIFFICULTY_EASY, request_id=f"b{i}-{seat}"
            ),
            metadata=host,
        )
    return name


async def _start_table(lobby: lobby_pb2_grpc.LobbyServiceStub, up: ServerProcesses, i: int, name: str) -> None:
    await lobby.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=f"s{i}"), metadata=up.player(_host(i)))


async def _open_tables(up: ServerProcesses, load: GameLoad, n: int, humans: int) -> list[str]:
    """`n` tables of `load.game`; on the first `humans` tables the host keeps seat 0 and plays it."""
    async with grpc.aio.insecure_channel(up.address_of("lobby")) as channel:
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        sem = asyncio.Semaphore(OPEN_CONCURRENCY)

        async def set_up(i: int) -> str:
            async with sem:
                return await _set_up_table(lobby, up, load, i, i < humans)

        async def start(i: int, name: str) -> None:
            async with sem:
                await _start_table(lobby, up, i, name)

        began = time.perf_counter()
        names = list(await asyncio.gather(*(set_up(i) for i in range(n))))
        set_up_s = time.perf_counter() - began
        await asyncio.gather(*(start(i, name) for i, name in enumerate(names)))
        print(
            f"  set up {n} tables ({load.seats} seats, {humans} with a person in seat 0) in {set_up_s:.1f} s"
            f" = {n / set_up_s:.0f} tables/s, started them in {time.perf_counter() - began - set_up_s:.1f} s",
            flush=True,
        )
        return names


async def _play_as_person(up: ServerProcesses, table: str, user: str, seed: int) -> int:
    """A scripted person in seat 0: follows its own live view and, when a decision is its own, asks
    for the full view (its legal moves) and plays one of them at random, never quitting."""
    import random

    from tablehall_sdk import Client, TablehallError

    rng = random.Random(seed)
    played = 0
    token = up.people.issue(user)
    # the live view from the projection, the full view and the commands from the match
    async with Client(up.address_of("projection"), token) as watching, Client(up.address_of("match"), token) as client:
        async for update in watching.watch(table):
            if update.finished:
                break
            if 0 not in {d.seat for d in update.decisions}:
                continue
            view = await client.view(table)
            staying = [c for c in view.legal if c.kind not in QUITTING]
            if not staying:
                continue
            try:
                await client.submit(table, 0, rng.choice(staying))
                played += 1
            except TablehallError:
                continue  # the table moved on between the view and the command (a clock, a reaction)
    return played


@dataclass
class GcReading:
    """What the processes behind some /metrics ports' collectors did so far (`tablehall_gc_pause_seconds`)."""

    spent: list[float]  # seconds in the collector, by generation collected
    pauses: float  # collections
    at_most: dict[float, float]  # collections that paused at most so many seconds (the buckets)
    cpu: float = 0.0  # CPU seconds the collecting threads spent in it (tablehall_gc_cpu_seconds_total)

    def since(self, before: GcReading) -> tuple[list[float], float | None]:
        """Seconds by generation since `before`, and the longest pause since then: the smallest
        bucket holding every collection since (None: no collection; inf: beyond the last bucket)."""
        spent = [b - a for a, b in zip(before.spent, self.spent, strict=True)]
        pauses = self.pauses - before.pauses
        if not pauses:
            return spent, None
        bound = min(
            (le for le, n in self.at_most.items() if n - before.at_most.get(le, 0.0) >= pauses), default=float("inf")
        )
        return spent, bound


def _collector_in_window(before: GcReading, after: GcReading, moves: int) -> str:
    """One process's collector between two readings, a move: "wall (CPU; middle; collections, the
    longest at most)"."""
    spent, longest = after.since(before)
    return (
        f"{sum(spent) / moves * 1e6:,.0f} ({(after.cpu - before.cpu) / moves * 1e6:,.0f};"
        f" {spent[1] / moves * 1e6:,.0f}; {after.pauses - before.pauses:,.0f}"
        + ("" if longest is None else f", {longest * 1000:,.0f} ms")
        + ")"
    )


def metric_samples(ports: dict[str, int], prefix: str) -> dict[str, list[tuple[str, float]]]:
    """By process, the samples (name with labels, value) whose name starts with `prefix`, of the
    processes behind the `ports`' /metrics (`ServerProcesses.metrics_ports`)."""
    out: dict[str, list[tuple[str, float]]] = {}
    for process, port in ports.items():
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
            text = reply.read().decode()
        out[process] = [
            (name, float(value))
            for line in text.splitlines()
            if line.startswith(prefix)
            for name, value in [line.rsplit(" ", 1)]
        ]
    return out


def every_sample(by_process: dict[str, list[tuple[str, float]]]) -> list[tuple[str, float]]:
    return [sample for samples in by_process.values() for sample in samples]


def gc_reading(samples: list[tuple[str, float]]) -> GcReading:
    """The collectors' pauses so far, from the processes' /metrics `samples`."""
    reading = GcReading([0.0, 0.0, 0.0], 0.0, {})
    for name, value in samples:
        if name.startswith("tablehall_gc_cpu_seconds_total{"):
            reading.cpu += value
        elif name.startswith('tablehall_gc_pause_seconds_sum{generation="'):
            reading.spent[int(name.split('"')[1])] += value
        elif name.startswith("tablehall_gc_pause_seconds_count{"):
            reading.pauses += value
        elif name.startswith("tablehall_gc_pause_seconds_bucket{") and 'le="+Inf"' not in name:
            le = float(name.split('le="')[1].split('"')[0])
            reading.at_most[le] = reading.at_most.get(le, 0.0) + value
    return reading


def bot_backlog(samples: list[tuple[str, float]]) -> tuple[float, float]:
    """The bots' decisions so far whose clock the bot saw had run out (left to the timer), and the
    tables waiting for a bot's slot now, from the processes' /metrics `samples`."""
    late = sum(v for n, v in samples if n.startswith("tablehall_bot_decisions_total{") and 'outcome="late"' in n)
    waiting = sum(v for n, v in samples if n == "tablehall_bot_tables_waiting")
    return late, waiting


def frame_delays(samples: list[tuple[str, float]]) -> dict[str, dict[float, float]]:
    """The projection's live frames so far by stage (rendered, handed to a watcher): how many came
    at most `le` seconds after the match decided their command, from /metrics `samples`."""
    out: dict[str, dict[float, float]] = {}
    for name, value in samples:
        if name.startswith("tablehall_projection_frame_delay_seconds_bucket{"):
            stage = name.split('stage="')[1].split('"')[0]
            le = float(name.split('le="')[1].split('"')[0])  # "+Inf" reads as inf
            bounds = out.setdefault(stage, {})
            bounds[le] = bounds.get(le, 0.0) + value
    return out


def delay_line(before: dict[str, dict[float, float]], after: dict[str, dict[float, float]]) -> str:
    """The window's frame delays by stage: the histogram bounds holding p50 and p99 of them."""
    parts = []
    for stage, bounds in after.items():
        counts = {le: n - before.get(stage, {}).get(le, 0.0) for le, n in bounds.items()}
        total = counts.get(float("inf"), 0.0)
        if not total:
            continue

        def bound(q: float, counts: dict[float, float] = counts, total: float = total) -> str:
            le = min(le for le, n in counts.items() if n >= q * total)
            return "over 5 s" if le == float("inf") else f"{le * 1000:,.0f} ms"

        parts.append(f"{stage} p50 at most {bound(0.5)}, p99 at most {bound(0.99)} ({total:,.0f} frames)")
    return "; ".join(parts)


def nats_pids() -> list[int]:
    """The nats-server processes on this machine (the shared one or an embedded one)."""
    out = subprocess.run(["pgrep", "-x", "nats-server"], capture_output=True, text=True, check=False).stdout
    return [int(p) for p in out.split()]


def _reason(exc: grpc.aio.AioRpcError) -> str:
    """The ErrorInfo reason a server gave (empty when it gave none: the transport's own errors)."""
    info = error_info(exc)
    return info.reason if info is not None else ""


def _counted(counts: Counter[str]) -> str:
    return ", ".join(f"{what} ×{n}" for what, n in counts.most_common())


def _shown_at(received: dict[str, tuple[list[int], list[float]]], stream: str, version: int) -> float | None:
    """When the spectator got the change holding `version` (the first of a command's events): its
    first change at that version or after; None if it got none in the window."""
    versions, times = received.get(stream, ([], []))
    i = bisect.bisect_left(versions, version)
    return times[i] if i < len(versions) else None


async def _watch_and_measure(
    up: ServerProcesses,
    load: GameLoad,
    url: str,
    db_name: str,
    tables: list[str],
    humans: int,
    seconds: float,
    profile: bool,
    idle_rss: float,
    settle: float = 0.0,
) -> None:
    # stream id -> the versions of the spectator's changes (one a command) and the wall ms it got each
    received: dict[str, tuple[list[int], list[float]]] = {}
    all_joined = asyncio.Event()  # every spectator has had its first frame
    joined = 0
    # watch streams the server ended with an error, by status and reason, before / after the first frame
    failed: Counter[str] = Counter()
    channels = [
        grpc.aio.insecure_channel(up.address_of("projection"), options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(4)
    ]

    lobby_channel = grpc.aio.insecure_channel(up.address_of("lobby"))
    lobby = lobby_pb2_grpc.LobbyServiceStub(lobby_channel)
    numbers = itertools.count(len(tables))  # the replacement tables' numbers (request ids, hosts)
    replaced = 0

    async def watch(i: int, table: str) -> None:
        """One spectator: it watches its table and, when that table ends, opens a new one in its
        place and watches that, so `tables` tables play through the window however short a game
        is (one Драконы table ends in seconds)."""
        nonlocal joined, replaced
        stub = projection_pb2_grpc.ProjectionServiceStub(channels[i % len(channels)])
        first = True
        while True:
            call = stub.WatchTable(
                projection_pb2.WatchTableRequest(
                    table=table, role=match_pb2.VIEWER_ROLE_SPECTATOR, grain=projection_pb2.UPDATE_GRAIN_COMMAND
                ),
                metadata=up.player(f"watcher{i}"),
            )
            versions, times = received.setdefault("table-" + table.removeprefix("tables/"), ([], []))
            finished = False
            try:
                async for frame in call:  # every change, also before the window: a move whose own
                    versions.append(frame.version)  # change came just before it is not matched to a later one
                    times.append(time.time() * 1000)
                    if first and len(versions) == 1:
                        joined += 1
                        if joined == len(tables):
                            all_joined.set()
                    if frame.finished:
                        finished = True
                        break
            except grpc.aio.AioRpcError as exc:
                when = "after" if versions else "before"
                failed[f"{exc.code().name} {_reason(exc)} {when} its snapshot"] += 1
                return
            call.cancel()
            if not finished:
                return
            number = next(numbers)
            try:
                table = await _set_up_table(lobby, up, load, number, False)
                await _start_table(lobby, up, number, table)
            except grpc.aio.AioRpcError as exc:
                failed[f"{exc.code().name} {_reason(exc)} opening a table in place of an ended one"] += 1
                return
            replaced += 1
            first = False

    watchers = [asyncio.create_task(watch(i, t)) for i, t in enumerate(tables)]
    people = [asyncio.create_task(_play_as_person(up, t, _host(i), i)) for i, t in enumerate(tables[:humans])]
    # the window starts once every spectator has its snapshot (a table's first changes wait for
    # its feed to be loaded: thousands of watchers joining at once are not what is measured)
    joining = time.monotonic()
    await asyncio.sleep(3.0)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_joined.wait(), JOIN_WAIT_S)
    print(
        f"  {joined} of {len(tables)} spectators had their snapshot after {time.monotonic() - joining:.1f} s",
        flush=True,
    )
    if failed:
        print(f"  watch streams ended by the server so far: {_counted(failed)}", flush=True)
    if settle:
        print(f"  the window starts after {settle:.0f} s more (the tables' first decisions: --settle)", flush=True)
        await asyncio.sleep(settle)
    pids = up.pids
    name = _layout_name(up)
    cpu = Cpu(list(pids.values()), url, db_name, nats=nats_pids())
    conn = await asyncpg.connect(url)
    # each process sampled on its own (in the split layout, each service's)
    samplers = {process: profiler.Sampler(pid) for process, pid in pids.items()} if profile else {}
    try:
        first = int(await conn.fetchval("SELECT coalesce(max(position), 0) FROM events"))
        rss_before = rss_total(up)
        xacts_before = int(
            await conn.fetchval(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
            )
        )
        for sampler in samplers.values():
            sampler.start()
        by_process = await asyncio.to_thread(metric_samples, up.metrics_ports, "tablehall_")
        samples = every_sample(by_process)
        gc_before, (late_before, _) = gc_reading(samples), bot_backlog(samples)
        gc_each_before = {process: gc_reading(some) for process, some in by_process.items()}
        delays_before = frame_delays(samples)
        each_before = {service: bm.proc_cpu(pid) for service, pid in pids.items()}
        await cpu.begin()
        await asyncio.sleep(seconds)
        used = await cpu.end()
        each = {service: bm.proc_cpu(pid) - each_before[service] for service, pid in pids.items()}
        by_process = await asyncio.to_thread(metric_samples, up.metrics_ports, "tablehall_")
        samples = every_sample(by_process)
        gc_spent, gc_longest = gc_reading(samples).since(gc_before)
        gc_each = {process: (gc_each_before[process], gc_reading(some)) for process, some in by_process.items()}
        late_after, waiting = bot_backlog(samples)
        delays = delay_line(delays_before, frame_delays(samples))
        # PostgreSQL's statistics are sent at the end of each transaction: a round figure per move
        xacts = (
            int(
                await conn.fetchval(
                    "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
                )
            )
            - xacts_before
        )
        stacks = {process: await asyncio.to_thread(sampler.stop) for process, sampler in samplers.items()}
        last = int(await conn.fetchval("SELECT coalesce(max(position), 0) FROM events"))
        await asyncio.sleep(2.0)  # frames of the window's last moves still on their way
        rows = await conn.fetch(
            "SELECT stream_id, version, (metadata->>'now_ms')::float8 AS at, metadata->>'actor' AS actor,"
            " coalesce((metadata->>'timeout')::boolean, false) AS timeout"
            " FROM events WHERE position > $1 AND position <= $2 AND metadata ? 'command'",
            first,
            last,
        )
        ended = int(await conn.fetchval("SELECT count(*) FROM events WHERE type = $1", ENDED))
        # after a settling time, every bot decision before the window: the tables' start
        before = (
            await conn.fetchrow(
                "SELECT count(*) FILTER (WHERE timeout) AS timer,"
                " count(*) FILTER (WHERE NOT timeout AND actor = $2) AS bots FROM ("
                "SELECT coalesce((metadata->>'timeout')::boolean, false) AS timeout, metadata->>'actor' AS actor"
                " FROM events WHERE position <= $1 AND metadata ? 'command') AS moves",
                first,
                BOT_ACTOR,
            )
            if settle
            else None
        )
    finally:
        await conn.close()
        for task in [*watchers, *people]:
            task.cancel()
        await asyncio.gather(*watchers, *people, return_exceptions=True)
        for channel in [*channels, lobby_channel]:
            await channel.close()
    moves = len(rows)
    by_timer = sum(1 for r in rows if r["timeout"])
    by_bots = sum(1 for r in rows if not r["timeout"] and r["actor"] == BOT_ACTOR)
    by_people = moves - by_timer - by_bots
    mps = moves / used["wall"]
    if before is not None:
        print(
            f"  before the window (the start): {_bots_share(before['bots'], before['timer']):.1%} of the bots'"
            " decisions made by the bots"
            f" ({before['bots']} bots, {before['timer']} timer defaults)",
            flush=True,
        )
    lat = [got - r["at"] for r in rows if (got := _shown_at(received, r["stream_id"], r["version"])) is not None]
    seen = len(lat) / moves if moves else 0.0
    n = len(tables)
    print(
        f"  {load.label} {n:>5} tables: {mps:>6.0f} moves/s; {_bots_share(by_bots, by_timer):.1%} of the bots'"
        " decisions made by the bots"
        f" ({by_bots} bots, {by_timer} timer defaults, {by_people} people); decided -> spectator"
        f" p50 {bm.percentile(lat, 0.5):.0f} ms p99 {bm.percentile(lat, 0.99):.0f} ms ({seen:.0%} of the moves"
        f" matched to a frame); {ended} tables ended so far, each followed by a new one ({replaced} opened)",
        flush=True,
    )
    print(
        "         "
        + cpu_line(used, mps).replace("service", name)
        + (f"; {xacts / moves:.1f} PostgreSQL transactions a move" if moves else ""),
        flush=True,
    )
    if failed:
        print(f"         watch streams ended by the server: {_counted(failed)}", flush=True)
    if delays:
        print(f"         the projection's frames, from the match's decision: {delays}", flush=True)
    if late_after > late_before or waiting:
        print(
            f"         the bots' backlog: {late_after - late_before:.0f} decisions seen late (their clock had run"
            f" out: the timer's), {waiting:.0f} tables waiting for a bot at the window's end",
            flush=True,
        )
    if len(pids) > 1 and moves:
        print(
            "         µs a move by service: "
            + ", ".join(f"{service} {spent / moves * 1e6:,.0f}" for service, spent in each.items())
            + "; cores: "
            + ", ".join(f"{service} {spent / used['wall']:.2f}" for service, spent in each.items()),
            flush=True,
        )
    if moves:
        per = [s / moves * 1e6 for s in gc_spent]
        print(
            f"         of {name}'s CPU a move, {sum(per):,.0f} µs in the garbage collector"
            f" (young {per[0]:,.0f}, middle {per[1]:,.0f}, full {per[2]:,.0f})"
            + (f"; its longest pause at most {gc_longest * 1000:,.1f} ms" if gc_longest is not None else ""),
            flush=True,
        )
        if len(gc_each) > 1:
            print(
                "         the collector by process, µs of wall time a move (of them CPU; middle; collections, the"
                " longest at most): "
                + ", ".join(
                    f"{process} {_collector_in_window(before, after, moves)}"
                    for process, (before, after) in gc_each.items()
                ),
                flush=True,
            )
    per_1000 = (
        f"; {(used['service'] + used['postgres']) / n * 1000:.2f} cores per 1,000 tables at this pace"
        if n >= 100
        else ""
    )
    rss = rss_total(up)
    print(
        f"         RSS of {name} {rss:.0f} MB (was {rss_before:.0f} at the window's start,"
        f" {idle_rss:.0f} before the tables"
        + (f": {(rss - idle_rss) / n * 1000:,.0f} MB per 1,000 tables)" if n >= 100 else ")")
        + per_1000,
        flush=True,
    )
    for process, raw in stacks.items():
        per_move = each[process] / moves * 1e6 if moves else 0.0
        if len(pids) == 1 or per_move >= 20:  # not the lobby's few µs
            print(profiler.report(raw, moves, used["wall"], load.game, per_move, process), flush=True)


# ---- main -----------------------------------------------------------------------------------


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", default=os.environ.get("LOAD_QUICK", "") not in ("", "0"))
    parser.add_argument("--budget", type=float, default=None, help="stop within this many seconds")
    parser.add_argument("--seconds", type=float, default=None, help="measured seconds per scenario")
    parser.add_argument(
        "--only",
        default="compare,replay,scaling,instances,games",
        help="comma list of the parts to run (games: part 5; puzzipolia: part 5 for Пузиполия alone)",
    )
    parser.add_argument("--tables", default=None, help="comma list of table counts for the test game (part 3)")
    parser.add_argument(
        "--game-tables", "--puzzipolia-tables", default=None, help="comma list of table counts (part 5)"
    )
    parser.add_argument(
        "--games", default=",".join(GAME_LOADS), help=f"comma list of part 5's games, of {', '.join(GAME_LOADS)}"
    )
    parser.add_argument("--humans", type=int, default=3, help="part 5: tables whose seat 0 a scripted person plays")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="part 5: sample the server processes with py-spy and say where each move's CPU goes",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=None,
        help=f"part 5: seconds between the spectators' snapshots and the window (default {SETTLE_S:.0f} from"
        f" {SETTLE_FROM_TABLES:,} tables on, else 0)",
    )
    parser.add_argument(
        "--layout",
        default="up",
        help="part 5: comma list of up (every service in one tablehall up process) and split"
        " (a tablehall serve process a service, as a deployment runs them)",
    )
    parser.add_argument(
        "--match-processes",
        default="1,2",
        help="part 1: Tablehall on each of these numbers of match processes (past 1: behind one shared address)",
    )
    args = parser.parse_args()
    processes = [int(x) for x in args.match_processes.split(",")]
    quick = args.quick
    seconds = args.seconds or (6.0 if quick else 15.0)
    budget = Budget(args.budget or float(os.environ.get("LOAD_BUDGET", 420 if quick else 1500)))
    parts = set(args.only.split(","))
    tables = [1, 100, 1000] if quick else [1, 100, 1000, 5000]
    if args.tables:
        tables = [int(x) for x in args.tables.split(",")]
    game_tables = [1, 100] if quick else [1, 100, 1000, 5000]
    if args.game_tables:
        game_tables = [int(x) for x in args.game_tables.split(",")]
    games = args.games.split(",")
    layouts = args.layout.split(",")
    if set(layouts) - set(LAYOUTS):
        parser.error(f"unknown --layout {sorted(set(layouts) - set(LAYOUTS))}; the layouts are {', '.join(LAYOUTS)}")
    if "puzzipolia" in parts:  # the part's old name: Пузиполия alone
        parts.add("games")
        games = ["puzzipolia"]
    unknown = sorted(set(games) - set(GAME_LOADS))
    if unknown:
        parser.error(f"unknown --games {unknown}; the games are {', '.join(GAME_LOADS)}")
    servers = await find_servers(ROOT / ".data" / "bench", "postgres")
    print(
        f"load: {'quick' if quick else 'full'} run, {seconds:.0f} s windows, budget {budget.left():.0f} s;"
        f" {os.cpu_count()} cores, load average {load_average()}; PostgreSQL {servers.how['postgres']}",
        flush=True,
    )
    steps: list[tuple[str, Callable[[], Awaitable[None]]]] = [
        ("compare", lambda: compare(servers, seconds, budget, processes)),
        ("replay", lambda: replay(servers, games)),
        ("scaling", lambda: scaling(servers, tables, seconds, budget)),
        ("instances", lambda: instances(servers, [1, 2, 4], 400 if quick else 1000, seconds, budget)),
        (
            "games",
            lambda: every_game(
                servers, games, game_tables, seconds, budget, args.humans, args.profile, layouts, args.settle
            ),
        ),
    ]
    try:
        for name, step in steps:
            if name not in parts:
                continue
            if budget.left() <= 5:
                print(f"\nskipped {name}: the budget is spent", flush=True)
                continue
            try:  # a part that overruns is stopped (its services are stopped by its own finally)
                await asyncio.wait_for(step(), timeout=budget.left())
            except TimeoutError as exc:
                why = "the budget ran out" if budget.left() < 1 else f"{exc!r}"
                print(f"\n  stopped {name}: {why}", flush=True)
    finally:
        servers.stop()
    print(f"\nload: done, load average {load_average()}", flush=True)


if __name__ == "__main__":
    uvloop.run(main())
