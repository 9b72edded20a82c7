"""Runs a read model over the global order with an exactly-once checkpoint.

Each batch is one transaction: lock the model's checkpoint row, read the
events after it (gap-safe `read_all`), apply them, move the checkpoint,
commit. While the model keeps up, batches start at most once an `interval`
(TABLEHALL_PROJECTION_INTERVAL_MS, default 100): the events of that time go in
one transaction instead of one each. A crash anywhere before the commit rolls
everything back, the model's in-memory caches are dropped, and the next run
starts from the old checkpoint: nothing is skipped and nothing is applied twice. The row lock
also serialises concurrent instances running the same model.

A batch commits without waiting for the disk (`synchronous_commit off` for
its transaction alone): a PostgreSQL crash can lose the last batches, but
always together with their checkpoint, so they are applied again. The lag
metrics are refreshed once a second, not after every batch.

Caches are fenced: a process keeps its in-memory caches only while the
checkpoint it locks is the one it committed itself (same position, same
generation). Another instance that took a batch, a rebuild or a retry
(both bump the generation) makes it start from the database again, so any
number of instances and a rebuild while the service runs stay exact.

An event a model cannot apply (anything but a database connection failure)
puts its stream in quarantine (`projection_quarantine`, a log line and
`tablehall_projection_quarantined_total`): that table's later events are
skipped, every other table goes on, and `tablehall projections retry TABLE`
rebuilds the table's rows once the cause is fixed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import asyncpg
import structlog

from tablehall_eventstore import EventStore, RecordedEvent
from tablehall_platform.logs import describe
from tablehall_projection import metrics
from tablehall_projection.quarantine import Quarantine, apply_isolated

log = structlog.get_logger("projection")

Conn = Any  # an asyncpg connection inside a transaction

ASYNC_COMMIT = "SET LOCAL synchronous_commit TO off"
# the lag metrics' refresh (a count over the events after the checkpoint): once a second, not per batch
LAG_REPORT_S = 1.0


class ReadModel(Protocol):
    name: str
    # the model's tables, emptied by a rebuild
    tables: tuple[str, ...]

    async def apply(self, conn: Conn, events: Sequence[RecordedEvent]) -> None: ...

    def reset(self) -> None:
        """Forget in-memory caches (after a failed batch or a rebuild)."""


@dataclass(frozen=True)
class Lag:
    events: int
    seconds: float


class Projector:
    def __init__(
        self,
        store: EventStore,
        model: ReadModel,
        *,
        batch: int = 1000,
        poll_interval: float = 0.05,
        interval: float = 0.0,
        after_apply: Callable[[Sequence[RecordedEvent]], None] | None = None,
    ) -> None:
        self.store = store
        self.model = model
        self.batch = batch
        self.poll_interval = poll_interval
        # the least time from one batch's start to the next while the model keeps up: events
        # gather meanwhile, so a busy table costs a transaction per interval, not per append
        self.interval = interval
        # called inside the transaction between applying and checkpointing
        # (tests use it to simulate a crash at the worst moment)
        self.after_apply = after_apply
        self.position = 0
        # (position, generation) of the checkpoint this process committed last:
        # the model's caches are valid only there
        self._fence: tuple[int, int] | None = None
        self.quarantine = Quarantine(model.name)
        self._row_ready = False  # the model's checkpoint row exists (made once a process)

    @property
    def name(self) -> str:
        return self.model.name

    async def checkpoint(self) -> int:
        pos = await self.store.pool.fetchval(
            "SELECT position FROM projection_checkpoints WHERE name = $1", self.model.name
        )
        return 0 if pos is None else int(pos)

    async def _lock(self, conn: Conn) -> tuple[int, int]:
        """Lock the model's checkpoint row; its (position, generation). Drops stale caches."""
        if not self._row_ready:
            await conn.execute(
                "INSERT INTO projection_checkpoints (name, position) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING",
                self.model.name,
            )
        row = await conn.fetchrow(
            "SELECT position, generation FROM projection_checkpoints WHERE name = $1 FOR UPDATE", self.model.name
        )
        self._row_ready = True
        fence = (int(row[0]), int(row[1]))
        if fence != self._fence:
            self.model.reset()  # someone else moved it: our caches describe another past
            self.quarantine.forget()
        return fence

    async def step(self) -> int:
        """Apply one batch after the checkpoint; how many events it held."""
        started = time.perf_counter()
        try:
            async with self.store.pool.acquire() as conn, conn.transaction():
                # A read model is rebuilt from the events: a batch lost in a server crash is lost
                # with its checkpoint and applied again, so its commit need not wait for the disk.
                await conn.execute(ASYNC_COMMIT)
                position, generation = await self._lock(conn)
                events = await self.store.read_all(position, self.batch)
                if not events:
                    self.position = position
                    self._fence = (position, generation)
                    return 0
                held = await self.quarantine.streams(conn)
                await apply_isolated(conn, self.model, [e for e in events if e.stream_id not in held], self.quarantine)
                if self.after_apply is not None:
                    self.after_apply(events)
                await conn.execute(
                    "UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1",
                    self.model.name,
                    events[-1].position,
                )
        except BaseException:
            self.model.reset()
            self.quarantine.forget()
            self._fence = None
            self._row_ready = False
            raise
        self.position = events[-1].position
        self._fence = (self.position, generation)
        metrics.APPLIED.labels(self.name).inc(len(events))
        metrics.BATCH_SECONDS.labels(self.name).observe(time.perf_counter() - started)
        return len(events)

    async def lag(self) -> Lag:
        """Events not applied yet, and the age of the oldest of them."""
        row = await self.store.pool.fetchrow(
            "SELECT count(*), extract(epoch FROM now() - min(recorded_at)) FROM events WHERE position > $1",
            self.position,
        )
        assert row is not None
        count = int(row[0])
        return Lag(count, float(row[1]) if count else 0.0)

    async def report_lag(self) -> Lag:
        lag = await self.lag()
        metrics.LAG_EVENTS.labels(self.name).set(lag.events)
        metrics.LAG_SECONDS.labels(self.name).set(lag.seconds)
        return lag

    async def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Apply batches until none is left; `progress(n)` after each."""
        total = 0
        while n := await self.step():
            total += n
            if progress is not None:
                progress(n)
        await self.report_lag()
        return total

    async def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Drop the model's rows, quarantine and checkpoint in one transaction, then replay from 0.

        The new generation makes every running instance drop its caches.
        """
        async with self.store.pool.acquire() as conn, conn.transaction():
            await self._lock(conn)  # a running instance waits for the reset
            await conn.execute(
                "UPDATE projection_checkpoints SET position = 0, generation = generation + 1, updated_at = now()"
                " WHERE name = $1",
                self.model.name,
            )
            await self.quarantine.clear(conn)
            for table in self.model.tables:
                await conn.execute(f"TRUNCATE {table}")
        self.model.reset()
        self._fence = None
        self.position = 0
        return await self.catch_up(progress)

    async def retry(self, stream_id: str) -> str | None:
        """Rebuild one quarantined stream's rows up to the checkpoint; None when it applied,
        else why it is still in quarantine."""
        async with self.store.pool.acquire() as conn, conn.transaction():
            position, _ = await self._lock(conn)
            await conn.execute(
                "UPDATE projection_checkpoints SET generation = generation + 1 WHERE name = $1", self.model.name
            )
            await self.quarantine.release(conn, stream_id)
            table_id = stream_id.removeprefix("table-")
            for table in self.model.tables:
                await conn.execute(f"DELETE FROM {table} WHERE table_id = $1", table_id)
            self.model.reset()
            events = [e for e in await self.store.read_stream(stream_id) if e.position <= position]
            await apply_isolated(conn, self.model, events, self.quarantine)
            still = await self.quarantine.reason(conn, stream_id)
        self.model.reset()
        self._fence = None
        return still

    async def run(self, stop: asyncio.Event) -> None:
        """Follow the global order until `stop`; errors are logged and retried with backoff."""
        backoff = self.poll_interval
        last_report = 0.0
        while not stop.is_set():
            began = time.monotonic()
            try:
                n = await self.step()
                backoff = self.poll_interval
            except (asyncpg.PostgresError, OSError) as exc:
                log.warning("projection batch failed", projection=self.name, error=describe(exc))
                backoff = min(backoff * 2, 5.0)
                n = 0
            except Exception:
                log.exception("projection batch failed", projection=self.name)
                backoff = min(backoff * 2, 5.0)
                n = 0
            now = time.monotonic()
            if now - last_report >= LAG_REPORT_S:
                try:
                    await self.report_lag()
                except Exception as exc:  # the metric waits for the next round
                    log.warning("projection lag unknown", projection=self.name, error=describe(exc))
                last_report = now
            if n < self.batch:
                waiter = asyncio.ensure_future(self.store.wait_appended(backoff))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                rest = self.interval - (time.monotonic() - began)
                if rest > 0 and not stop.is_set():
                    await asyncio.wait({stopper}, timeout=rest)
                stopper.cancel()
