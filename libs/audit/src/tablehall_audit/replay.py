"""Replay of a finished table: every event and the state after it, or the
view of one seat at one version."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from tablehall_audit.events import AuditEvent
from tablehall_stream.fold import TableFold


@dataclass(frozen=True)
class Step:
    version: int
    type: str
    payload: Any
    metadata: dict[str, Any]
    state: Any  # the full game state after the event (None before the start)


def steps(table_id: str, events: list[AuditEvent]) -> Iterator[Step]:
    fold = TableFold(table_id)
    for event in events:
        fold.apply(event)
        yield Step(
            event.version,
            event.type,
            msgspec.json.decode(event.payload),
            event.metadata,
            msgspec.to_builtins(fold.state) if fold.state is not None else None,
        )


def seat_view(table_id: str, events: list[AuditEvent], seat: int, version: int) -> dict[str, Any]:
    """What `seat` was shown at `version` (the game's own redaction)."""
    if not 1 <= version <= len(events):
        raise ValueError(f"version must be 1..{len(events)}")
    fold = TableFold(table_id)
    for event in events[:version]:
        fold.apply(event)
    if fold.started is None:
        raise ValueError(f"the match had not started at version {version}")
    if not 0 <= seat < len(fold.started.seats):
        raise ValueError(f"seat must be 0..{len(fold.started.seats) - 1}")
    return fold.view("seat", seat)
