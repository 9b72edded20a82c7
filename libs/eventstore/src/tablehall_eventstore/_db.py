"""asyncpg types shared by the modules, and row decoding for events."""

from __future__ import annotations

from typing import Any, TypeAlias

import asyncpg
import msgspec
from asyncpg.pool import PoolConnectionProxy

from .models import RecordedEvent

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"
Conn: TypeAlias = "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"

# payload/metadata come back as text: no per-row JSON work in asyncpg and no
# dependence on codecs the pool's owner may have set.
EVENT_COLUMNS = (
    "event_id, stream_id, version, position, type, schema_version,"
    " payload::text, metadata::text, recorded_at, prev_hash, hash"
)

_decode_json = msgspec.json.decode


def decode_metadata(text: str) -> dict[str, Any]:
    if text == "{}":
        return {}
    value = _decode_json(text)
    if not isinstance(value, dict):
        raise TypeError(f"event metadata must be a JSON object, got {type(value).__name__}")
    return value


def to_event(r: asyncpg.Record) -> RecordedEvent:
    return RecordedEvent(r[0], r[1], r[2], r[3], r[4], r[5], r[6].encode(), decode_metadata(r[7]), r[8], r[9], r[10])


def to_events(rows: list[asyncpg.Record]) -> list[RecordedEvent]:
    return [to_event(r) for r in rows]
