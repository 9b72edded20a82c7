"""A careful forger's tools: rebuild a stream's hash chain after an edit."""

from __future__ import annotations

import msgspec

from tablehall_audit.chain import event_hash
from tablehall_audit.events import AuditEvent, StreamCopy


def rechain(copy: StreamCopy, events: list[AuditEvent]) -> StreamCopy:
    """Renumber and rehash `events` (scheme 2, metadata included) as a careful forger would."""
    prev: str | None = None
    out = []
    for version, e in enumerate(events, start=1):
        text = msgspec.json.encode(e.metadata).decode()
        digest = event_hash(prev, e.type, e.payload, 2, text)
        out.append(AuditEvent(version, e.type, e.schema_version, e.payload, e.metadata, prev, digest, text, 2))
        prev = digest
    return StreamCopy(copy.table_id, out, len(out), prev)
