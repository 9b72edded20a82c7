"""What the timer does when something is due: lease first, then the match service.

The scheduler's `Executor`: it acts only on tables whose lease it holds (or
takes now), calls the match service and turns the answer into a `Verdict`,
with the retry policy of the timer contract:

- made / duplicate / taken (decided meanwhile, game over) / gone: done;
- CLOCK_NOT_EXPIRED (the match's clock is behind ours): again shortly;
- UNAVAILABLE / ABORTED / DEADLINE_EXCEEDED: again with exponential backoff;
- anything else: logged, again with a longer backoff (a deadline is never dropped);
- the lease is another live instance's: look again when it would expire.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import structlog

from tablehall_platform.logs import describe
from tablehall_stream.names import stream_id
from tablehall_timer.leases import TimerLeases
from tablehall_timer.match_client import Answer, MatchClient
from tablehall_timer.schedule import CloseIdle, Fire, TableClock
from tablehall_timer.scheduler import ELSEWHERE, Verdict, wall_ms

log = structlog.get_logger("timer")

EARLY_RETRY_MS = 250
RETRY_BASE_MS = 100
RETRY_CAP_MS = 5_000
FAILED_CAP_MS = 30_000
DONE = {Answer.MADE, Answer.DUPLICATE, Answer.TAKEN, Answer.GONE, Answer.NOT_APPLIED}


def backoff_ms(attempt: int, base_ms: int, cap_ms: int) -> int:
    """Exponential backoff with full jitter in its upper half."""
    ceiling = min(cap_ms, base_ms * (1 << min(attempt, 16)))
    return ceiling // 2 + random.randint(0, ceiling // 2)


class TimerActions:
    def __init__(self, leases: TimerLeases, match: MatchClient, clock_ms: Callable[[], int] = wall_ms) -> None:
        self.leases = leases
        self.match = match
        self.clock_ms = clock_ms
        self._background: set[asyncio.Task[Any]] = set()

    async def _lease(self, table: TableClock) -> Verdict | None:
        """None when the table is ours to act on; else when to look again."""
        answer = await self.leases.ensure(stream_id(table.table_id))
        if answer.ours:
            return None
        return Verdict(ELSEWHERE, self.clock_ms() + int(answer.remaining_s * 1000) + random.randint(20, 120))

    def _verdict(self, answer: Answer, attempt: int, table: TableClock, what: str) -> Verdict:
        now = self.clock_ms()
        if answer in DONE:
            return Verdict(answer.value)
        if answer is Answer.EARLY:
            return Verdict(answer.value, now + EARLY_RETRY_MS)
        if answer is Answer.RETRY:
            log.warning("match unavailable; retrying", table=table.table_id, what=what, error=self.match.last_error)
            return Verdict(answer.value, now + backoff_ms(attempt, RETRY_BASE_MS, RETRY_CAP_MS))
        log.error("timer action refused; retrying", table=table.table_id, what=what, error=self.match.last_error)
        return Verdict(answer.value, now + backoff_ms(attempt, 1000, FAILED_CAP_MS))

    async def fire(self, table: TableClock, action: Fire, attempt: int) -> Verdict:
        elsewhere = await self._lease(table)
        if elsewhere is not None:
            return elsewhere
        decision = action.decision
        answer = await self.match.submit_default(table.table_id, decision.key)
        if answer is Answer.MADE:
            log.info(
                "clock ran out; default move made",
                table=table.table_id,
                decision=decision.key,
                seat=decision.seat,
                late_ms=self.clock_ms() - table.fires_at_ms(decision),
            )
        return self._verdict(answer, attempt, table, decision.key)

    async def close_idle(self, table: TableClock, action: CloseIdle, attempt: int) -> Verdict:
        elsewhere = await self._lease(table)
        if elsewhere is not None:
            return elsewhere
        answer = await self.match.close_idle(table.table_id, f"idle-close-{action.last_move_ms}")
        if answer is Answer.MADE:
            log.info("idle table closed", table=table.table_id, last_move_ms=action.last_move_ms)
            return Verdict("closed")
        return self._verdict(answer, attempt, table, "idle-close")

    def forget(self, table_id: str) -> None:
        self.leases.forget(stream_id(table_id))
        if not self.leases.recorded(stream_id(table_id)):
            return
        task = asyncio.create_task(self._release(stream_id(table_id)))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _release(self, stream_id: str) -> None:
        try:
            await self.leases.release(stream_id)
        except Exception as exc:  # an unreleased lease only expires later
            log.warning("lease release failed", stream=stream_id, error=describe(exc))

    async def close(self) -> None:
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
