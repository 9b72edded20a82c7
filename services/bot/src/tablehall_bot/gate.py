"""The bot's slots, earliest deadline first.

At most `slots` tables are decided at once; the others wait, and the one whose bot decision's
clock runs out first goes next (ties in the order they came). Behind a backlog this is what keeps
the short clocks (an auction's next bid) from running out behind long ones (a turn's 30 s): a
first-come order makes every decision wait the whole backlog, whatever its clock.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class DeadlineGate:
    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"a gate needs at least one slot, got {slots}")
        self._free = slots
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # (deadline ms, arrival, wake)
        self._arrivals = itertools.count()

    @property
    def waiting(self) -> int:
        """Tables waiting for a slot (cancelled waits included until they come up)."""
        return len(self._waiting)

    @asynccontextmanager
    async def slot(self, deadline_ms: int) -> AsyncIterator[None]:
        """Hold a slot: at once if one is free and nobody waits, else when every earlier deadline
        has had its turn."""
        if self._free > 0 and not self._waiting:
            self._free -= 1
        else:
            wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (deadline_ms, next(self._arrivals), wake))
            try:
                await wake
            except asyncio.CancelledError:
                if wake.done() and not wake.cancelled():  # handed a slot as it was cancelled: pass it on
                    self._release()
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        while self._waiting:
            _, _, wake = heapq.heappop(self._waiting)
            if not wake.done():  # skip waits cancelled meanwhile
                wake.set_result(None)
                return
        self._free += 1
