"""Presence: a seated player is present while they hold at least one
presence stream to this lobby instance.

Opening the first stream records `lobby.PresenceChanged(present=true)`;
dropping the last records `present=false`. Changes for one user and table are
serialised and always write the current truth (streams held > 0), so a quick
drop-and-reopen never leaves a holder marked absent.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import structlog

from tablehall_lobby import rules
from tablehall_lobby.app import LobbyApp
from tablehall_lobby.identity import Actor
from tablehall_platform.logs import describe

log = structlog.get_logger("lobby.presence")

Key = tuple[str, str]


@dataclass(frozen=True)
class Tick:
    seat: int
    present: bool
    at_ms: int
    heartbeat: bool


class PresenceHub:
    def __init__(self, app: LobbyApp, heartbeat_seconds: float) -> None:
        self.app = app
        self.heartbeat_seconds = heartbeat_seconds
        self.held: dict[Key, int] = {}
        self._locks: dict[Key, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    async def _sync(self, key: Key) -> None:
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            await self.app.set_presence(key[0], key[1], self.held.get(key, 0) > 0)
        if key not in self.held and not lock.locked():
            self._locks.pop(key, None)

    async def _sync_logged(self, key: Key) -> None:
        try:
            await self._sync(key)
        except Exception as exc:
            log.warning("presence not recorded", table=key[0], user=key[1], error=describe(exc))

    async def hold(self, actor: Actor, table_id: str) -> AsyncIterator[Tick]:
        table = await self.app.tables.get(table_id)
        rules.require_open(table)
        seat = rules.own_seat(table, actor)
        key = (table_id, actor.user_id)
        self.held[key] = self.held.get(key, 0) + 1
        try:
            await self._sync(key)
            yield Tick(seat, True, self.app.now_ms(), False)
            while True:
                await asyncio.sleep(self.heartbeat_seconds)
                yield Tick(seat, True, self.app.now_ms(), True)
        finally:
            self.held[key] -= 1
            if self.held[key] == 0:
                del self.held[key]
            # the stream is gone (often cancelled): record the absence in the background
            task = asyncio.create_task(self._sync_logged(key))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def settle(self, within: float = 5.0) -> None:
        """Wait for pending presence writes (shutdown, tests)."""
        deadline = time.monotonic() + within
        while self._tasks and time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                await asyncio.wait(set(self._tasks), timeout=deadline - time.monotonic())
