"""Tables a read model cannot apply: held apart so every other table goes on.

`apply_isolated` applies a batch in a savepoint; if the model raises (for
anything but a lost database connection), it applies the batch again stream
by stream and event by event, each in its own savepoint, and records the
first event of each stream that fails. A stream in quarantine is skipped by
later batches until `Projector.retry` rebuilds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import asyncpg
import structlog

from tablehall_eventstore import RecordedEvent
from tablehall_projection import metrics

log = structlog.get_logger("projection")

Conn = Any

# failures of the connection, not of an event: the batch is retried whole
INFRASTRUCTURE = (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)

_ERROR_TEXT = 500


class Model(Protocol):
    name: str

    async def apply(self, conn: Conn, events: Sequence[RecordedEvent]) -> None: ...

    def reset(self) -> None: ...


class Quarantine:
    """The model's quarantined streams, read once and then kept while the projector's fence holds
    (only a batch, a retry or a rebuild changes them, and each of those moves the fence or goes
    through here): a batch does not ask the database again."""

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name
        self._held: set[str] | None = None

    def forget(self) -> None:
        """Read the streams from the database next time (another instance may have moved them)."""
        self._held = None

    async def streams(self, conn: Conn) -> set[str]:
        if self._held is None:
            rows = await conn.fetch("SELECT stream_id FROM projection_quarantine WHERE name = $1", self.model_name)
            self._held = {r[0] for r in rows}
        return set(self._held)

    async def hold(self, conn: Conn, event: RecordedEvent, error: BaseException) -> None:
        text = f"{type(error).__name__}: {error}"[:_ERROR_TEXT]
        await conn.execute(
            "INSERT INTO projection_quarantine (name, stream_id, position, version, error)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name, stream_id) DO NOTHING",
            self.model_name,
            event.stream_id,
            event.position,
            event.version,
            text,
        )
        if self._held is not None:
            self._held.add(event.stream_id)
        metrics.QUARANTINED.labels(self.model_name).inc()
        log.error(
            "table quarantined: an event could not be applied",
            projection=self.model_name,
            stream=event.stream_id,
            version=event.version,
            position=event.position,
            error=text,
        )

    async def reason(self, conn: Conn, stream_id: str) -> str | None:
        row = await conn.fetchrow(
            "SELECT version, error FROM projection_quarantine WHERE name = $1 AND stream_id = $2",
            self.model_name,
            stream_id,
        )
        return None if row is None else f"version {row[0]}: {row[1]}"

    async def release(self, conn: Conn, stream_id: str) -> None:
        self._held = None
        await conn.execute(
            "DELETE FROM projection_quarantine WHERE name = $1 AND stream_id = $2", self.model_name, stream_id
        )

    async def clear(self, conn: Conn) -> None:
        self._held = None
        await conn.execute("DELETE FROM projection_quarantine WHERE name = $1", self.model_name)


async def apply_isolated(conn: Conn, model: Model, events: Sequence[RecordedEvent], quarantine: Quarantine) -> None:
    """Apply `events`; a stream whose event fails goes to quarantine from that event on."""
    if not events:
        return
    try:
        async with conn.transaction():
            await model.apply(conn, events)
        return
    except INFRASTRUCTURE:
        raise
    except Exception:
        model.reset()  # the savepoint rolled back: so do the caches
    by_stream: dict[str, list[RecordedEvent]] = {}
    for event in events:
        by_stream.setdefault(event.stream_id, []).append(event)
    for stream_events in by_stream.values():
        for event in stream_events:
            try:
                async with conn.transaction():
                    await model.apply(conn, [event])
            except INFRASTRUCTURE:
                raise
            except Exception as exc:
                model.reset()
                await quarantine.hold(conn, event, exc)
                break
