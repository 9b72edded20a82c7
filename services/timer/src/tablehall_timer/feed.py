"""Where the timer's events come from: PostgreSQL, rebuilt at start, then followed.

`rebuild` reads, in one repeatable-read snapshot, the gap-safe head of the
global order and, for every started and unfinished table up to it, exactly
the events the schedule depends on (`match.Started`, every presence change,
the latest event carrying `pending` and the latest move). `follow` then tails
the global order from that head with the event store's gap-safe `Tail`, so
nothing is skipped or seen twice between the two.

Postgres rather than the JetStream feed: the schedule is a fold of the
stream, and one source with one position makes the rebuild and the follow
meet exactly, with no dependence on the publisher's lag or on NATS being up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import asyncpg
import msgspec
import structlog

from tablehall_eventstore import READ_HORIZON, EventStore, Tail
from tablehall_platform.logs import describe
from tablehall_stream.names import ENDED, STARTED
from tablehall_timer.schedule import PRESENCE

log = structlog.get_logger("timer.feed")

_HEAD_SQL = f"SELECT coalesce(max(position), 0) FROM events WHERE tx_id < {READ_HORIZON}"

# Shaped to stay linear whatever the planner's statistics say (a restart may
# come right after a bulk load): hashed set operations for the live streams,
# and per stream only backward index probes that stop at the first match
# (`position + 0` keeps the head's range out of those probes' index choice).
_REBUILD_SQL = f"""
WITH live AS (
    SELECT stream_id FROM events WHERE type = '{STARTED}' AND position <= $1
    EXCEPT
    SELECT stream_id FROM events WHERE type = '{ENDED}' AND position <= $1
), picked AS (
    SELECT e.position FROM events e
     WHERE e.type IN ('{STARTED}', '{PRESENCE}') AND e.position <= $1
       AND e.stream_id IN (SELECT stream_id FROM live)
    UNION ALL
    SELECT p.position FROM live CROSS JOIN LATERAL (
        SELECT x.position FROM events x
         WHERE x.stream_id = live.stream_id AND x.position + 0 <= $1 AND x.metadata ? 'pending'
         ORDER BY x.version DESC LIMIT 1) p
    UNION ALL
    SELECT m.position FROM live CROSS JOIN LATERAL (
        SELECT x.position FROM events x
         WHERE x.stream_id = live.stream_id AND x.position + 0 <= $1
           AND x.metadata ? 'seat' AND x.metadata -> 'seat' <> 'null'::jsonb
           AND NOT coalesce((x.metadata ->> 'timeout')::boolean, false)
         ORDER BY x.version DESC LIMIT 1) m
)
SELECT e.stream_id, e.position, e.type, e.payload::text, e.metadata::text
  FROM events e WHERE e.position IN (SELECT DISTINCT position FROM picked)
 ORDER BY e.position
"""

_decode_meta = msgspec.json.decode


class Sink(Protocol):
    def apply(
        self, stream_id: str, position: int, event_type: str, payload: bytes, metadata: dict[str, Any]
    ) -> None: ...


async def rebuild(pool: asyncpg.Pool, sink: Sink) -> tuple[int, int]:
    """Feed `sink` the schedule-relevant events of every unfinished table; (head, events)."""
    async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        head = int(await conn.fetchval(_HEAD_SQL))
        rows = await conn.fetch(_REBUILD_SQL, head)
    for stream_id, position, event_type, payload, metadata in rows:
        try:
            sink.apply(stream_id, position, event_type, payload.encode(), _decode_meta(metadata))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            log.error("unreadable event skipped", stream=stream_id, position=position, error=describe(exc))
    return head, len(rows)


async def follow(
    store: EventStore,
    after: int,
    sink: Sink,
    stop: asyncio.Event,
    poll_interval: float = 0.05,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """Tail the global order from `after` into `sink` until `stop`; survives database hiccups."""
    position = after
    backoff = 0.1
    while not stop.is_set():
        tail = Tail(store, position, poll_interval=poll_interval)
        try:
            async for event in tail:
                try:
                    sink.apply(event.stream_id, event.position, event.type, event.payload, event.metadata)
                except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                    log.error(
                        "unreadable event skipped", stream=event.stream_id, position=event.position, error=describe(exc)
                    )
                position = event.position
                backoff = 0.1
                if stop.is_set():
                    return
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("event feed interrupted; resuming", position=position, error=describe(exc))
            await sleep(backoff)
            backoff = min(backoff * 2, 5.0)
