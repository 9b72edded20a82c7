"""The newest facts of many tables, read in batches: one query for the views that ask together.

A player's view must reflect every lobby fact (a removal, a privacy change) committed before
the call, so each view reads its table's stream past the version the match holds. Under load
those reads were one query each, waiting for a pooled connection behind the commits, and
behind the table's command lock: a read cost more than a write. Here the views' reads of all
tables are grouped, as the group commit groups appends: a read joins the batch being formed,
which begins at once while fewer than `in_flight` batches are being read, else as soon as one
of them ends, and reads every stream of it in one statement. A read never joins a batch already
under way (it may have begun before the fact its caller must see), so every caller is served
by a read begun after it asked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping

from tablehall_eventstore import StoredFact

ReadMany = Callable[[Mapping[str, int]], Awaitable[dict[str, list[StoredFact]]]]
Found = dict[str, list[StoredFact]]


class FactReads:
    def __init__(self, read_many: ReadMany, in_flight: int = 4) -> None:
        self._read_many = read_many
        self._in_flight = in_flight
        self._reading: set[asyncio.Task[None]] = set()
        # the batch being formed: stream -> the lowest version asked for, and its callers' answer
        self._from: dict[str, int] = {}
        self._answer: asyncio.Future[Found] | None = None

    async def after(self, stream_id: str, version: int) -> list[StoredFact]:
        """The facts of `stream_id` past `version`, read after this call began."""
        if self._answer is None:
            self._answer = asyncio.get_running_loop().create_future()
        answer = self._answer
        low = self._from.get(stream_id)
        self._from[stream_id] = version + 1 if low is None else min(low, version + 1)
        self._begin_if_room()
        found = await asyncio.shield(answer)
        return [f for f in found.get(stream_id, ()) if f.version > version]

    def _begin_if_room(self) -> None:
        if self._answer is None or len(self._reading) >= self._in_flight:
            return
        batch, answer = self._from, self._answer
        self._from, self._answer = {}, None  # who asks from now on joins the next batch
        task = asyncio.create_task(self._read(batch, answer))
        self._reading.add(task)
        task.add_done_callback(self._ended)

    async def _read(self, batch: Mapping[str, int], answer: asyncio.Future[Found]) -> None:
        try:
            answer.set_result(await self._read_many(batch))
        except Exception as exc:
            answer.set_exception(exc)
            answer.exception()  # its callers have it; no "never retrieved" warning

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._reading.discard(task)
        self._begin_if_room()
