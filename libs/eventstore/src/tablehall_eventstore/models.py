"""Value types of the event store: what callers append and what they read back."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, Protocol

import msgspec

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class NewEvent:
    """An event to append. `payload` is JSON text as bytes, stored byte-for-byte."""

    type: str
    schema_version: int
    payload: bytes
    # JSON-able: command id, causation, correlation, actor, draws, ...
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


def ends_command(metadata: Mapping[str, Any]) -> bool:
    """Whether nothing of its command follows an event with this metadata: the last event a
    command wrote (the match marks it with the decisions it leaves open, `pending`) or one no
    command wrote (no `command_id`: lobby events). The publisher sends a command's events up to
    such an event as one message; a watcher of whole commands gets one change there."""
    return "pending" in metadata or "command_id" not in metadata


@dataclass(frozen=True)
class RecordedEvent:
    """An event as stored. `position` is the global order, `version` the order in its stream.

    `hash` chains the stream's events for tamper evidence; `prev_hash` is the
    previous event's hash. Scheme 2 (every event appended since migration 0002):
    sha256_hex("2\\n" + (prev_hash or "") + "\\n" + type + "\\n" + payload + "\\n" +
    metadata_text); scheme 1 (older rows): sha256_hex((prev_hash or "") + "\\n" + type
    + "\\n" + payload), which leaves the metadata uncovered.
    """

    event_id: uuid.UUID
    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    payload: bytes
    metadata: dict[str, Any]
    recorded_at: datetime
    prev_hash: str | None = None
    hash: str | None = None
    # the metadata's text exactly as stored (the jsonb's canonical text): scheme 2 hashes it
    metadata_text: str = "{}"
    hash_scheme: int = 1


class Fact(Protocol):
    """What rebuilding a state reads of a stored event (the match's tables, the projection's
    folds): a `RecordedEvent`, a `StoredFact` or an exported event."""

    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def schema_version(self) -> int: ...
    @property
    def payload(self) -> bytes: ...
    @property
    def metadata(self) -> dict[str, Any]: ...


# Parts of an event's metadata to read instead of all of it (`EventStore.read_facts`): a name for
# each, and its path in the metadata (object keys, or array indexes such as "-1" for the last item),
# as PostgreSQL's `#>` takes it.
MetadataPaths = Mapping[str, Sequence[str]]


class StoredFact(msgspec.Struct, frozen=True, gc=False):
    """A stored event as a rebuild reads it (`EventStore.read_facts`): no ids, positions, times or
    hashes, which a rebuild never looks at and which cost more to read than the rest.

    A struct, not a dataclass: a long table's rebuild makes one a row, and a frozen dataclass's
    `__init__` (a setattr a field) cost a microsecond of it. Untracked by the collector: its
    fields hold JSON values, which never refer back to it.
    """

    version: int
    type: str
    schema_version: int
    payload: bytes
    metadata: dict[str, Any]


@dataclass(frozen=True)
class AppendResult:
    stream_id: str
    first_version: int
    last_version: int
    first_position: int
    last_position: int
    duplicate: bool = False


@dataclass(frozen=True)
class AppendRequest:
    """One stream's append inside `EventStore.append_batch`."""

    stream_id: str
    expected_version: int
    events: Sequence[NewEvent]
    command_id: str | None = None


@dataclass(frozen=True)
class Snapshot:
    stream_id: str
    version: int
    state_type: str
    schema_version: int
    payload: bytes
    created_at: datetime
