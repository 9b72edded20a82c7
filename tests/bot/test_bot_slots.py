"""The bot's thinking slots (`tablehall_bot.slots`): at most N at once; a backlog is served newest
first; a waiter cancelled never leaks a slot."""

from __future__ import annotations

import asyncio

import pytest
from tablehall_bot.slots import NewestFirstSlots


async def _queue(slots: NewestFirstSlots, names: list[str], order: list[str]) -> list[asyncio.Task[None]]:
    async def take(name: str) -> None:
        async with slots:
            order.append(name)
            await asyncio.sleep(0)

    tasks = []
    for name in names:
        tasks.append(asyncio.create_task(take(name)))
        await asyncio.sleep(0)  # each is queued before the next arrives
    return tasks


async def test_a_backlog_is_served_newest_first() -> None:
    slots = NewestFirstSlots(1)
    await slots.acquire()
    order: list[str] = []
    tasks = await _queue(slots, ["first", "second", "third"], order)
    assert slots.waiting == 3 and order == []
    slots.release()
    await asyncio.gather(*tasks)
    assert order == ["third", "second", "first"]
    assert slots.waiting == 0


async def test_no_more_holders_than_slots() -> None:
    slots = NewestFirstSlots(2)
    held = 0
    most = 0

    async def work() -> None:
        nonlocal held, most
        async with slots:
            held += 1
            most = max(most, held)
            await asyncio.sleep(0)
            held -= 1

    await asyncio.gather(*(work() for _ in range(20)))
    assert most == 2


async def test_a_cancelled_waiter_leaks_no_slot() -> None:
    slots = NewestFirstSlots(1)
    await slots.acquire()
    order: list[str] = []
    tasks = await _queue(slots, ["stays", "leaves"], order)
    tasks[1].cancel()
    await asyncio.sleep(0)
    slots.release()
    await asyncio.gather(tasks[0])
    assert order == ["stays"]
    # handed the slot and cancelled in the same turn: the slot goes on to the next waiter
    await slots.acquire()
    tasks = await _queue(slots, ["a", "b"], order)
    slots.release()  # b is handed the slot...
    tasks[1].cancel()  # ...and cancelled before it runs
    for _ in range(5):  # a few turns of the loop: no waiting on time
        await asyncio.sleep(0)
    assert order[-1] == "a" and tasks[0].done()
    again = asyncio.create_task(slots.acquire())
    await asyncio.sleep(0)
    assert again.done() and slots.waiting == 0  # the slot came back: taken at once


def test_at_least_one_slot() -> None:
    with pytest.raises(ValueError):
        NewestFirstSlots(0)
