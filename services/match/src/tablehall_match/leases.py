"""One writer per table: leases in PostgreSQL that expire unless renewed.

An instance takes a table's lease when it first loads the table; it renews
all its leases in one statement every third of the lease time. A lease not
renewed (its holder died) is taken over by the next instance that needs the
table. Optimistic concurrency on append stays the last line of defence.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg


@dataclass(frozen=True)
class Holder:
    owner: str
    address: str


class Leases:
    def __init__(self, pool: asyncpg.Pool, owner: str, address: str, seconds: float) -> None:
        self.pool = pool
        self.owner = owner
        self.address = address
        self.seconds = seconds

    async def acquire(self, stream_id: str) -> Holder:
        """Take the lease if free, expired or ours; the holder either way."""
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
        return Holder(row["owner"], row["address"])

    async def renew(self) -> set[str]:
        """Renew every lease we hold; the stream ids still ours."""
        rows = await self.pool.fetch(
            """UPDATE table_leases SET expires_at = now() + make_interval(secs => $2)
               WHERE owner = $1 RETURNING stream_id""",
            self.owner,
            self.seconds,
        )
        return {r["stream_id"] for r in rows}

    async def release_all(self) -> None:
        await self.pool.execute("DELETE FROM table_leases WHERE owner = $1", self.owner)

    async def release(self, stream_id: str) -> None:
        await self.pool.execute("DELETE FROM table_leases WHERE owner = $1 AND stream_id = $2", self.owner, stream_id)
