"""One table followed in memory for its live viewers.

The feed holds the table's events and its folded state at the head. When an
event arrives it is folded once and rendered once per role being watched
(seat 0, seat 1, spectator...), whatever the number of watchers; watchers
pick the frames up from there. Versions a watcher needs from before it
joined (a resume, a delayed spectator) are rendered by its own `Cursor`,
which replays the feed's events privately.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from tablehall_eventstore import RecordedEvent
from tablehall_projection.access import Role
from tablehall_projection.live.frames import Frame, render
from tablehall_stream.fold import TableFold

RoleKey = tuple[str, int | None]


class Feed:
    # frames kept per role; a watcher further behind replays with its cursor
    RETAIN = 2048

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.events: list[RecordedEvent] = []
        self.head = TableFold(table_id)
        self.users = 0
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.buffered: list[RecordedEvent] = []
        self._roles: Counter[RoleKey] = Counter()
        self._frames: dict[RoleKey, dict[int, Frame]] = {}
        self._snapshots: dict[RoleKey, Frame] = {}
        self._tick = asyncio.Event()

    @property
    def version(self) -> int:
        return self.head.version

    def load(self, events: list[RecordedEvent]) -> None:
        for event in events:
            self._apply(event)

    def offer(self, event: RecordedEvent) -> bool:
        """Apply the next event; False when events are missing before it (caller repairs)."""
        if event.version <= self.version:
            return True  # already folded (loaded from the store before the tail delivered it)
        if event.version != self.version + 1:
            return False
        self._apply(event)
        return True

    def _apply(self, event: RecordedEvent) -> None:
        lines = self.head.apply(event, journal=bool(self._roles))
        self.events.append(event)
        self._snapshots.clear()
        for key, frames in self._frames.items():
            frames[event.version] = render(self.head, Role(*key), lines)
            frames.pop(event.version - self.RETAIN, None)
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()

    def register(self, role: Role) -> None:
        """From now on, render every new version for `role`."""
        self._roles[role.key] += 1
        self._frames.setdefault(role.key, {})

    def unregister(self, role: Role) -> None:
        self._roles[role.key] -= 1
        if self._roles[role.key] <= 0:
            del self._roles[role.key]
            self._frames.pop(role.key, None)
            self._snapshots.pop(role.key, None)

    def frame(self, role: Role, version: int) -> Frame | None:
        return self._frames.get(role.key, {}).get(version)

    def snapshot(self, role: Role) -> Frame:
        """The head for `role` without journal lines, shared by everyone joining now."""
        frame = self._snapshots.get(role.key)
        if frame is None:
            frame = self._snapshots[role.key] = render(self.head, role, [])
        return frame

    async def wait_beyond(self, version: int) -> None:
        while self.version <= version:
            await self._tick.wait()


class Cursor:
    """A watcher's private replay of the feed's events, for versions the feed did not render for it."""

    def __init__(self, feed: Feed, role: Role) -> None:
        self.feed = feed
        self.role = role
        self.fold: TableFold | None = None

    def frame_at(self, version: int, journal: bool = True) -> Frame:
        fold = self.fold
        if fold is None or fold.version >= version:
            fold = self.fold = TableFold(self.feed.table_id)
        events = self.feed.events
        while fold.version < version - 1:
            fold.apply(events[fold.version])
        lines: list[Any] = fold.apply(events[version - 1], journal=journal) if version > 0 else []
        return render(fold, self.role, lines)
