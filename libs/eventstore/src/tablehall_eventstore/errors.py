"""Errors raised by the event store."""

from __future__ import annotations


class EventStoreError(Exception):
    """Base class for event store errors."""


class ConcurrencyConflict(EventStoreError):
    """The stream was not at the expected version; nothing was written."""

    def __init__(self, stream_id: str, expected_version: int, actual_version: int) -> None:
        super().__init__(f"stream {stream_id!r}: expected version {expected_version}, actual {actual_version}")
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.actual_version = actual_version

    def __reduce__(self) -> tuple[type[ConcurrencyConflict], tuple[str, int, int]]:
        return (type(self), (self.stream_id, self.expected_version, self.actual_version))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ConcurrencyConflict) and (
            self.stream_id,
            self.expected_version,
            self.actual_version,
        ) == (other.stream_id, other.expected_version, other.actual_version)

    def __hash__(self) -> int:
        return hash((self.stream_id, self.expected_version, self.actual_version))


class InvalidAppend(EventStoreError):
    """An append the database cannot store (a NUL character, an oversized command id); nothing was written."""
