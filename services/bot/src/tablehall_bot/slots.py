"""The bot's thinking slots: at most N tables at once, the newest waiting table first.

Under a backlog (thousands of tables starting together, a server behind) the oldest waiting
decisions are past saving: by the time their turn came in arrival order their clocks would have
run out, the timer would have played them, and every decision served would be a late one. Served
newest first, a decision that has just opened is answered within its clock, and the old ones go
to the timer as they would have anyway. Without a backlog nobody waits and the order is moot.
"""

from __future__ import annotations

import asyncio
from types import TracebackType


class NewestFirstSlots:
    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"at least one slot, got {slots}")
        self._free = slots
        self._waiters: list[asyncio.Future[None]] = []

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    async def acquire(self) -> None:
        if self._free > 0:
            self._free -= 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            elif waiter.done() and not waiter.cancelled():
                self.release()  # handed the slot as it was cancelled: pass it on
            raise

    def release(self) -> None:
        while self._waiters:
            waiter = self._waiters.pop()  # the newest
            if not waiter.done():
                waiter.set_result(None)
                return
        self._free += 1

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()
