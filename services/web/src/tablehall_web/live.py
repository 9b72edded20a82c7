"""A table's live page feed: server-sent events from the public live view (WatchTable).

Two kinds of event, each a JSON object:

- `journal`: every stream version as it arrives (its journal lines in ru and en, the open
  decisions with their deadlines, `finished`), none skipped;
- `view`: what the page draws. For a seat, the match's view with its legal moves
  (GetTableView), fetched again whenever a newer version is known; versions that arrive while
  a fetch runs are coalesced into one next fetch (latest wins). For a spectator, the feed's
  own state (the projection applies the table's spectator delay), also latest wins.

`view` versions only ever grow on one connection: the page never draws a state older than the
last one sent.

While a seated player's page is open, the feed holds the seat's presence (HoldPresence), as
`tablehall play` does while it shows the board: the first clocks wait for it, a host cannot
hand a present player's seat to a bot, and closing the last page makes the seat absent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import web

from tablehall_sdk import Client, Role, TablehallError, TableView, Update
from tablehall_web.wire import error_body, plain

HEARTBEAT_S = 15.0
PRESENCE_RETRY_S = 2.0
# answers that mean this caller holds no presence at this table (not seated, the table gone)
NOT_PRESENT = frozenset({"PERMISSION_DENIED", "FAILED_PRECONDITION", "NOT_FOUND", "INVALID_ARGUMENT"})


def view_json(view: TableView) -> dict[str, Any]:
    body: dict[str, Any] = plain(view)
    body["legal"] = [{"kind": c.kind, "args": plain(c.args)} for c in view.legal]
    return body


def update_view_json(update: Update) -> dict[str, Any]:
    """A spectator's view from a feed message (no legal moves: a spectator has none)."""
    body: dict[str, Any] = plain(update)
    body.pop("journal", None)
    body.update(moves=[], legal=[], teams=[])
    return body


class Feed:
    """One page's event stream: journal events as they come, views coalesced and increasing."""

    def __init__(self, client: Client, table: str, role: Role, response: web.StreamResponse) -> None:
        self.client, self.table, self.role, self.response = client, table, role, response
        self._write_lock = asyncio.Lock()
        self._known = 0  # the newest version the feed announced
        self._sent = -1  # the version of the last view sent
        self._latest_update: Update | None = None
        self._wake = asyncio.Event()
        self._ended = False

    async def send(self, event: str, data: dict[str, Any]) -> None:
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        async with self._write_lock:
            await self.response.write(f"event: {event}\ndata: {payload}\n\n".encode())

    async def run(self) -> None:
        tasks = [asyncio.create_task(self._follow()), asyncio.create_task(self._views())]
        tasks.append(asyncio.create_task(self._heartbeat()))
        if self.role in (Role.DEFAULT, Role.SEAT):
            tasks.append(asyncio.create_task(self._presence()))
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                failure = task.exception()
                if failure is not None and not isinstance(failure, ConnectionResetError):
                    raise failure  # (a page that went away, ConnectionResetError, ends its feed quietly)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task

    async def _follow(self) -> None:
        try:
            async for update in self.client.watch(self.table, role=self.role):
                lines = [{"version": j.version, "code": j.code, "ru": j.ru, "en": j.en} for j in update.journal]
                await self.send(
                    "journal",
                    {
                        "version": update.version,
                        "snapshot": update.snapshot,
                        "lines": lines,
                        "decisions": plain(update.decisions),
                        "finished": update.finished,
                    },
                )
                self._known = max(self._known, update.version)
                self._latest_update = update
                self._wake.set()
        except TablehallError as error:
            await self.send("failure", error_body(error))
        self._ended = True
        self._wake.set()
        await asyncio.Event().wait()  # the page keeps its last view; the heartbeat keeps the line

    async def _views(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._known <= self._sent:
                continue
            if self.role in (Role.SPECTATOR, Role.AUDITOR) and self._latest_update is not None:
                body = update_view_json(self._latest_update)
            else:
                try:
                    body = view_json(await self.client.view(self.table, self.role))
                except TablehallError as error:
                    await self.send("failure", error_body(error))
                    continue
            if body["version"] > self._sent:
                self._sent = body["version"]
                await self.send("view", body)

    async def _presence(self) -> None:
        """Hold the seat's presence while the page is open (a caller without a seat holds none)."""
        while True:
            try:
                async for _ in self.client.hold_presence(self.table):
                    pass
                return  # the lobby ended it (the table is over)
            except TablehallError as error:
                if error.code in NOT_PRESENT:
                    return
            await asyncio.sleep(PRESENCE_RETRY_S)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            async with self._write_lock:
                await self.response.write(b": keep-alive\n\n")
