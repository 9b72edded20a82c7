"""The newest facts of many tables, read in batches: one query for every view that asks together.

A player's view must reflect every lobby fact (a removal, a privacy change) committed before
the call, so each view reads its table's stream past the version the match holds. Under load
those reads were one query each, waiting for a pooled connection behind the commits, and
behind the table's command lock: a read cost more than a write. Here the views' reads of all
tables are grouped, as the group commit groups appends: while one batch is being read, the
reads that arrive wait for the next, which begins when it ends and reads them all in one
statement. A read never joins a batch already under way (it may have begun before the fact
its caller must see), so every caller is served by a read begun after it asked, and waits for
at most two batches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping

from tablehall_eventstore import StoredFact

ReadMany = Callable[[Mapping[str, int]], Awaitable[dict[str, list[StoredFact]]]]


class FactReads:
    def __init__(self, read_many: ReadMany) -> None:
        self._read_many = read_many
        # the next batch: stream -> the lowest version asked for, and the callers' answer
        self._from: dict[str, int] = {}
        self._answer: asyncio.Future[dict[str, list[StoredFact]]] | None = None
        self._reading: asyncio.Task[None] | None = None

    async def after(self, stream_id: str, version: int) -> list[StoredFact]:
        """The facts of `stream_id` past `version`, read after this call began."""
        loop = asyncio.get_running_loop()
        if self._answer is None:
            self._answer = loop.create_future()
        answer = self._answer
        low = self._from.get(stream_id)
        self._from[stream_id] = version + 1 if low is None else min(low, version + 1)
        if self._reading is None:
            self._reading = asyncio.create_task(self._read_batches())
        found = await asyncio.shield(answer)
        return [f for f in found.get(stream_id, ()) if f.version > version]

    async def _read_batches(self) -> None:
        try:
            while self._answer is not None:
                batch, answer = self._from, self._answer
                self._from, self._answer = {}, None  # who asks from now on waits for the next batch
                try:
                    answer.set_result(await self._read_many(batch))
                except Exception as exc:
                    answer.set_exception(exc)
                    answer.exception()  # its callers have it; no "never retrieved" warning
        finally:
            self._reading = None
