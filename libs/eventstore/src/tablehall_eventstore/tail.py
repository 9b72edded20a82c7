"""Tail: follow the global order from a position, forever, gap-safe."""

from __future__ import annotations

from collections.abc import AsyncIterator

from .models import RecordedEvent
from .store import EventStore


class Tail:
    """`async for event in Tail(store, after_position): ...`

    Built on `read_all`, so it inherits its gap safety. It polls every
    `poll_interval` and wakes at once on appends made through the same
    EventStore. LISTEN/NOTIFY is deliberately not used: NOTIFY takes a global
    lock held through commit, which would serialise every append.
    """

    def __init__(
        self, store: EventStore, after_position: int, *, batch: int = 500, poll_interval: float = 0.05
    ) -> None:
        self.store = store
        self.position = after_position
        self.batch = batch
        self.poll_interval = poll_interval

    def __aiter__(self) -> AsyncIterator[RecordedEvent]:
        return self._follow()

    async def _follow(self) -> AsyncIterator[RecordedEvent]:
        while True:
            events = await self.store.read_all(self.position, self.batch)
            for event in events:
                self.position = event.position
                yield event
            if len(events) < self.batch:
                await self.store.wait_appended(self.poll_interval)
