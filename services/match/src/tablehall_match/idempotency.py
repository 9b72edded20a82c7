"""A command id answers a retry of the same command, never another command.

The digest of what a command asks (seat, decision key, the command itself) is
recorded in the first event's metadata (`command_digest`) and kept with the id
in memory; a request id sent again with a different command is refused with
FAILED_PRECONDITION `REQUEST_ID_REUSED` instead of being answered as a duplicate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import msgspec

from tablehall_eventstore import AppendResult, EventStore
from tablehall_platform.errors import Refused
from tablehall_platform.request_digest import request_id_reused


def command_digest(seat: int | None, decision_key: str, command: Any) -> str:
    """The digest of what a command asks (`command` as JSON-able builtins)."""
    body = msgspec.json.encode([seat, decision_key or None, command])
    return hashlib.sha256(body).hexdigest()[:32]


def recorded_digest(metadata: Mapping[str, Any]) -> str:
    """The digest a recorded command's first event carries (computed for events recorded before it was)."""
    stored = metadata.get("command_digest")
    if isinstance(stored, str):
        return stored
    return command_digest(metadata.get("seat"), metadata.get("decision_key") or "", metadata.get("command"))


def reused() -> Refused:
    return request_id_reused()


async def require_same(store: EventStore, earlier: AppendResult, digest: str) -> None:
    """Refuse (REQUEST_ID_REUSED) unless the command recorded as `earlier` is the one asked again."""
    [first] = await store.read_stream(earlier.stream_id, earlier.first_version, earlier.first_version)
    if recorded_digest(first.metadata) != digest:
        raise reused()
