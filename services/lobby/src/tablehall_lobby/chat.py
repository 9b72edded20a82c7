"""Chat of a table: its own stream `chat-{table_id}`, so chat never contends
with the match's writer. Messages are length-limited (rules.chat_text) and
rate-limited per user and table (a sliding window in this process)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from tablehall_eventstore import ConcurrencyConflict, EventStore, NewEvent
from tablehall_lobby import events as ev
from tablehall_lobby.refusals import TooMany, chat_rate_limited
from tablehall_platform.errors import Conflict
from tablehall_platform.input_policy import INT32_MAX, token_int

ATTEMPTS = 5


@dataclass(frozen=True)
class Message:
    number: int
    posted: ev.MessagePosted


class RateLimiter:
    """At most `limit` events per `window` seconds per key; `refusal(retry_seconds)` past it."""

    def __init__(
        self,
        limit: int,
        window: float,
        clock: Callable[[], float] = time.monotonic,
        refusal: Callable[[int], TooMany] = chat_rate_limited,
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.refusal = refusal
        self._seen: dict[Hashable, deque[float]] = {}

    def hit(self, key: Hashable) -> None:
        now = self.clock()
        seen = self._seen.setdefault(key, deque())
        while seen and seen[0] <= now - self.window:
            seen.popleft()
        if len(seen) >= self.limit:
            raise self.refusal(max(1, int(seen[0] + self.window - now + 0.999)))
        seen.append(now)
        if len(self._seen) > 10_000:  # forget idle keys
            for stale in [k for k, v in self._seen.items() if not v or v[-1] <= now - self.window]:
                del self._seen[stale]


class Chat:
    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def post(self, table_id: str, message: ev.MessagePosted, command_id: str) -> Message:
        stream = ev.chat_stream(table_id)
        event = NewEvent(ev.CHAT_PREFIX + "MessagePosted", 1, ev.CHAT_CODEC.encode(message), {"command_id": command_id})
        for _ in range(ATTEMPTS):
            version = await self.store.stream_version(stream)
            try:
                result = await self.store.append(stream, version, [event], command_id=command_id)
            except ConcurrencyConflict:
                continue
            if result.duplicate:
                [earlier] = await self.store.read_stream(stream, result.first_version, result.first_version)
                return Message(earlier.version, _posted(earlier.type, earlier.payload))
            return Message(result.first_version, message)
        raise Conflict("VERSION_CONFLICT", "The chat is busy; retry.", ru="Чат занят; повторите.")

    async def page(self, table_id: str, after: str, size: int) -> tuple[list[Message], str]:
        start = token_int(after, high=INT32_MAX - size) if after else 0  # start + size is a version
        events = await self.store.read_stream(ev.chat_stream(table_id), start + 1, start + size)
        messages = [Message(e.version, _posted(e.type, e.payload)) for e in events]
        return messages, str(messages[-1].number) if len(messages) == size else ""


def _posted(event_type: str, payload: bytes) -> ev.MessagePosted:
    decoded = ev.CHAT_CODEC.decode(event_type, payload)
    assert isinstance(decoded, ev.MessagePosted)
    return decoded
