"""One firing timer instance per table: leases in PostgreSQL that expire unless renewed.

Every instance follows every table, but only the holder of a table's lease
acts on it. An instance takes the lease the first time it has something due
at the table and keeps it (renewing all its leases in one statement every
third of the lease time) until the table finishes or the instance stops. A
dead holder's leases expire; the next instance with something due there
takes the table over and fires what fell due meanwhile.

Requests made at the same moment (a burst of deadlines) are taken together
in one statement. A table seen held by another instance is not asked about
again until that instance's lease would have expired. The local cache lets a holder act without a round trip
while its lease has at least a third of its time left (counted from before
the statement that set it, so the cache never outlives the row).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import asyncpg

BATCH = 1000

_TAKE_SQL = """
INSERT INTO timer_leases AS l (stream_id, owner, expires_at)
SELECT w.stream_id, $2, now() + make_interval(secs => $3)
  FROM unnest($1::text[]) AS w(stream_id) ORDER BY w.stream_id
ON CONFLICT (stream_id) DO UPDATE
   SET owner = excluded.owner, expires_at = excluded.expires_at
 WHERE l.owner = excluded.owner OR l.expires_at < now()
RETURNING stream_id
"""
# Rows are locked in stream id order, as in _TAKE_SQL, so a renewal and
# another instance's take never deadlock.
_RENEW_SQL = """
UPDATE timer_leases SET expires_at = now() + make_interval(secs => $2)
 WHERE stream_id IN (SELECT stream_id FROM timer_leases WHERE owner = $1 ORDER BY stream_id FOR UPDATE)
   AND owner = $1
RETURNING stream_id
"""
_HELD_SQL = """
SELECT stream_id, extract(epoch FROM expires_at - now())::float8
  FROM timer_leases WHERE stream_id = ANY($1::text[])
"""


@dataclass(frozen=True, slots=True)
class LeaseAnswer:
    ours: bool
    # seconds until the holder's lease expires (when not ours)
    remaining_s: float = 0.0


class TimerLeases:
    def __init__(self, pool: asyncpg.Pool, owner: str, seconds: float) -> None:
        self.pool = pool
        self.owner = owner
        self.seconds = seconds
        self._held: dict[str, float] = {}  # stream id -> monotonic expiry
        self._elsewhere: dict[str, float] = {}  # stream id -> when another holder's lease would expire
        self._wanted: dict[str, asyncio.Future[LeaseAnswer]] = {}
        self._taking: asyncio.Task[None] | None = None

    def recorded(self, stream_id: str) -> bool:
        """True when our last statement about the table left its lease ours."""
        return stream_id in self._held

    def holds(self, stream_id: str) -> bool:
        """True when the cached lease is ours with a third of its time left."""
        expiry = self._held.get(stream_id)
        return expiry is not None and expiry - time.monotonic() > self.seconds / 3

    async def ensure(self, stream_id: str) -> LeaseAnswer:
        """Ours (taken or renewed now if needed), or how long the holder keeps it."""
        if self.holds(stream_id):
            return LeaseAnswer(True)
        other_until = self._elsewhere.get(stream_id)
        if other_until is not None:
            left = other_until - time.monotonic()
            if left > 0:
                return LeaseAnswer(False, left)
            del self._elsewhere[stream_id]
        future = self._wanted.get(stream_id)
        if future is None:
            future = self._wanted[stream_id] = asyncio.get_running_loop().create_future()
        if self._taking is None or self._taking.done():
            self._taking = asyncio.create_task(self._take_all())
        return await asyncio.shield(future)

    async def _take_all(self) -> None:
        """Take every wanted lease, a batch per statement, until none is wanted."""
        await asyncio.sleep(0)  # let the requests of this instant gather
        while self._wanted:
            batch = dict(list(self._wanted.items())[:BATCH])
            for stream_id in batch:
                del self._wanted[stream_id]
            try:
                answers = await self._take(sorted(batch))
            except Exception as exc:
                for future in batch.values():
                    if not future.done():
                        future.set_exception(exc)
                continue
            for stream_id, future in batch.items():
                answer = answers.get(stream_id)
                if answer is None:  # released between the two statements: once more
                    self._wanted[stream_id] = future
                elif not future.done():
                    future.set_result(answer)

    async def _take(self, stream_ids: list[str]) -> dict[str, LeaseAnswer]:
        started = time.monotonic()
        rows = await self.pool.fetch(_TAKE_SQL, stream_ids, self.owner, self.seconds)
        answers = {r["stream_id"]: LeaseAnswer(True) for r in rows}
        for stream_id in answers:
            self._held[stream_id] = started + self.seconds
        others = [s for s in stream_ids if s not in answers]
        if others:
            for stream_id in others:
                self._held.pop(stream_id, None)
            for stream_id, remaining in await self.pool.fetch(_HELD_SQL, others):
                left = max(0.0, float(remaining))
                answers[stream_id] = LeaseAnswer(False, left)
                self._elsewhere[stream_id] = started + left
        return answers

    async def renew(self) -> int:
        """Renew every lease we hold; returns how many are still ours."""
        started = time.monotonic()
        rows = await self.pool.fetch(
            _RENEW_SQL,
            self.owner,
            self.seconds,
        )
        self._held = {r["stream_id"]: started + self.seconds for r in rows}
        return len(self._held)

    def forget(self, stream_id: str) -> None:
        """The table is finished: drop what is known of its lease elsewhere."""
        self._elsewhere.pop(stream_id, None)

    async def release(self, stream_id: str) -> None:
        self._held.pop(stream_id, None)
        await self.pool.execute("DELETE FROM timer_leases WHERE owner = $1 AND stream_id = $2", self.owner, stream_id)

    async def release_all(self) -> None:
        self._held.clear()
        await self.pool.execute("DELETE FROM timer_leases WHERE owner = $1", self.owner)
