"""Append hints: a process that appends tells the others of its deployment at once, over core NATS,
so the followers of the global order in the processes that listen (the publisher, the
projection's live feeds and read models) read now instead of at their next poll (50 ms: the
spectators' latency when each service runs in its own process). A hint carries nothing and may be lost: PostgreSQL stays
the only source of the events, and a follower that misses one reads at its next poll as before.
In `tablehall up` every follower shares the appending process's store, which wakes them itself.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import nats
import structlog
from prometheus_client import Counter

from .publisher import NatsNames
from .store import EventStore

log = structlog.get_logger("eventstore.hints")

SENT = Counter("tablehall_append_hints_sent_total", "Append hints this process sent to the others")
RECEIVED = Counter("tablehall_append_hints_received_total", "Append hints from other processes")


def subject(names: NatsNames) -> str:
    """The hints' subject, outside the JetStream stream's `<prefix>.events.>`."""
    return f"{names.prefix}.appended"


# At most one hint this often: the appends between make one (at a few hundred group commits a
# second, a hint each cost the match about 6 % of its CPU, and its followers a read each)
EVERY_S = 0.005


class AppendHints:
    """Sends a hint after this process's appends (the first at once, then at most one every
    `every_s`) and, if `listen`, wakes this process's store on the others' hints (where a
    follower's latency matters: each wake costs its followers a read)."""

    def __init__(
        self,
        store: EventStore,
        nats_url: str,
        *,
        listen: bool,
        names: NatsNames | None = None,
        every_s: float = EVERY_S,
    ) -> None:
        self.store = store
        self.nats_url = nats_url
        self.listen = listen
        self.subject = subject(names or NatsNames.from_env())
        self.every_s = every_s
        self._nc: Any = None
        self._queued = False
        self._last_sent = float("-inf")
        self.sent = 0  # hints sent and heard, by this instance
        self.heard = 0

    async def start(self) -> None:
        # no_echo: a process's own hints never come back to it (its store woke already)
        self._nc = await nats.connect(self.nats_url, no_echo=True, max_reconnect_attempts=-1)
        if self.listen:
            await self._nc.subscribe(self.subject, cb=self._received)
        self.store.append_listeners.append(self._appended)

    async def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.store.append_listeners.remove(self._appended)
        if self._nc is not None:
            with contextlib.suppress(Exception):
                await self._nc.close()
            self._nc = None

    async def _received(self, msg: Any) -> None:
        RECEIVED.inc()
        self.heard += 1
        self.store.notice_appended()

    def _appended(self) -> None:
        if not self._queued and self._nc is not None:
            self._queued = True
            loop = asyncio.get_running_loop()
            loop.call_later(max(0.0, self._last_sent + self.every_s - loop.time()), self._send)

    def _send(self) -> None:
        self._queued = False
        self._last_sent = asyncio.get_running_loop().time()
        if self._nc is None or not self._nc.is_connected:
            return  # the followers poll meanwhile
        SENT.inc()
        self.sent += 1
        task = asyncio.ensure_future(self._nc.publish(self.subject, b""))
        task.add_done_callback(_retrieved)


def _retrieved(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("append hint not sent", error=repr(task.exception()))
