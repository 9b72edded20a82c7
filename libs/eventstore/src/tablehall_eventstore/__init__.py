"""Append-only event store on PostgreSQL: optimistic appends with idempotent
command ids, a gap-safe global order, snapshots and a JetStream publisher."""

from .batcher import GroupCommitter
from .errors import ConcurrencyConflict, EventStoreError, InvalidAppend
from .hints import AppendHints
from .migrations import migrate
from .models import (
    AppendRequest,
    AppendResult,
    Fact,
    MetadataPaths,
    NewEvent,
    RecordedEvent,
    Snapshot,
    StoredFact,
    ends_command,
)
from .publisher import Publisher
from .store import READ_HORIZON, EventStore
from .tail import Tail

__all__ = [
    "READ_HORIZON",
    "AppendHints",
    "AppendRequest",
    "AppendResult",
    "ConcurrencyConflict",
    "EventStore",
    "EventStoreError",
    "Fact",
    "GroupCommitter",
    "InvalidAppend",
    "MetadataPaths",
    "NewEvent",
    "Publisher",
    "RecordedEvent",
    "Snapshot",
    "StoredFact",
    "Tail",
    "ends_command",
    "migrate",
]
