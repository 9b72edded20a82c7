"""The scheduler core: every table's next action on one heap, acted on when due.

It holds a `TableClock` per unfinished table, keeps one heap entry per table
(its next action's time; stale entries are skipped by a generation number),
and runs at most one action per table at a time and at most `concurrency`
overall. What an action does is the `Executor`'s business (the application
checks the table's lease and calls the match service); the executor answers
with a `Verdict`: done, or try again at some time.
"""

from __future__ import annotations

import asyncio
import heapq
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import structlog

from tablehall_stream.names import STARTED, table_of
from tablehall_timer import metrics
from tablehall_timer.schedule import PRESENCE, Action, CloseIdle, Fire, TableClock

log = structlog.get_logger("timer")

OPENING = frozenset({STARTED, PRESENCE})
# the outcome of an action left to the instance holding the table's lease
ELSEWHERE = "elsewhere"


@dataclass(frozen=True, slots=True)
class Verdict:
    """An action's result. `outcome` labels the fired counter; `retry_at_ms`
    set means the action is not done and is tried again then."""

    outcome: str
    retry_at_ms: int | None = None

    @property
    def done(self) -> bool:
        return self.retry_at_ms is None


class Executor(Protocol):
    async def fire(self, table: TableClock, action: Fire, attempt: int) -> Verdict: ...

    async def close_idle(self, table: TableClock, action: CloseIdle, attempt: int) -> Verdict: ...

    def forget(self, table_id: str) -> None:
        """The table is finished: drop whatever is held for it (its lease)."""


def wall_ms() -> int:
    return int(time.time() * 1000)


class Scheduler:
    def __init__(
        self,
        executor: Executor,
        idle_ms: int,
        concurrency: int = 256,
        clock_ms: Callable[[], int] = wall_ms,
        first_wait_ms: int = 0,
    ) -> None:
        self.executor = executor
        self.idle_ms = idle_ms
        self.first_wait_ms = first_wait_ms
        self.clock_ms = clock_ms
        self.tables: dict[str, TableClock] = {}
        self.position = 0  # the last global position fed in (how far the schedule has read)
        self.stats: Counter[str] = Counter()
        self._heap: list[tuple[int, int, str]] = []
        self._generation: dict[str, int] = {}
        self._not_before: dict[str, tuple[int, int]] = {}  # table -> (retry at, attempt)
        self._busy: set[str] = set()
        self._slots = asyncio.Semaphore(concurrency)
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._armed = 0
        self._timed: dict[str, Action] = {}  # table -> the action whose lateness was observed

    # ---- feeding ---------------------------------------------------------

    def apply(
        self, stream_id: str, position: int, event_type: str, payload: bytes, metadata: Mapping[str, Any]
    ) -> None:
        """Fold one stored event into its table's clocks and re-plan the table."""
        self.position = max(self.position, position)
        table_id = table_of(stream_id)
        if table_id is None:
            return
        table = self.tables.get(table_id)
        if table is None:
            if event_type not in OPENING:
                return  # a table's schedule begins with its match (or a presence before it)
            table = self.tables[table_id] = TableClock(table_id, first_wait_ms=self.first_wait_ms)
        before = table.next_action(self.idle_ms)
        armed_before = self._armed_count(table)
        table.apply(position, event_type, payload, metadata)
        self._armed += self._armed_count(table) - armed_before
        if table.finished:
            self._drop(table_id)
            return
        if table.next_action(self.idle_ms) != before:
            self._not_before.pop(table_id, None)  # the stream moved: act on the new plan now
        self._plan(table_id)

    @staticmethod
    def _armed_count(table: TableClock) -> int:
        return 0 if table.finished else len(table.decisions)

    def _drop(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self._timed.pop(table_id, None)
        self._generation[table_id] = self._generation.get(table_id, 0) + 1
        self._not_before.pop(table_id, None)
        self.executor.forget(table_id)
        metrics.PENDING.set(self._armed)
        metrics.TABLES.set(len(self.tables))

    def _plan(self, table_id: str) -> None:
        """Push the table's next action on the heap (superseding older entries)."""
        metrics.PENDING.set(self._armed)
        metrics.TABLES.set(len(self.tables))
        table = self.tables.get(table_id)
        if table is None or table_id in self._busy:
            return
        planned = table.next_action(self.idle_ms)
        generation = self._generation.get(table_id, 0) + 1
        self._generation[table_id] = generation
        if planned is None:
            return
        at = planned[0]
        retry = self._not_before.get(table_id)
        if retry is not None:
            at = max(at, retry[0])
        if not self._heap or at < self._heap[0][0]:
            self._wake.set()
        heapq.heappush(self._heap, (at, generation, table_id))

    @property
    def armed(self) -> int:
        """Open decisions across unfinished tables."""
        return self._armed

    def clocks(self) -> Iterator[TableClock]:
        return iter(self.tables.values())

    # ---- running ---------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Act on due entries until `stop` is set."""
        loop = asyncio.get_running_loop()
        stopper = asyncio.ensure_future(stop.wait())
        stopper.add_done_callback(lambda _: self._wake.set())
        try:
            while not stop.is_set():
                now = self.clock_ms()
                while self._heap and self._heap[0][0] <= now:
                    _, generation, table_id = heapq.heappop(self._heap)
                    if self._generation.get(table_id) != generation or table_id in self._busy:
                        continue
                    await self._slots.acquire()
                    self._busy.add(table_id)
                    task = asyncio.create_task(self._act(table_id))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
                self._wake.clear()
                alarm = None
                if self._heap:
                    delay = (self._heap[0][0] - self.clock_ms()) / 1000
                    if delay <= 0:
                        await asyncio.sleep(0)
                        continue
                    alarm = loop.call_later(delay, self._wake.set)
                await self._wake.wait()
                if alarm is not None:
                    alarm.cancel()
        finally:
            stopper.cancel()

    async def drain(self) -> None:
        """Wait for the actions under way (on shutdown)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _act(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        try:
            planned = table.next_action(self.idle_ms) if table is not None else None
            now = self.clock_ms()
            retry_at, attempt = self._not_before.get(table_id, (0, 0))
            if table is None or planned is None or planned[0] > now or retry_at > now:
                return  # the plan changed since this entry was pushed
            _, action = planned
            if isinstance(action, Fire):
                verdict = await self.executor.fire(table, action, attempt)
                if verdict.done:
                    table.done.add(action.decision.key)
            else:
                verdict = await self.executor.close_idle(table, action, attempt)
                if verdict.done:
                    table.closed_for_move_ms = action.last_move_ms
            metrics.FIRED.labels(verdict.outcome).inc()
            self.stats[verdict.outcome] += 1
            if verdict.outcome != ELSEWHERE and self._timed.get(table_id) != action:
                # once per action, when this instance first really acts on it
                self._timed[table_id] = action
                metrics.LATENESS.observe(max(0, now - planned[0]) / 1000)
            if verdict.retry_at_ms is None:
                self._not_before.pop(table_id, None)
            else:
                self._not_before[table_id] = (verdict.retry_at_ms, attempt + 1)
        except Exception:
            log.exception("timer action failed", table=table_id)
            attempt = self._not_before.get(table_id, (0, 0))[1]
            self._not_before[table_id] = (self.clock_ms() + 1000, attempt + 1)
        finally:
            self._busy.discard(table_id)
            self._slots.release()
            self._plan(table_id)
