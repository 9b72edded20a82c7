"""asyncpg types shared by the modules, and row decoding for events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import asyncpg
import msgspec
from asyncpg.pool import PoolConnectionProxy

from .models import RecordedEvent, StoredFact

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"
Conn: TypeAlias = "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"

# payload/metadata come back as text: no per-row JSON work in asyncpg and no
# dependence on codecs the pool's owner may have set.
EVENT_COLUMNS = (
    "event_id, stream_id, version, position, type, schema_version,"
    " payload::text, metadata::text, recorded_at, prev_hash, hash, hash_scheme"
)

# what a rebuild reads (`StoredFact`): 22 against 57 ms for 10,000 rows of a dice race
FACT_COLUMNS = "version, type, schema_version, payload::text, metadata::text"
# the same without the metadata, which `picked_columns` reads in parts: the jsonb's whole text
# costs PostgreSQL twice as much as the rest of the row (140 of 186 ms for a long Магнаты table)
BARE_FACT_COLUMNS = "version, type, schema_version, payload::text"


def picked_columns(first_parameter: int, count: int) -> str:
    """One column per metadata path, the paths being parameters `first_parameter`, ...: the value
    at the path as JSON text, NULL where the metadata has nothing there."""
    return "".join(f", (metadata #> ${first_parameter + i}::text[])::text" for i in range(count))


_decode_json = msgspec.json.decode


def decode_metadata(text: str) -> dict[str, Any]:
    if text == "{}":
        return {}
    value = _decode_json(text)
    if not isinstance(value, dict):
        raise TypeError(f"event metadata must be a JSON object, got {type(value).__name__}")
    return value


_new = object.__new__


def to_event(r: asyncpg.Record) -> RecordedEvent:
    # Replay speed: fill the instance dict directly instead of the frozen
    # dataclass __init__ (one object.__setattr__ per field), about 3x faster.
    event: RecordedEvent = _new(RecordedEvent)
    event.__dict__.update(
        event_id=r[0],
        stream_id=r[1],
        version=r[2],
        position=r[3],
        type=r[4],
        schema_version=r[5],
        payload=r[6].encode(),
        metadata=decode_metadata(r[7]),
        recorded_at=r[8],
        prev_hash=r[9],
        hash=r[10],
        metadata_text=r[7],
        hash_scheme=r[11],
    )
    return event


def to_events(rows: list[asyncpg.Record]) -> list[RecordedEvent]:
    return [to_event(r) for r in rows]


def to_facts(rows: list[asyncpg.Record]) -> list[StoredFact]:
    return [StoredFact(r[0], r[1], r[2], r[3].encode(), decode_metadata(r[4])) for r in rows]


def to_picked_facts(rows: list[asyncpg.Record], names: Sequence[str], skip: int = 0) -> list[StoredFact]:
    """Facts of rows read with `picked_columns` for `names`, after `skip` columns of their own (the
    stream id of a read of many). One loop, no call a row: a long table's rebuild makes thousands."""
    first = skip + 4
    nothing = (None,) * len(names)
    facts = []
    for r in rows:
        parts = r[first:]
        picked = (
            {} if parts == nothing else {n: _decode_json(t) for n, t in zip(names, parts, strict=True) if t is not None}
        )
        facts.append(StoredFact(r[skip], r[skip + 1], r[skip + 2], r[skip + 3].encode(), picked))
    return facts
