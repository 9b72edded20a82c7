"""Limits on server streams (docs/security.md, «Limits»).

- streams open at once per user and method (`TABLEHALL_MAX_STREAMS_PER_USER`)
  and per method on this process (`TABLEHALL_MAX_STREAMS_PER_METHOD`): beyond,
  RESOURCE_EXHAUSTED `TOO_MANY_STREAMS`; our own services (role `service`)
  count only against the per-method limit;
- a server stream whose client does not read: its messages wait in a queue of
  `TABLEHALL_STREAM_SEND_QUEUE`; when the queue is full the producer waits for the
  reader, and when the reader takes nothing for `TABLEHALL_STREAM_STALL_SECONDS`
  the stream ends with RESOURCE_EXHAUSTED `SLOW_CONSUMER` (a watcher resumes from
  the last version it got). A full queue alone is no fault: a watcher catching up
  on a long history fills it faster than any client reads, and keeps reading.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from tablehall_platform.auth import Principal
from tablehall_platform.errors import ResourceExhausted


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


@dataclass(frozen=True)
class StreamLimits:
    per_user: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_STREAMS_PER_USER", 64))
    per_method: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_STREAMS_PER_METHOD", 5000))
    send_queue: int = field(default_factory=lambda: _env_int("TABLEHALL_STREAM_SEND_QUEUE", 64))
    # how long a full queue may wait for its reader to take a message
    stall_seconds: float = field(default_factory=lambda: float(os.environ.get("TABLEHALL_STREAM_STALL_SECONDS", "10")))


def slow_consumer() -> ResourceExhausted:
    return ResourceExhausted(
        "SLOW_CONSUMER",
        "The stream's reader fell too far behind; reopen it from the last version received.",
        ru="Клиент не успевает читать поток; откройте его снова с последней полученной версии.",
    )


class _End:
    __slots__ = ("error",)

    def __init__(self, error: BaseException | None) -> None:
        self.error = error


class StreamGate:
    """Counts the open streams of one server and bounds what each may hold."""

    def __init__(self, limits: StreamLimits) -> None:
        self.limits = limits
        self._per_method: Counter[str] = Counter()
        self._per_user: Counter[tuple[str, str]] = Counter()

    @contextlib.contextmanager
    def open(self, method: str, caller: Principal | None) -> Iterator[None]:
        user = (method, caller.user_id) if caller is not None and not caller.is_service else None
        if self._per_method[method] >= self.limits.per_method:
            raise ResourceExhausted(
                "TOO_MANY_STREAMS",
                f"This server holds its limit of {self.limits.per_method} streams of this method; retry later.",
                ru="Сервер держит предельное число таких потоков; повторите позже.",
                metadata={"limit": str(self.limits.per_method)},
            )
        if user is not None and self._per_user[user] >= self.limits.per_user:
            raise ResourceExhausted(
                "TOO_MANY_STREAMS",
                f"You hold {self.limits.per_user} streams of this method already; close one first.",
                ru=f"У вас уже открыто {self.limits.per_user} таких потоков; закройте один.",
                metadata={"limit": str(self.limits.per_user)},
            )
        self._per_method[method] += 1
        if user is not None:
            self._per_user[user] += 1
        try:
            yield
        finally:
            self._per_method[method] -= 1
            if user is not None:
                self._per_user[user] -= 1
                if self._per_user[user] <= 0:
                    del self._per_user[user]

    async def bounded(self, source: AsyncIterator[Any]) -> AsyncIterator[Any]:
        """`source`'s items through a queue of at most `send_queue`.

        The source runs ahead in its own task; when the queue is full it waits
        for the reader, and a reader that takes nothing for `stall_seconds`
        ends the stream with SLOW_CONSUMER (after what is queued). A reader
        that stops reading therefore holds at most `send_queue` messages.
        """
        queue: asyncio.Queue[Any] = asyncio.Queue()
        limit = self.limits.send_queue
        taken = asyncio.Event()  # set whenever the reader takes a message

        async def room() -> bool:
            """Wait until the queue has room; False when the reader stalled."""
            while queue.qsize() >= limit:
                taken.clear()
                try:
                    await asyncio.wait_for(taken.wait(), self.limits.stall_seconds)
                except TimeoutError:
                    return False
            return True

        async def produce() -> None:
            try:
                async for item in source:
                    if queue.qsize() >= limit and not await room():
                        queue.put_nowait(_End(slow_consumer()))
                        return
                    queue.put_nowait(item)
                queue.put_nowait(_End(None))
            except asyncio.CancelledError:
                raise
            except BaseException as exc:
                queue.put_nowait(_End(exc))
            finally:
                with contextlib.suppress(Exception):
                    await source.aclose()  # type: ignore[attr-defined]

        task = asyncio.create_task(produce())
        try:
            while True:
                item = await queue.get()
                taken.set()
                if isinstance(item, _End):
                    if item.error is not None:
                        raise item.error
                    return
                yield item
        finally:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
