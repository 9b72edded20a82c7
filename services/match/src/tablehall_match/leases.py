"""One writer per table: leases in PostgreSQL that expire unless renewed.

An instance takes a table's lease when it first loads the table; it renews
all its leases in one statement every third of the lease time. A lease not
renewed (its holder died) is taken over by the next instance that needs the
table. Optimistic concurrency on append stays the last line of defence.

Reads are fenced as writes are: the instance knows until when each of its
leases is surely valid (the time before the statement that took or renewed
it, plus the lease time, on the monotonic clock), and `holds` is false after
that. An instance that was paused past its lease does not serve a table from
memory; it takes the lease again (and reloads) or forwards to the new holder.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import asyncpg


@dataclass(frozen=True)
class Holder:
    owner: str
    address: str


class Leases:
    def __init__(
        self,
        pool: asyncpg.Pool,
        owner: str,
        address: str,
        seconds: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pool = pool
        self.owner = owner
        self.address = address
        self.seconds = seconds
        self.clock = clock
        # stream id -> monotonic time until which our lease is surely valid
        self._valid_until: dict[str, float] = {}

    def holds(self, stream_id: str) -> bool:
        """Whether our lease on `stream_id` is surely still valid now."""
        return self.clock() < self._valid_until.get(stream_id, float("-inf"))

    async def acquire(self, stream_id: str) -> Holder:
        """Take the lease if free, expired or ours; the holder either way."""
        asked_at = self.clock()
        row = await self.pool.fetchrow(
            """INSERT INTO table_leases AS l (stream_id, owner, address, expires_at)
               VALUES ($1, $2, $3, now() + make_interval(secs => $4))
               ON CONFLICT (stream_id) DO UPDATE
                 SET owner = excluded.owner, address = excluded.address, expires_at = excluded.expires_at
                 WHERE l.owner = excluded.owner OR l.expires_at < now()
               RETURNING owner, address""",
            stream_id,
            self.owner,
            self.address,
            self.seconds,
        )
        if row is None:
            row = await self.pool.fetchrow("SELECT owner, address FROM table_leases WHERE stream_id = $1", stream_id)
            if row is None:  # released between the two statements: try once more
                return await self.acquire(stream_id)
        if row["owner"] == self.owner:
            self._valid_until[stream_id] = asked_at + self.seconds
        else:
            self._valid_until.pop(stream_id, None)
        return Holder(row["owner"], row["address"])

    async def renew(self) -> set[str]:
        """Renew every lease we hold; the stream ids still ours."""
        asked_at = self.clock()
        rows = await self.pool.fetch(
            """UPDATE table_leases SET expires_at = now() + make_interval(secs => $2)
               WHERE owner = $1 RETURNING stream_id""",
            self.owner,
            self.seconds,
        )
        ours = {r["stream_id"] for r in rows}
        self._valid_until = {s: asked_at + self.seconds for s in ours}
        return ours

    async def successor(self, stream_id: str) -> str | None:
        """Where a draining instance sends a table's callers: the live holder of
        its lease if another instance has it, else any other live instance (it
        takes the free lease on the forwarded call); None when none is known."""
        address: str | None = await self.pool.fetchval(
            """SELECT address FROM (
                 (SELECT address, 0 AS rank FROM table_leases
                   WHERE stream_id = $1 AND owner <> $2 AND expires_at > now())
                 UNION ALL
                 (SELECT address, 1 FROM table_leases
                   WHERE owner <> $2 AND expires_at > now() ORDER BY random() LIMIT 1)
               ) AS candidates ORDER BY rank LIMIT 1""",
            stream_id,
            self.owner,
        )
        return address

    async def release_all(self) -> None:
        self._valid_until.clear()
        await self.pool.execute("DELETE FROM table_leases WHERE owner = $1", self.owner)

    async def release(self, stream_id: str) -> None:
        self._valid_until.pop(stream_id, None)
        await self.pool.execute("DELETE FROM table_leases WHERE owner = $1 AND stream_id = $2", self.owner, stream_id)
