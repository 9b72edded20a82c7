"""Snapshots: a cache of folded stream state. Never a source of truth, so
deleting them only costs a longer replay."""

from __future__ import annotations

from ._db import Pool
from .models import Snapshot


async def save_snapshot(
    pool: Pool, stream_id: str, version: int, payload: bytes, *, state_type: str, schema_version: int
) -> None:
    await pool.execute(
        "INSERT INTO snapshots (stream_id, version, state_type, schema_version, payload)"
        " VALUES ($1, $2, $3, $4, $5)"
        " ON CONFLICT (stream_id, version) DO UPDATE SET state_type = excluded.state_type,"
        " schema_version = excluded.schema_version, payload = excluded.payload, created_at = now()",
        stream_id,
        version,
        state_type,
        schema_version,
        payload,
    )


async def load_snapshot(pool: Pool, stream_id: str) -> Snapshot | None:
    r = await pool.fetchrow(
        "SELECT stream_id, version, state_type, schema_version, payload, created_at FROM snapshots"
        " WHERE stream_id = $1 ORDER BY version DESC LIMIT 1",
        stream_id,
    )
    if r is None:
        return None
    return Snapshot(r[0], r[1], r[2], r[3], bytes(r[4]), r[5])


async def delete_snapshots(pool: Pool, stream_id: str | None = None) -> int:
    if stream_id is None:
        status = await pool.execute("DELETE FROM snapshots")
    else:
        status = await pool.execute("DELETE FROM snapshots WHERE stream_id = $1", stream_id)
    return int(status.rsplit(" ", 1)[1])
