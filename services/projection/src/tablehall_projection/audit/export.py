"""Export files: a finished table in one self-contained JSON document
(its events with their hashes, the rules version, the revealed seed), which
`verify_stream` checks with no database."""

from __future__ import annotations

from typing import Any

import msgspec

from tablehall_projection.audit.events import AuditEvent, StreamCopy
from tablehall_stream.events import MatchEnded, MatchStarted
from tablehall_stream.names import ENDED, STARTED

FORMAT = "tablehall-table/1"


class ExportedEvent(msgspec.Struct):
    version: int
    type: str
    schema_version: int
    # the payload's exact JSON text: the hash chain covers these bytes
    payload: str
    metadata: dict[str, Any]
    prev_hash: str | None
    hash: str | None


class ExportFile(msgspec.Struct):
    format: str
    table: str
    game: str
    rules_version: str
    seed_hex: str
    head_version: int
    head_hash: str | None
    events: list[ExportedEvent]


class ExportError(ValueError):
    """The file is not a readable export of a finished table."""


def export_stream(copy: StreamCopy) -> bytes:
    started = next((e for e in copy.events if e.type == STARTED), None)
    ended = next((e for e in copy.events if e.type == ENDED), None)
    if started is None or ended is None:
        raise ExportError("only finished tables are exported")
    head = msgspec.json.decode(started.payload, type=MatchStarted)
    seed_hex = msgspec.json.decode(ended.payload, type=MatchEnded).seed_hex
    document = ExportFile(
        FORMAT,
        f"tables/{copy.table_id}",
        head.game,
        head.rules_version,
        seed_hex,
        copy.head_version,
        copy.head_hash,
        [
            ExportedEvent(e.version, e.type, e.schema_version, e.payload.decode(), e.metadata, e.prev_hash, e.hash)
            for e in copy.events
        ],
    )
    return msgspec.json.format(msgspec.json.encode(document), indent=1)


def read_export(data: bytes) -> StreamCopy:
    try:
        document = msgspec.json.decode(data, type=ExportFile)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ExportError(f"not a Tablehall export file: {exc}") from exc
    if document.format != FORMAT:
        raise ExportError(f"unknown export format {document.format!r} (expected {FORMAT})")
    events = [
        AuditEvent(e.version, e.type, e.schema_version, e.payload.encode(), e.metadata, e.prev_hash, e.hash)
        for e in document.events
    ]
    started = next((e for e in events if e.type == STARTED), None)
    if started is not None:
        head = msgspec.json.decode(started.payload, type=MatchStarted)
        if (head.game, head.rules_version) != (document.game, document.rules_version):
            raise ExportError("the file's game and rules version differ from its match.Started")
    return StreamCopy(document.table.removeprefix("tables/"), events, document.head_version, document.head_hash)
