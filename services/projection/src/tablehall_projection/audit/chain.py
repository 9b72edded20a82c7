"""The hash chain of a stream (tamper evidence).

Each event's `hash` is sha256_hex(prev_hash or "" + "\\n" + type + "\\n" +
payload), and `prev_hash` is the previous event's hash, as the event store
computes them at append. An edited, deleted or reordered event breaks it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from tablehall_projection.audit.events import AuditEvent


def event_hash(prev_hash: str | None, event_type: str, payload: bytes) -> str:
    data = (prev_hash or "").encode() + b"\n" + event_type.encode() + b"\n" + payload
    return hashlib.sha256(data).hexdigest()


def chain_break(events: Sequence[AuditEvent], head_version: int, head_hash: str | None) -> tuple[int, str] | None:
    """The first break as (version, what), or None when the chain holds to the recorded head."""
    prev: str | None = None
    for expected, event in enumerate(events, start=1):
        if event.version != expected:
            return event.version, f"version {event.version} where {expected} was due (an event is missing or moved)"
        if event.prev_hash != prev:
            return event.version, "its previous-hash link does not match the event before it"
        if event.hash != event_hash(prev, event.type, event.payload):
            return event.version, "its hash does not match its content (the event was edited)"
        prev = event.hash
    last = len(events)
    if head_version and (head_version != last or head_hash != prev):
        return last, f"the stream's head records version {head_version}, the events end at {last} (events removed)"
    return None
