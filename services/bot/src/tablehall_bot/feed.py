"""Notifications from NATS JetStream: one durable pull consumer shared by every bot instance.

Each message the publisher relays (an event, or the events of one command:
`tablehall_eventstore.publisher.messages`) is delivered to one instance. An instance
acknowledges a notification only after it has acted on the table, so the
notifications of an instance killed mid-thought are redelivered to another
one after `ack_wait` (and the timer's default move covers the decision if
nobody answers in time).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
import nats
import structlog
from nats.aio.msg import Msg
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError

from tablehall_eventstore.publisher import NatsNames
from tablehall_platform.logs import describe

log = structlog.get_logger("bot.feed")
FETCH_BATCH = 64


class Envelope(msgspec.Struct):
    stream_id: str
    version: int
    type: str
    schema_version: int = 1
    metadata: dict[str, Any] = {}
    payload: msgspec.Raw = msgspec.Raw(b"null")  # the event's payload as stored (JSON)


_decode = msgspec.json.Decoder(Envelope | list[Envelope]).decode


def envelopes_of(data: bytes) -> list[Envelope]:
    """The events of one message: an envelope, or a command's as an array of them."""
    decoded = _decode(data)
    return decoded if isinstance(decoded, list) else [decoded]


@dataclass
class Notification:
    envelopes: list[Envelope]  # empty: an unreadable message
    msg: Msg
    # when JetStream last heard of it (delivery, or a progress ack): its redelivery counts from there
    heard: float = field(default_factory=time.monotonic)

    @property
    def envelope(self) -> Envelope | None:
        """The message's last (newest) event."""
        return self.envelopes[-1] if self.envelopes else None

    async def ack(self) -> None:
        try:
            await self.msg.ack()
        except Exception as exc:  # the connection dropped: the message comes again
            log.warning("ack failed", error=describe(exc))

    async def still_working(self) -> None:
        """Tell JetStream the notification is being worked on (it is waiting its turn), so it is
        not handed out again after the ack wait."""
        try:
            await self.msg.in_progress()
            self.heard = time.monotonic()
        except Exception as exc:  # the connection dropped: the message comes again, and is folded into this one
            log.warning("progress ack failed", error=describe(exc))


class Feed:
    def __init__(self, nats_url: str, consumer: str, ack_wait_seconds: float, names: NatsNames | None = None) -> None:
        self.nats_url = nats_url
        self.names = names or NatsNames.from_env()
        self.consumer = consumer
        self.ack_wait = ack_wait_seconds
        self._nc: Any = None
        self._sub: Any = None

    async def connect(self, stop: asyncio.Event) -> bool:
        """Connect and bind the shared consumer once the publisher's stream exists."""
        self._nc = await nats.connect(self.nats_url, max_reconnect_attempts=-1)
        js = self._nc.jetstream()
        while not stop.is_set():
            try:
                await js.stream_info(self.names.stream)
                break
            except NotFoundError:
                await asyncio.sleep(0.2)
        if stop.is_set():
            return False
        config = ConsumerConfig(
            durable_name=self.consumer,
            deliver_policy=DeliverPolicy.NEW,
            ack_policy=AckPolicy.EXPLICIT,
            ack_wait=self.ack_wait,
            max_ack_pending=10_000,
            filter_subject=self.names.all_subjects,
        )
        self._sub = await js.pull_subscribe(
            self.names.all_subjects, durable=self.consumer, stream=self.names.stream, config=config
        )
        return True

    async def notifications(self, stop: asyncio.Event) -> AsyncIterator[Notification]:
        while not stop.is_set():
            try:
                msgs = await self._sub.fetch(FETCH_BATCH, timeout=0.5)
            except (nats.errors.TimeoutError, TimeoutError):  # nothing to fetch (nats-py 2.16 raises either)
                continue
            except Exception as exc:
                if stop.is_set():
                    return
                log.warning("fetch failed; retrying", error=describe(exc))
                await asyncio.sleep(0.5)
                continue
            for msg in msgs:
                try:
                    yield Notification(envelopes_of(msg.data), msg)
                except msgspec.DecodeError as exc:
                    log.error("unreadable notification", error=describe(exc))
                    yield Notification([], msg)

    async def close(self) -> None:
        if self._nc is not None:
            await self._nc.close()
