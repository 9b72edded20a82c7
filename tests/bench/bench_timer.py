"""Timer benchmark: 10,000 armed deadlines; lateness p50/p99 and CPU use.

Three runs, each with a stand-in match service that answers at once (so the
figures are the timer's own, not the match's):

1. core, spread: the scheduler fed directly, 10,000 tables with one deadline
   each, spread evenly over 5 s;
2. core, burst: the same 10,000 deadlines all due at one instant;
3. Postgres: 10,000 tables written to a fresh database as `match.Started` plus
   a command whose last event carries `pending` (deadlines spread over 5 s),
   the schedule rebuilt from SQL as at a restart, then fired through the real
   lease path (one Postgres lease per table) with the stand-in match.

Lateness = the time the match call starts minus the deadline. CPU = process
CPU seconds over the run (time.process_time), also as a share of one core.

    make bench-timer      (or: .venv/bin/python tests/bench/bench_timer.py [--tables N])
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import asyncpg
import msgspec

from tablehall_eventstore import AppendRequest, EventStore, NewEvent, migrate
from tablehall_platform.infra import ensure_database, find_servers, with_database
from tablehall_platform.logs import configure_logging
from tablehall_rules import PendingDecision
from tablehall_timer import service as timer_service
from tablehall_timer.actions import TimerActions
from tablehall_timer.feed import rebuild
from tablehall_timer.leases import TimerLeases
from tablehall_timer.match_client import Answer
from tablehall_timer.schedule import CloseIdle, Fire, TableClock
from tablehall_timer.scheduler import Scheduler, Verdict, wall_ms

ROOT = Path(__file__).resolve().parents[2]
SPREAD_MS = 5_000
LEAD_MS = 1_500  # time to arm everything before the first deadline
IDLE_MS = 3_600_000


class Recorder:
    def __init__(self, total: int) -> None:
        self.lateness_ms: list[float] = []
        self.total = total
        self.all_fired = asyncio.Event()

    def record(self, deadline_ms: int) -> None:
        self.lateness_ms.append(time.time() * 1000 - deadline_ms)
        if len(self.lateness_ms) >= self.total:
            self.all_fired.set()


class InstantExecutor:
    """The scheduler's executor with no lease and an instant match."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    async def fire(self, table: TableClock, action: Fire, attempt: int) -> Verdict:
        self.recorder.record(table.fires_at_ms(action.decision))
        await asyncio.sleep(0)
        return Verdict("made")

    async def close_idle(self, table: TableClock, action: CloseIdle, attempt: int) -> Verdict:
        return Verdict("closed")

    def forget(self, table_id: str) -> None:
        return None


class InstantMatch:
    """MatchClient's surface, answering at once."""

    def __init__(self, recorder: Recorder, tables: dict[str, TableClock]) -> None:
        self.recorder = recorder
        self.tables = tables
        self.last_error = ""

    async def submit_default(self, table_id: str, decision_key: str) -> Answer:
        table = self.tables[table_id]
        decision = next(d for d in table.decisions if d.key == decision_key)
        self.recorder.record(table.fires_at_ms(decision))
        await asyncio.sleep(0)
        return Answer.MADE

    async def close_idle(self, table_id: str, request_id: str) -> Answer:
        return Answer.MADE


def pending_meta(key: str, opened_at_ms: int, clock_ms: int) -> dict[str, Any]:
    decision = PendingDecision(key, 0, "turn", "decision", opened_at_ms, clock_ms)
    return {"seat": None, "now_ms": opened_at_ms, "pending": [msgspec.to_builtins(decision)]}


def feed_core(scheduler: Scheduler, n: int, deadline_of: Callable[[int], int]) -> None:
    started = msgspec.json.encode(
        {"seats": [{"seat": 0, "user_id": "u", "name": "U", "is_bot": False}], "started_at_ms": wall_ms()}
    )
    for i in range(n):
        stream = f"table-bench-{i}"
        now = wall_ms()
        scheduler.apply(stream, 1, "match.Started", started, {})
        scheduler.apply(stream, 2, "g.Opened", b"{}", pending_meta(f"k{i}", now, deadline_of(i) - now))


