"""The hub follows the global order (gap-safe `read_all`) and hands each
event to the feed of its table, if anybody watches that table."""

from __future__ import annotations

import asyncio
import contextlib

import structlog

from tablehall_eventstore import READ_HORIZON, EventStore, RecordedEvent
from tablehall_platform.errors import NotFound
from tablehall_projection import metrics
from tablehall_projection.live.feed import Feed
from tablehall_stream.names import stream_id, table_of

log = structlog.get_logger("projection.hub")

# The newest position no in-flight transaction can still precede (read_all's rule).
_SAFE_HEAD = f"SELECT coalesce(max(position), 0) FROM events WHERE tx_id < {READ_HORIZON}"


class Hub:
    def __init__(self, store: EventStore, *, batch: int = 500, poll_interval: float = 0.05) -> None:
        self.store = store
        self.batch = batch
        self.poll_interval = poll_interval
        self.feeds: dict[str, Feed] = {}
        self.position = 0
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    async def start(self) -> None:
        self.position = int(await self.store.pool.fetchval(_SAFE_HEAD))
        self._task = asyncio.create_task(self._follow())

    async def close(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task

    async def acquire(self, table_id: str) -> Feed:
        """The table's feed (loaded from its stream on first use); `release` it after."""
        feed = self.feeds.get(table_id)
        if feed is None:
            feed = self.feeds[table_id] = Feed(table_id)
            metrics.FEEDS.set(len(self.feeds))
            try:
                events = await self.store.read_stream(stream_id(table_id))
                if not events:
                    raise NotFound("TABLE_NOT_FOUND", f"No table tables/{table_id}.", ru="Такого стола нет.")
                feed.load(events)
                for event in feed.buffered:
                    await self._offer(feed, event)
                feed.buffered.clear()
                feed.ready.set_result(None)
            except BaseException as exc:
                self.feeds.pop(table_id, None)
                metrics.FEEDS.set(len(self.feeds))
                feed.ready.set_exception(exc)
                feed.ready.exception()  # retrieved: waiters raise it themselves
                raise
        else:
            await asyncio.shield(feed.ready)
        feed.users += 1
        return feed

    def release(self, feed: Feed) -> None:
        feed.users -= 1
        if feed.users <= 0 and self.feeds.get(feed.table_id) is feed:
            del self.feeds[feed.table_id]
            metrics.FEEDS.set(len(self.feeds))

    async def _offer(self, feed: Feed, event: RecordedEvent) -> None:
        if not feed.offer(event):
            # events missing before this one: fetch them from the stream
            for missing in await self.store.read_stream(event.stream_id, feed.version + 1, event.version):
                feed.offer(missing)

    async def deliver(self, event: RecordedEvent) -> None:
        table_id = table_of(event.stream_id)
        feed = self.feeds.get(table_id) if table_id is not None else None
        if feed is None:
            return
        if not feed.ready.done():
            feed.buffered.append(event)
            return
        await self._offer(feed, event)

    async def _follow(self) -> None:
        backoff = self.poll_interval
        while not self._stop.is_set():
            try:
                events = await self.store.read_all(self.position, self.batch)
                for event in events:
                    await self.deliver(event)
                    self.position = event.position
                backoff = self.poll_interval
            except Exception:
                log.exception("live feed read failed")
                events = []
                backoff = min(backoff * 2, 5.0)
            if len(events) < self.batch:
                waiter = asyncio.ensure_future(self.store.wait_appended(backoff))
                stopper = asyncio.ensure_future(self._stop.wait())
                await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                stopper.cancel()
