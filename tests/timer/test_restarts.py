"""Deadlines are facts: a killed timer loses none, a restarted one fires each once,
and several instances never fire one twice."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import grpc
import msgspec
from support.matchkit import SECRET, SERVICE_SECRET, Tokens, start_race
from support.timerkit import Env, events_of, timeouts, wait_until

from tablehall.timer.v1 import timer_pb2, timer_pb2_grpc
from tablehall_platform.infra import free_port
from tablehall_rules import PendingDecision as Decision

ROOT = Path(__file__).resolve().parents[2]


class TimerProcess:
    """`tablehall serve timer` in a subprocess, beside the test's in-process match."""

    def __init__(self, env: Env, nats_url: str, data_dir: Path) -> None:
        self.port = free_port()
        self.log = data_dir / f"timer-{self.port}.log"
        environment = {
            **os.environ,
            "TABLEHALL_DATABASE_URL": env.database_url,
            "TABLEHALL_NATS_URL": nats_url,
            "TABLEHALL_DATA_DIR": str(data_dir),
            "TABLEHALL_METRICS_PORT": "0",
            "TABLEHALL_MATCH_ADDRESS": env.match.address,
            "TABLEHALL_SERVICE_SECRET": SERVICE_SECRET,
            "TABLEHALL_TOKEN_SECRET": SECRET,
            "TABLEHALL_TIMER_LEASE_SECONDS": "1.5",
            "TABLEHALL_TIMER_POLL_SECONDS": "0.02",
        }
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tablehall_cli.main", "serve", "timer", "--port", str(self.port)],
                env=environment,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    async def follows(self, tokens: Tokens, tables: list[str]) -> None:
        """Wait until this process has rebuilt its schedule and knows every table."""
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{self.port}")
        stub = timer_pb2_grpc.TimerServiceStub(channel)

        async def knows_all() -> bool:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                for table in tables:
                    await stub.GetTableClocks(
                        timer_pb2.GetTableClocksRequest(table=table), metadata=tokens("alice"), timeout=1
                    )
            except Exception:
                return False
            return True

        try:
            await wait_until(knows_all, within=30, interval=0.1, what="the timer process to follow the tables")
        finally:
            await channel.close()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


async def open_decisions(env: Env, table: str) -> list[Decision]:
    """The table's open decisions as its stream says now."""
    for event in reversed(await events_of(env.match.store, table)):
        if "pending" in event.metadata:
            return msgspec.convert(event.metadata["pending"], type=list[Decision])
    return []


async def test_a_timer_killed_with_deadlines_pending_fires_each_overdue_one_exactly_once_after_restart(
    env: Env, tokens: Tokens, nats_url: str, tmp_path: Path
) -> None:
    first = TimerProcess(env, nats_url, tmp_path)
    second: TimerProcess | None = None
    try:
        # busy tables: 300 ms clocks, firing while the first timer runs (it takes their leases)
        busy = [await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 300}') for _ in range(3)]
        # waiting tables: their first deadline falls while no timer runs
        waiting = [
            await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 3000}') for _ in range(4)
        ]
        await first.follows(tokens, busy + waiting)

        async def busy_fired() -> bool:
            return all([bool(timeouts(await events_of(env.match.store, t))) for t in busy])

        await wait_until(busy_fired, within=60, what="the first timer to fire")
        first.kill()
        killed_at = time.time() * 1000
        at_kill = {t: await open_decisions(env, t) for t in busy + waiting}
        assert all(at_kill.values()), "every table has a decision pending at the kill"
        latest = max(d.deadline_ms for ds in at_kill.values() for d in ds)
        # every deadline pending at the kill falls due while no timer runs
        await asyncio.sleep(max(0.0, (latest - time.time() * 1000) / 1000) + 0.5)
        for table in busy + waiting:
            # facts, not speed: on a slow machine the first timer may have fired a waiting
            # table before it was killed, but nothing is fired after the kill until a timer runs
            made = [e for e in await events_of(env.match.store, table) if e.metadata.get("timeout")]
            assert all(e.metadata["now_ms"] < killed_at for e in made), "a dead timer fired"
        assert all(d.deadline_ms < time.time() * 1000 for ds in at_kill.values() for d in ds)

        second = TimerProcess(env, nats_url, tmp_path)

        async def all_overdue_fired() -> bool:
            for table, decisions in at_kill.items():
                counts = timeouts(await events_of(env.match.store, table))
                if any(counts[d.key] == 0 for d in decisions):
                    return False
            return True

        await wait_until(all_overdue_fired, within=60, what="the restarted timer to fire every overdue deadline")
        await asyncio.sleep(0.5)  # room for a wrong second firing to show
        second.stop()
        for table, decisions in at_kill.items():
            counts = timeouts(await events_of(env.match.store, table))
            assert all(counts[d.key] == 1 for d in decisions), (table, counts)
            assert max(counts.values()) == 1, (table, counts)
    finally:
        first.stop()
        if second is not None:
            second.stop()


async def test_two_timer_instances_never_fire_a_deadline_twice(env: Env, tokens: Tokens) -> None:
    timers = [await env.start_timer(lease_seconds=2.0), await env.start_timer(lease_seconds=2.0)]
    tables = [await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 200}') for _ in range(6)]

    async def each_fired_thrice() -> bool:
        return all([sum(timeouts(await events_of(env.match.store, t)).values()) >= 3 for t in tables])

    await wait_until(each_fired_thrice, within=60, what="three default moves at every table")
    for timer in timers:
        await env.stop_timer(timer)
    total: Counter[str] = Counter()
    for table in tables:
        counts = timeouts(await events_of(env.match.store, table))
        assert max(counts.values()) == 1, (table, counts)
        total.update(counts)
    attempts = [t.service.app.scheduler.stats for t in timers]
    # every call to the match made a move: none was a repeat or came too late
    assert sum(s["made"] for s in attempts) == sum(total.values())
    assert all(s["duplicate"] == 0 and s["taken"] == 0 for s in attempts), attempts