async def measure(
    label: str, recorder: Recorder, run: Callable[[asyncio.Event], Coroutine[Any, Any, None]], arm_seconds: float
) -> None:
    stop = asyncio.Event()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    task = asyncio.create_task(run(stop))
    await asyncio.wait_for(recorder.all_fired.wait(), timeout=120)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    stop.set()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    late = sorted(recorder.lateness_ms)
    q = statistics.quantiles(late, n=100)
    print(
        f"{label:<34} n={len(late):>6}  lateness p50 {q[49]:7.2f} ms  p99 {q[98]:7.2f} ms  max {late[-1]:7.2f} ms  "
        f"arm {arm_seconds:5.2f} s  CPU {cpu:5.2f} s over {wall:5.2f} s ({100 * cpu / wall:4.1f} % of a core)"
    )


async def bench_core(n: int, burst: bool) -> None:
    recorder = Recorder(n)
    scheduler = Scheduler(InstantExecutor(recorder), idle_ms=IDLE_MS)
    base = wall_ms() + LEAD_MS
    armed = time.perf_counter()
    feed_core(scheduler, n, (lambda i: base) if burst else (lambda i: base + i * SPREAD_MS // n))
    armed_s = time.perf_counter() - armed
    await measure(f"core, {'burst' if burst else 'spread over 5 s'}", recorder, scheduler.run, armed_s)


async def write_tables(store: EventStore, n: int) -> None:
    base = wall_ms() + 30_000  # deadlines are reset after the rebuild below; this is just far enough
    seats: list[dict[str, Any]] = [{"seat": 0, "user_id": "u", "name": "U", "is_bot": False}]
    requests = []
    for i in range(n):
        started: dict[str, Any] = {"game": "bench", "rules_version": "1", "options": {}, "seats": seats}
        started |= {"seed_sha256": "0" * 64, "started_at_ms": base}
        events = [
            NewEvent("match.Started", 1, msgspec.json.encode(started), {"command_id": f"s{i}", "now_ms": base}),
            NewEvent("bench.Opened", 1, b"{}", pending_meta(f"k{i}", base, 1000)),
        ]
        requests.append(AppendRequest(f"table-bench-{i}", 0, events, command_id=f"bench-{i}"))
        if len(requests) == 500:
            await store.append_batch(requests)
            requests = []
    if requests:
        await store.append_batch(requests)


async def bench_postgres(n: int, server_url: str) -> None:
    name = f"tablehall_bench_timer_{uuid.uuid4().hex[:8]}"
    url = await ensure_database(server_url, name)
    try:
        await migrate(url, extra=[timer_service.MIGRATIONS])
        store = await EventStore.connect(url, max_size=32)
        await write_tables(store, n)
        recorder = Recorder(n)
        tables: dict[str, TableClock] = {}
        actions = TimerActions(TimerLeases(store.pool, "bench", 30.0), InstantMatch(recorder, tables))  # type: ignore[arg-type]
        scheduler = Scheduler(actions, idle_ms=IDLE_MS)
        started = time.perf_counter()
        cpu0 = time.process_time()
        head, events = await rebuild(store.pool, scheduler)
        rebuild_s, rebuild_cpu = time.perf_counter() - started, time.process_time() - cpu0
        print(
            f"{'postgres rebuild':<34} tables={len(scheduler.tables)} events={events} head={head}"
            f"  {rebuild_s:.2f} s (CPU {rebuild_cpu:.2f} s)"
        )
        # re-arm the rebuilt deadlines to fall over the next 5 s (as if the clocks opened now)
        base = wall_ms() + LEAD_MS
        for i, table in enumerate(list(scheduler.tables.values())):
            (decision,) = table.decisions
            opened = base + i * SPREAD_MS // n
            meta = pending_meta(decision.key, opened, 0)
            scheduler.apply(f"table-{table.table_id}", table.position + 1, "bench.Reopened", b"{}", meta)
        tables.update(scheduler.tables)
        await measure("postgres leases, spread over 5 s", recorder, scheduler.run, rebuild_s)
        await actions.close()
        await store.close()
    finally:
        conn = await asyncpg.connect(with_database(server_url, "postgres"))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


async def main(n: int) -> None:
    configure_logging("warning")
    print(f"timer benchmark: {n} armed deadlines, stand-in match answering at once; Python {sys.version.split()[0]}")
    await bench_core(n, burst=False)
    await bench_core(n, burst=True)
    servers = await find_servers(ROOT / ".data" / "bench", "postgres", os.environ.get("TABLEHALL_DATABASE_URL"))
    try:
        await bench_postgres(n, servers.database_url)
    finally:
        servers.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.run(main(args.tables))
    except ImportError:
        asyncio.run(main(args.tables))
