"""One table followed in memory for its live viewers.

The feed holds the table's events and its folded state at the head. When an
event arrives it is folded once and rendered once per role being watched
(seat 0, seat 1, spectator...) and grain (every version, or one change a
command: `tablehall_eventstore.ends_command`), whatever the number of watchers; watchers
pick the frames up from there, and a frame is dropped once every watcher of
its role has taken it (a table's frames are whole views: kept for every
version, they grew a process by a hundred kilobytes a move). Versions a
watcher needs from before it joined (a resume, a delayed spectator) are
rendered by its own `Cursor`, which replays the feed's events privately.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from tablehall_eventstore import RecordedEvent, ends_command
from tablehall_projection import metrics
from tablehall_projection.access import Role
from tablehall_projection.live.frames import Frame, render
from tablehall_stream.fold import TableFold
from tablehall_stream.journal_lines import JournalLine

RoleKey = tuple[str, int | None]
FrameKey = tuple[str, int | None, bool]  # the role's key and whether its changes are whole commands


@dataclass(slots=True)
class Reader:
    """One watcher's place in the feed: the frames it was counted for are the versions after
    `joined`; it has taken them up to `taken`."""

    role: Role
    joined: int
    taken: int
    per_command: bool = False

    @property
    def key(self) -> FrameKey:
        return (*self.role.key, self.per_command)


def _decided_at(metadata: dict[str, Any]) -> float | None:
    """When the match decided a command (unix seconds), from its first event's `now_ms`."""
    now_ms = metadata.get("now_ms")
    return now_ms / 1000 if isinstance(now_ms, int | float) else None


@dataclass(slots=True)
class _Held:
    frame: Frame
    left: int  # watchers of the role yet to take it


class Feed:
    # versions behind the head a frame waits for a slow watcher; one further behind renders its
    # own with its cursor
    RETAIN = 256

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.events: list[RecordedEvent] = []
        self.head = TableFold(table_id)
        self.users = 0
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.buffered: list[RecordedEvent] = []
        self._roles: Counter[FrameKey] = Counter()
        self._frames: dict[FrameKey, dict[int, _Held]] = {}
        self._snapshots: dict[RoleKey, Frame] = {}
        # the journal lines of the versions since the last change a whole command closed, and
        # whether they are all there (lines are only made while someone watches)
        self._carried: list[JournalLine] = []
        self._carried_whole = True
        self._closed = 0  # that change's version
        self._tick = asyncio.Event()
        # the command being offered and when the match decided it: a live frame's delay is
        # measured from there (the first event carries `now_ms`, the last closes the change)
        self._deciding: tuple[Any, float | None] = (None, None)

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
        meta = event.metadata
        if "now_ms" in meta:  # a command's first event says when the match decided it
            self._deciding = (meta.get("command_id"), _decided_at(meta))
        if self._roles and "command_id" in meta and ends_command(meta):
            command_id, decided_at = self._deciding
            if decided_at is not None and command_id == meta["command_id"]:
                for frames in self._frames.values():
                    if (held := frames.get(event.version)) is not None:
                        held.frame.decided_at = decided_at
                metrics.FRAME_RENDERED.observe(max(0.0, time.time() - decided_at))
        return True

    def _apply(self, event: RecordedEvent) -> None:
        watched = bool(self._roles)
        lines = self.head.apply(event, journal=watched)
        self.events.append(event)
        self._snapshots.clear()
        version = event.version
        closes = ends_command(event.metadata)
        for key, frames in self._frames.items():
            name, seat, per_command = key
            if not per_command:
                frames[version] = _Held(render(self.head, Role(name, seat), lines), self._roles[key])
            elif closes and self._carried_whole:  # else each watcher's cursor renders the change
                frame = render(self.head, Role(name, seat), [*self._carried, *lines], since=self._closed)
                frames[version] = _Held(frame, self._roles[key])
            while frames and next(iter(frames)) <= version - self.RETAIN:  # kept in version order
                del frames[next(iter(frames))]
        if closes:
            self._carried, self._carried_whole, self._closed = [], True, version
        else:
            self._carried.extend(lines)
            self._carried_whole = self._carried_whole and watched
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()

    def register(self, role: Role, per_command: bool = False) -> Reader:
        """From now on, render every new version (`per_command`: every version that closes a
        command's change) for `role`, and keep it until the reader takes it."""
        reader = Reader(role, self.version, self.version, per_command)
        self._roles[reader.key] += 1
        self._frames.setdefault(reader.key, {})
        return reader

    def closes_change(self, version: int) -> bool:
        """Whether `version` (held here) closes a change for a watcher of whole commands."""
        return ends_command(self.events[version - 1].metadata)

    def unregister(self, reader: Reader) -> None:
        """The reader is gone: the frames it had yet to take wait for it no longer."""
        key = reader.key
        self._roles[key] -= 1
        if self._roles[key] <= 0:
            del self._roles[key]
            self._frames.pop(key, None)
            if not any(k[:2] == key[:2] for k in self._roles):
                self._snapshots.pop(reader.role.key, None)
            return
        frames = self._frames[key]
        for version in [v for v in frames if v > reader.taken]:
            self._release(frames, version)

    def take(self, reader: Reader, version: int) -> Frame | None:
        """The shared frame of `version` (after the reader's last), None if it is no longer kept."""
        reader.taken = version
        frames = self._frames.get(reader.key, {})
        held = frames.get(version)
        if held is None:
            return None
        self._release(frames, version)
        return held.frame

    @staticmethod
    def _release(frames: dict[int, _Held], version: int) -> None:
        held = frames[version]
        held.left -= 1
        if held.left <= 0:
            del frames[version]

    def frame(self, role: Role, version: int, per_command: bool = False) -> Frame | None:
        """The shared frame of `version`, if still kept (a look: nobody is counted as having taken it)."""
        held = self._frames.get((*role.key, per_command), {}).get(version)
        return held.frame if held is not None else None

    def kept(self, role: Role, per_command: bool = False) -> int:
        """How many frames of `role` are kept."""
        return len(self._frames.get((*role.key, per_command), {}))

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

    def frame_at(self, version: int, journal: bool = True, since: int | None = None) -> Frame:
        """The frame of `version`, with the journal lines of the versions after `since` (by
        default the one before)."""
        first = version if since is None else since + 1
        fold = self.fold
        if fold is None or fold.version >= first:
            fold = self.fold = TableFold(self.feed.table_id)
        events = self.feed.events
        while fold.version < first - 1:
            fold.apply(events[fold.version])
        lines: list[Any] = []
        while fold.version < version:
            lines.extend(fold.apply(events[fold.version], journal=journal))
        return render(fold, self.role, lines, since=first - 1)
