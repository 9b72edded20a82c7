"""Every warning says what failed: the exception's type and message, never an empty "error"."""

from __future__ import annotations

import asyncio

import nats
import structlog
from tablehall_bot.feed import Feed

from tablehall_platform.logs import describe


class _FailingOnce:
    """Fails the first fetch with a message-less exception, then asks the feed to stop."""

    def __init__(self, stop: asyncio.Event) -> None:
        self.stop = stop
        self.calls = 0

    async def fetch(self, batch: int, timeout: float) -> list[object]:  # noqa: ASYNC109 (the nats API)
        self.calls += 1
        if self.calls == 1:
            raise ConnectionResetError()  # str() of it is ""
        self.stop.set()
        raise nats.errors.TimeoutError()


def test_describe_names_the_type_and_the_message() -> None:
    assert describe(TimeoutError()) == "TimeoutError"
    assert describe(ValueError("no such stream")) == "ValueError: no such stream"


async def test_a_failed_fetch_is_logged_with_its_exception_type() -> None:
    stop = asyncio.Event()
    feed = Feed("nats://unused", "unused", 5.0)
    feed._sub = _FailingOnce(stop)
    with structlog.testing.capture_logs() as logs:
        received = [note async for note in feed.notifications(stop)]
    assert received == []
    assert [(log["event"], log["error"]) for log in logs] == [("fetch failed; retrying", "ConnectionResetError")]


class _EmptyThenStop:
    """Fetches that find nothing, as nats-py 2.16 says it (the plain TimeoutError, and its own)."""

    def __init__(self, stop: asyncio.Event) -> None:
        self.stop = stop
        self.calls = 0

    async def fetch(self, batch: int, timeout: float) -> list[object]:  # noqa: ASYNC109 (the nats API)
        self.calls += 1
        if self.calls == 4:
            self.stop.set()
        raise TimeoutError() if self.calls % 2 else nats.errors.TimeoutError()


async def test_an_empty_fetch_is_no_warning() -> None:
    stop = asyncio.Event()
    feed = Feed("nats://unused", "unused", 5.0)
    feed._sub = _EmptyThenStop(stop)
    with structlog.testing.capture_logs() as logs:
        received = [note async for note in feed.notifications(stop)]
    assert received == [] and feed._sub.calls == 4
    assert logs == []
