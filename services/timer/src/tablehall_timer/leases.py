"""One firing timer instance per table: leases in PostgreSQL that expire unless renewed.

Every instance follows every table, but only the holder of a table's lease
acts on it. An instance takes the lease the first time it has something due
at the table and keeps it (renewing all its leases in one statement every
third of the lease time) until the table finishes or the instance stops. A
dead holder's leases expire; the next instance with something due there
takes the table over and fires what fell due meanwhile.

The local cache lets a holder act without a round trip while its lease has
at least a third of its time left (counted from before the statement that
set it, so the cache never outlives the row).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import asyncpg


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
        started = time.monotonic()
        row = await self.pool.fetchrow(
            """INSERT INTO timer_leases AS l (stream_id, owner, expires_at)
               VALUES ($1, $2, now() + make_interval(secs => $3))
               ON CONFLICT (stream_id) DO UPDATE
                 SET owner = excluded.owner, expires_at = excluded.expires_at
                 WHERE l.owner = excluded.owner OR l.expires_at < now()
               RETURNING owner""",
            stream_id,
            self.owner,
            self.seconds,
        )
        if row is not None:
            self._held[stream_id] = started + self.seconds
            return LeaseAnswer(True)
        self._held.pop(stream_id, None)
        remaining = await self.pool.fetchval(
            "SELECT extract(epoch FROM expires_at - now())::float8 FROM timer_leases WHERE stream_id = $1",
            stream_id,
        )
        if remaining is None:  # released between the two statements
            return await self.ensure(stream_id)
        return LeaseAnswer(False, max(0.0, float(remaining)))

    async def renew(self) -> int:
        """Renew every lease we hold; returns how many are still ours."""
        started = time.monotonic()
        rows = await self.pool.fetch(
            """UPDATE timer_leases SET expires_at = now() + make_interval(secs => $2)
               WHERE owner = $1 RETURNING stream_id""",
            self.owner,
            self.seconds,
        )
        self._held = {r["stream_id"]: started + self.seconds for r in rows}
        return len(self._held)

    async def release(self, stream_id: str) -> None:
        self._held.pop(stream_id, None)
        await self.pool.execute("DELETE FROM timer_leases WHERE owner = $1 AND stream_id = $2", self.owner, stream_id)

    async def release_all(self) -> None:
        self._held.clear()
        await self.pool.execute("DELETE FROM timer_leases WHERE owner = $1", self.owner)
