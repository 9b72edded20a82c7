"""The hash chain of a stream (tamper evidence), as the event store computes it.

Scheme 2 (every event appended since eventstore migration 0002):
sha256_hex("2\\n" + (prev_hash or "") + "\\n" + type + "\\n" + payload + "\\n" +
metadata), so who acted, the recorded command and its draws are covered too.
Scheme 1 (older rows): sha256_hex((prev_hash or "") + "\\n" + type + "\\n" +
payload); their metadata is not covered, and a stream never goes back from
scheme 2 to scheme 1. `prev_hash` is the previous event's hash. An edited,
deleted or reordered event breaks the chain.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from tablehall_audit.events import AuditEvent

SCHEMES = (1, 2)


def event_hash(prev_hash: str | None, event_type: str, payload: bytes, scheme: int = 1, metadata: str = "{}") -> str:
    data = (prev_hash or "").encode() + b"\n" + event_type.encode() + b"\n" + payload
    if scheme == 2:
        data = b"2\n" + data + b"\n" + metadata.encode()
    return hashlib.sha256(data).hexdigest()


def chain_break(events: Sequence[AuditEvent], head_version: int, head_hash: str | None) -> tuple[int, str] | None:
    """The first break as (version, what), or None when the chain holds to the recorded head."""
    prev: str | None = None
    scheme = 1
    for expected, event in enumerate(events, start=1):
        if event.version != expected:
            return event.version, f"version {event.version} where {expected} was due (an event is missing or moved)"
        if event.hash_scheme not in SCHEMES or event.hash_scheme < scheme:
            return event.version, f"hash scheme {event.hash_scheme} after scheme {scheme} (a downgraded event)"
        scheme = event.hash_scheme
        if event.prev_hash != prev:
            return event.version, "its previous-hash link does not match the event before it"
        if event.hash != event_hash(prev, event.type, event.payload, scheme, event.metadata_text):
            what = "content or metadata" if scheme == 2 else "content"
            return event.version, f"its hash does not match its {what} (the event was edited)"
        prev = event.hash
    last = len(events)
    if head_version and (head_version != last or head_hash != prev):
        return last, f"the stream's head records version {head_version}, the events end at {last} (events removed)"
    return None


def uncovered(events: Sequence[AuditEvent]) -> int:
    """Events whose metadata the chain does not cover (scheme 1)."""
    return sum(1 for e in events if e.hash_scheme < 2)
