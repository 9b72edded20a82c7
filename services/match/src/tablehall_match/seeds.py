"""Each table's secret seed, kept outside the stream until it is revealed."""

from __future__ import annotations

import asyncpg


class SeedVault:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def put(self, stream_id: str, seed: bytes) -> bytes:
        """Store the seed of a new match; the stored one if it existed (retry)."""
        stored: bytes = await self.pool.fetchval(
            """INSERT INTO match_seeds (stream_id, seed) VALUES ($1, $2)
               ON CONFLICT (stream_id) DO UPDATE SET stream_id = excluded.stream_id
               RETURNING seed""",
            stream_id,
            seed,
        )
        return stored

    async def get(self, stream_id: str) -> bytes | None:
        seed: bytes | None = await self.pool.fetchval("SELECT seed FROM match_seeds WHERE stream_id = $1", stream_id)
        return seed
