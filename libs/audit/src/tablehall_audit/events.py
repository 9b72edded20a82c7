"""Events as the audit reads them: from the store or from an export file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tablehall_eventstore import EventStore, RecordedEvent
from tablehall_stream.names import stream_id


@dataclass(frozen=True)
class AuditEvent:
    version: int
    type: str
    schema_version: int
    payload: bytes
    metadata: dict[str, Any]
    prev_hash: str | None
    hash: str | None
    # the metadata's stored text (hashed by scheme 2) and the event's hash scheme
    metadata_text: str = "{}"
    hash_scheme: int = 1


@dataclass(frozen=True)
class StreamCopy:
    """A table's stream as stored, with the head the store records for it."""

    table_id: str
    events: list[AuditEvent]
    head_version: int
    head_hash: str | None


def from_recorded(event: RecordedEvent) -> AuditEvent:
    return AuditEvent(
        event.version,
        event.type,
        event.schema_version,
        event.payload,
        event.metadata,
        event.prev_hash,
        event.hash,
        event.metadata_text,
        event.hash_scheme,
    )


async def load_stream(store: EventStore, table_id: str) -> StreamCopy:
    sid = stream_id(table_id)
    events = [from_recorded(e) for e in await store.read_stream(sid)]
    row = await store.pool.fetchrow("SELECT version, last_hash FROM streams WHERE stream_id = $1", sid)
    head_version, head_hash = (int(row[0]), row[1]) if row is not None else (0, None)
    return StreamCopy(table_id, events, head_version, head_hash)
