"""The timer application: rebuild the schedule, follow the tables, act when due.

Start: rebuild every unfinished table's clocks from PostgreSQL (what fell due
while no timer ran is due at once), then three loops run until close:
the event feed (folding new events into the schedule), the scheduler (acting
on due entries through `TimerActions`) and the lease keeper (renewing this
instance's table leases).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import structlog

from tablehall_eventstore import EventStore
from tablehall_platform.logs import describe
from tablehall_timer.actions import TimerActions
from tablehall_timer.feed import follow, rebuild
from tablehall_timer.leases import TimerLeases
from tablehall_timer.match_client import MatchClient
from tablehall_timer.scheduler import Scheduler
from tablehall_timer.settings import TimerSettings

log = structlog.get_logger("timer")


class TimerApp:
    def __init__(self, store: EventStore, settings: TimerSettings, owner: str, metadata: list[tuple[str, str]]) -> None:
        self.store = store
        self.settings = settings
        self.leases = TimerLeases(store.pool, owner, settings.lease_seconds)
        self.match = MatchClient(settings.match_address, metadata)
        self.actions = TimerActions(self.leases, self.match)
        self.scheduler = Scheduler(
            self.actions,
            idle_ms=int(settings.idle_close_seconds * 1000),
            concurrency=settings.concurrency,
            first_wait_ms=int(settings.first_clock_wait_seconds * 1000),
        )
        self.stop_event = asyncio.Event()
        self.tasks: list[asyncio.Task[Any]] = []
        self.ready = asyncio.Event()

    async def start(self) -> None:
        started = time.perf_counter()
        head, events = await rebuild(self.store.pool, self.scheduler)
        log.info(
            "timer schedule rebuilt",
            tables=len(self.scheduler.tables),
            armed=self.scheduler.armed,
            events=events,
            head=head,
            seconds=round(time.perf_counter() - started, 3),
            match=self.settings.match_address,
        )
        self.tasks = [
            asyncio.create_task(follow(self.store, head, self.scheduler, self.stop_event, self.settings.poll_seconds)),
            asyncio.create_task(self.scheduler.run(self.stop_event)),
            asyncio.create_task(self.keep_leases()),
        ]
        self.ready.set()

    async def keep_leases(self) -> None:
        while not self.stop_event.is_set():
            try:
                await self.leases.renew()
            except Exception as exc:
                log.warning("timer lease renewal failed", error=describe(exc))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop_event.wait(), timeout=self.settings.lease_seconds / 3)

    async def close(self) -> None:
        self.stop_event.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.scheduler.drain()
        await self.actions.close()
        with contextlib.suppress(Exception):
            await self.leases.release_all()
        await self.match.close()
