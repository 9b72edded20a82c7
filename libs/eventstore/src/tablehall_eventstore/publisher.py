"""Publisher: relays the global order from Postgres to NATS JetStream.

Postgres is the source of truth; JetStream is delivery. The checkpoint (last
published position) lives in Postgres and is saved after JetStream acks, so
a crash in between republishes from the checkpoint and JetStream's duplicate
window (Nats-Msg-Id = event id) drops the repeats.

One message a command: the events one command wrote (the match marks each with
its command id, the last with the decisions it leaves open) go as one message,
a JSON array of their envelopes (`messages`); any other event is a message of
its own, one envelope. A republish from the checkpoint reads the same batches,
so it forms the same messages with the same ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from dataclasses import dataclass
from typing import Any

import msgspec
import nats
import structlog
from nats.js import JetStreamContext
from nats.js.api import StorageType, StreamConfig
from nats.js.errors import NotFoundError
from prometheus_client import Counter, Gauge

from .models import RecordedEvent, ends_command
from .store import EventStore

log = structlog.get_logger("tablehall.eventstore.publisher")

STREAM_NAME = "TABLEHALL_EVENTS"
SUBJECT_PREFIX = "tablehall.events."
DUPLICATE_WINDOW_S = 120.0
DEFAULT_PREFIX = "tablehall"
_PREFIX = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

PUBLISHED = Counter(
    "tablehall_publisher_events_total",
    "Events published to JetStream and acknowledged (repeats after a crash included), by publisher.",
    ["publisher"],
)
DUPLICATES = Counter(
    "tablehall_publisher_duplicates_total",
    "Events in messages JetStream flagged as already stored (a republish after a crash), by publisher.",
    ["publisher"],
)
POSITION = Gauge(
    "tablehall_publisher_position", "The last global position published (the saved checkpoint).", ["publisher"]
)


def stream_replicas() -> int:
    """TABLEHALL_NATS_REPLICAS (default 1): JetStream replicas of the events stream
    when the publisher creates it (3 on a three-node NATS cluster)."""
    replicas = int(os.environ.get("TABLEHALL_NATS_REPLICAS", "1"))
    if not 1 <= replicas <= 5:
        raise ValueError(f"TABLEHALL_NATS_REPLICAS must be 1-5 (JetStream's limit), got {replicas}")
    return replicas


@dataclass(frozen=True)
class NatsNames:
    """The JetStream stream and subjects of one deployment, from its prefix
    (TABLEHALL_NATS_PREFIX, default `tablehall`: stream `TABLEHALL_EVENTS`,
    subjects `tablehall.events.<stream_id>`), so deployments sharing a NATS
    server never mix their events or their consumers."""

    prefix: str = DEFAULT_PREFIX

    def __post_init__(self) -> None:
        if not _PREFIX.match(self.prefix):
            raise ValueError(f"TABLEHALL_NATS_PREFIX must be 1-64 of [A-Za-z0-9_-], got {self.prefix!r}")

    @property
    def stream(self) -> str:
        return self.prefix.upper().replace("-", "_") + "_EVENTS"

    @property
    def subject_prefix(self) -> str:
        return f"{self.prefix}.events."

    @property
    def all_subjects(self) -> str:
        return self.subject_prefix + ">"

    @classmethod
    def from_env(cls) -> NatsNames:
        return cls(os.environ.get("TABLEHALL_NATS_PREFIX", DEFAULT_PREFIX))


class _Envelope(msgspec.Struct):
    event_id: str
    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    payload: msgspec.Raw
    metadata: dict[str, Any]
    recorded_at: str


_encoder = msgspec.json.Encoder()


def messages(events: list[RecordedEvent]) -> list[list[RecordedEvent]]:
    """`events` (in global order) as they are published: a command's events together (up to
    the one that closes it, with `pending`), every other event alone."""
    out: list[list[RecordedEvent]] = []
    for event in events:
        last = out[-1][-1] if out else None
        if (
            last is not None
            and not ends_command(last.metadata)
            and last.stream_id == event.stream_id
            and event.metadata.get("command_id") == last.metadata["command_id"]
        ):
            out[-1].append(event)
        else:
            out.append([event])
    return out


def message_body(group: list[RecordedEvent]) -> bytes:
    """One envelope for an event alone, a JSON array of them for a command's events."""
    if len(group) == 1:
        return envelope(group[0])
    return b"[" + b",".join(envelope(e) for e in group) + b"]"


def message_id(group: list[RecordedEvent]) -> str:
    """JetStream's duplicate key: the event's id, or the first and last ids of a command's."""
    return str(group[0].event_id) if len(group) == 1 else f"{group[0].event_id}..{group[-1].event_id}"


