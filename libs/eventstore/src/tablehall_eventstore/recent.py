"""The newest stretch of the global order a process has read, shared by its followers.

A process runs several followers of the global order (the publisher, the projection's
projector and live hub, the timer), and an append wakes them all at once: without sharing,
each would read the same new rows, in a query of its own, and decode them again. This window
keeps what the last reads returned, `(lo, hi]` complete in global order, so a follower inside
it is answered from memory and only what follows `hi` is read, once for all of them.

Gap safety is kept: every event in the window was returned by a gap-safe `read_all`, and the
horizon only moves forward, so a part of the window is what a read now would return for it;
what lies after `hi` is always read from PostgreSQL, by a read that began after the caller's
last append (a follower asking while such a read is in flight waits for it instead of reading
again: the followers an append woke share one read).

The events handed out are shared: followers must treat them, as all readers do, as read-only.
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Awaitable, Callable

from .models import RecordedEvent

Fetch = Callable[[int, int], Awaitable[list[RecordedEvent]]]


class RecentOrder:
    def __init__(self, keep: int = 4096, chunk: int = 500) -> None:
        self.keep = keep
        self.chunk = chunk
        self.events: list[RecordedEvent] = []
        self.positions: list[int] = []
        self.lo = self.hi = -1  # the window: every event with lo < position <= hi
        self._read_generation = -1  # the appends this process had made when the newest read began
        self._more = False  # the newest read was cut at its limit: more may follow `hi` at once
        self._reading: asyncio.Future[None] | None = None
        self.reads = 0  # reads of PostgreSQL made for the window
        self.served = 0  # answers given from it

    def covers(self, after: int) -> bool:
        return self.lo <= after <= self.hi and self.lo >= 0

    def _slice(self, after: int, limit: int) -> list[RecordedEvent]:
        start = bisect.bisect_right(self.positions, after)
        return self.events[start : start + limit]

    async def read_all(
        self, after: int, limit: int, generation: Callable[[], int], fetch: Fetch
    ) -> list[RecordedEvent]:
        """`read_all(after, limit)` answered from the window where it can be, else read."""
        if not self.covers(after):
            return await self._outside(after, limit, generation(), fetch)
        extended = False
        began = generation()
        # appends keep coming while we read: after a few reads more than the answer needs, a read of its own
        for _ in range(3 + limit // self.chunk):
            got = self._slice(after, limit)
            if len(got) == limit or (extended and not self._more and self._read_generation >= began):
                self.served += 1
                return got  # a full answer, or all there is: the newest read began after our appends
            began = generation()
            await self._extend(fetch, began)
            extended = True
            if not self.covers(after):  # trimmed past `after` meanwhile (a very slow follower)
                break
        return await fetch(after, limit)

    async def _outside(self, after: int, limit: int, generation: int, fetch: Fetch) -> list[RecordedEvent]:
        events = await fetch(after, limit)
        self.reads += 1
        if after > self.hi and self._reading is None:  # ahead of the window: the window follows it
            self.events = list(events)
            self.positions = [e.position for e in events]
            self.lo = after
            self.hi = events[-1].position if events else after
            self._read_generation = generation
            self._more = len(events) == limit
        return events

    async def _extend(self, fetch: Fetch, generation: int) -> None:
        """Read what follows `hi`, once for everybody asking meanwhile."""
        reading = self._reading
        if reading is not None:
            try:
                await asyncio.shield(reading)
            except asyncio.CancelledError:
                if not reading.cancelled():
                    raise  # this follower is being stopped
                # the reader was stopped mid-read: the caller reads again itself
            return
        self._reading = reading = asyncio.get_running_loop().create_future()
        try:
            hi = self.hi
            events = await fetch(hi, self.chunk)
            self.reads += 1
            if hi == self.hi:  # the window was not moved meanwhile
                self.events.extend(events)
                self.positions.extend(e.position for e in events)
                if events:
                    self.hi = events[-1].position
                self._read_generation = generation
                self._more = len(events) == self.chunk
                self._trim()
            reading.set_result(None)
        except asyncio.CancelledError:
            reading.cancel()
            raise
        except BaseException as exc:
            reading.set_exception(exc)
            reading.exception()  # retrieved here: each waiter sees it raised
            raise
        finally:
            self._reading = None

    def _trim(self) -> None:
        extra = len(self.events) - self.keep
        if extra > 0:
            self.lo = self.positions[extra - 1]
            del self.events[:extra]
            del self.positions[:extra]
