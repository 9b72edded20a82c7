"""The followers of one process share their reads of the global order (`RecentOrder`): an
append read once for all of them, every answer what a read of PostgreSQL would give."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import pytest

from tablehall_eventstore import EventStore, NewEvent, RecordedEvent
from tablehall_eventstore.recent import RecentOrder


def _event(position: int) -> RecordedEvent:
    return RecordedEvent(uuid.uuid4(), "s", position, position, "E", 1, b"{}", {}, datetime.now(UTC))


class _Order:
    """A global order that only grows, read as `read_all` reads it, counting the reads."""

    def __init__(self) -> None:
        self.events: list[RecordedEvent] = []
        self.appends = 0
        self.reads: list[tuple[int, int]] = []
        self.gate: asyncio.Event | None = None  # when set: reads wait for it

    def append(self, n: int = 1) -> None:
        for _ in range(n):
            self.events.append(_event(len(self.events) + 1))
        self.appends += 1

    def generation(self) -> int:
        return self.appends

    async def fetch(self, after: int, limit: int) -> list[RecordedEvent]:
        self.reads.append((after, limit))
        if self.gate is not None:
            await self.gate.wait()
        return [e for e in self.events if e.position > after][:limit]

    def truth(self, after: int, limit: int) -> list[int]:
        return [e.position for e in self.events if e.position > after][:limit]


def _positions(events: list[RecordedEvent]) -> list[int]:
    return [e.position for e in events]


async def _read(recent: RecentOrder, order: _Order, after: int, limit: int = 100) -> list[int]:
    return _positions(await recent.read_all(after, limit, order.generation, order.fetch))


async def test_followers_woken_by_one_append_share_one_read() -> None:
    order, recent = _Order(), RecentOrder()
    order.append(3)
    assert await _read(recent, order, 0) == [1, 2, 3]
    order.append(2)
    order.gate = asyncio.Event()
    followers = [asyncio.create_task(_read(recent, order, 3)) for _ in range(4)]
    await asyncio.sleep(0)
    order.gate.set()
    assert await asyncio.gather(*followers) == [[4, 5]] * 4
    assert order.reads == [(0, 100), (3, recent.chunk)]


async def test_a_follower_inside_the_window_is_answered_from_it_and_only_what_follows_is_read() -> None:
    order, recent = _Order(), RecentOrder()
    order.append(10)
    assert await _read(recent, order, 0, 10) == list(range(1, 11))
    assert await _read(recent, order, 4, 3) == [5, 6, 7]  # a full answer from memory
    assert order.reads == [(0, 10)]
    order.append(2)
    assert await _read(recent, order, 4) == list(range(5, 13))  # the window, then what follows it
    assert order.reads == [(0, 10), (10, recent.chunk)]


async def test_after_an_append_a_read_begins_again_even_when_one_is_in_flight() -> None:
    order, recent = _Order(), RecentOrder()
    order.append()
    await _read(recent, order, 0)
    order.gate = asyncio.Event()
    first = asyncio.create_task(_read(recent, order, 1))
    await asyncio.sleep(0)  # its read is in flight and has not seen what comes next
    order.append()
    late = asyncio.create_task(_read(recent, order, 1))
    await asyncio.sleep(0)
    order.gate.set()
    assert await first == [2] and await late == [2]
    assert len(order.reads) == 3  # the late follower did not settle for the older read


async def test_a_follower_behind_the_window_reads_for_itself_and_the_window_stays() -> None:
    order, recent = _Order(), RecentOrder(keep=4)
    order.append(10)
    assert await _read(recent, order, 6) == [7, 8, 9, 10]
    assert await _read(recent, order, 0, 3) == [1, 2, 3]
    assert (recent.lo, recent.hi) == (6, 10)


async def test_the_window_keeps_its_newest_events_and_answers_past_a_trim_by_reading() -> None:
    order, recent = _Order(), RecentOrder(keep=5, chunk=3)
    order.append(2)
    await _read(recent, order, 0)
    for _ in range(4):
        order.append(3)
        await _read(recent, order, recent.hi)
    assert len(recent.events) == 5 and (recent.lo, recent.hi) == (9, 14)
    assert recent.positions == [10, 11, 12, 13, 14]
    assert await _read(recent, order, 3, 4) == [4, 5, 6, 7]  # outside: a read of its own


@pytest.mark.parametrize("seed", range(20))
async def test_every_answer_is_what_a_read_would_give(seed: int) -> None:
    rng = random.Random(seed)
    order, recent = _Order(), RecentOrder(keep=rng.choice([3, 8, 50]), chunk=rng.choice([2, 5, 500]))
    positions = [0, 0, 0]
    for _ in range(200):
        if rng.random() < 0.3:
            order.append(rng.randint(1, 4))
        i = rng.randrange(3)
        limit = rng.choice([1, 3, 500])
        after = positions[i] if rng.random() < 0.9 else rng.randint(0, max(1, len(order.events)))
        got = await _read(recent, order, after, limit)
        assert got == order.truth(after, limit)
        if got:
            positions[i] = got[-1]


async def test_a_failed_shared_read_fails_every_follower_waiting_for_it_and_the_next_read_reads() -> None:
    order, recent = _Order(), RecentOrder()
    order.append()
    await _read(recent, order, 0)
    order.append()
    order.gate = asyncio.Event()
    real = order.fetch

    async def broken(after: int, limit: int) -> list[RecordedEvent]:
        await real(after, limit)
        raise ConnectionError("the database went away")

    followers = [asyncio.create_task(recent.read_all(1, 10, order.generation, broken)) for _ in range(2)]
    await asyncio.sleep(0)
    order.gate.set()
    results = await asyncio.gather(*followers, return_exceptions=True)
    assert all(isinstance(r, ConnectionError) for r in results)
    order.gate = None
    assert await _read(recent, order, 1) == [2]


async def test_a_stopped_reader_leaves_its_waiters_to_read_themselves() -> None:
    order, recent = _Order(), RecentOrder()
    order.append()
    await _read(recent, order, 0)
    order.append()
    order.gate = asyncio.Event()
    reader = asyncio.create_task(_read(recent, order, 1))
    await asyncio.sleep(0)
    waiter = asyncio.create_task(_read(recent, order, 1))
    await asyncio.sleep(0)
    reader.cancel()
    await asyncio.sleep(0)
    order.gate.set()
    assert await waiter == [2]
    with pytest.raises(asyncio.CancelledError):
        await reader


async def test_the_store_reads_an_append_once_for_every_follower(
    fresh_store: Callable[[], Awaitable[EventStore]],
) -> None:
    store = await fresh_store()
    await store.append("a", 0, [NewEvent("E", 1, b"{}")])
    head = [e.position for e in await store.read_all(0)]
    reads = store.recent.reads
    await store.append("b", 0, [NewEvent("E", 1, b"{}"), NewEvent("E", 1, b"{}")])
    answers = await asyncio.gather(*(store.read_all(head[-1], 500) for _ in range(4)))
    assert [[e.position for e in a] for a in answers] == [[head[-1] + 1, head[-1] + 2]] * 4
    assert store.recent.reads == reads + 1