def envelope(event: RecordedEvent) -> bytes:
    """The message body: the event with its payload embedded as JSON, not re-encoded."""
    return _encoder.encode(
        _Envelope(
            str(event.event_id),
            event.stream_id,
            event.version,
            event.position,
            event.type,
            event.schema_version,
            msgspec.Raw(event.payload),
            event.metadata,
            event.recorded_at.isoformat(),
        )
    )


class Publisher:
    def __init__(
        self,
        store: EventStore,
        nats_url: str,
        *,
        name: str = "default",
        batch: int = 500,
        poll_interval: float = 0.05,
        coalesce: float = 0.01,
        names: NatsNames | None = None,
        replicas: int | None = None,
    ) -> None:
        self.store = store
        self.nats_url = nats_url
        self.names = names or NatsNames.from_env()
        self.name = name
        self.replicas = stream_replicas() if replicas is None else replicas
        self.batch = batch
        self.poll_interval = poll_interval
        # after a pass that sent something, wait this long so the next pass
        # carries many events (fewer reads, acks and checkpoint writes under load)
        self.coalesce = coalesce
        self._position: int | None = None
        self.duplicates = 0  # events JetStream flagged as already stored (republish after a crash)
        self._nc: Any = None
        self._js: JetStreamContext | None = None

    def stream_config(self) -> StreamConfig:
        """The events stream as the publisher creates it when it does not exist."""
        return StreamConfig(
            name=self.names.stream,
            subjects=[self.names.all_subjects],
            storage=StorageType.FILE,
            duplicate_window=DUPLICATE_WINDOW_S,
            num_replicas=self.replicas,
        )

    async def _jetstream(self) -> JetStreamContext:
        if self._js is None:
            self._nc = await nats.connect(self.nats_url)
            js = self._nc.jetstream()
            config = self.stream_config()
            try:
                info = await js.stream_info(self.names.stream)
                if (info.config.num_replicas or 1) != self.replicas:
                    # an existing stream keeps its replicas: `nats stream edit --replicas` changes them
                    log.warning(
                        "events stream has other replicas than asked",
                        stream=self.names.stream,
                        replicas=info.config.num_replicas,
                        asked=self.replicas,
                    )
            except NotFoundError:
                await js.add_stream(config)
            self._js = js
        return self._js

    async def close(self) -> None:
        self._position = None  # re-read the checkpoint after a reconnect
        if self._nc is not None:
            with contextlib.suppress(Exception):
                await self._nc.drain()
            self._nc = None
            self._js = None

    async def checkpoint(self) -> int:
        pos = await self.store.pool.fetchval("SELECT position FROM publisher_checkpoints WHERE name = $1", self.name)
        return 0 if pos is None else int(pos)

    async def _save_checkpoint(self, position: int) -> None:
        await self.store.pool.execute(
            "INSERT INTO publisher_checkpoints (name, position) VALUES ($1, $2)"
            " ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = now()"
            " WHERE publisher_checkpoints.position < excluded.position",
            self.name,
            position,
        )

    async def publish_pending(self) -> int:
        """One pass: publish everything after the checkpoint; returns how many were sent."""
        js = await self._jetstream()
        if self._position is None:
            self._position = await self.checkpoint()
        position = self._position
        sent = 0
        while True:
            events = await self.store.read_all(position, self.batch)
            if not events:
                return sent
            # Pipelined but ordered: publish_async writes in call order, then all acks are awaited.
            groups = messages(events)
            futures = [
                await js.publish_async(
                    self.names.subject_prefix + group[0].stream_id,
                    message_body(group),
                    headers={"Nats-Msg-Id": message_id(group)},
                )
                for group in groups
            ]
            acks = await asyncio.gather(*futures)
            repeats = sum(len(group) for group, ack in zip(groups, acks, strict=True) if ack.duplicate)
            self.duplicates += repeats
            position = events[-1].position
            await self._save_checkpoint(position)
            self._position = position
            PUBLISHED.labels(self.name).inc(len(events))
            DUPLICATES.labels(self.name).inc(repeats)
            POSITION.labels(self.name).set(position)
            sent += len(events)
            if len(events) < self.batch:
                return sent

    async def run(self, stop: asyncio.Event) -> None:
        """Publish until `stop` is set; NATS or Postgres errors are retried with backoff."""
        backoff = self.poll_interval
        try:
            while not stop.is_set():
                try:
                    sent = await self.publish_pending()
                    backoff = self.poll_interval
                except Exception:
                    log.exception("publish failed", publisher=self.name)
                    await self.close()
                    backoff = min(backoff * 2, 5.0)
                    sent = 0
                if sent and self.coalesce:
                    await asyncio.sleep(self.coalesce)
                if sent == 0:
                    waiter = asyncio.ensure_future(self.store.wait_appended(backoff))
                    stopper = asyncio.ensure_future(stop.wait())
                    await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                    waiter.cancel()
                    stopper.cancel()
        finally:
            await self.close()
