"""Append hints (`AppendHints`): a process's append wakes the followers of another process's store
at once (core NATS), a process never hears its own hints, and one that does not listen is never
woken. Two stores on one database stand for two processes of a deployment."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable

import pytest

from tablehall_eventstore import AppendHints, EventStore, NewEvent
from tablehall_eventstore.publisher import NatsNames

# far longer than any poll: a wait that ends before it was woken, not timed out
LONG_WAIT_S = 600.0


@pytest.fixture
async def second_store(database_url: str, store: EventStore) -> AsyncIterator[EventStore]:
    other = await EventStore.connect(database_url, min_size=1, max_size=2)
    yield other
    await other.close()


async def _hints(store: EventStore, nats_url: str, names: NatsNames, listen: bool) -> AppendHints:
    hints = AppendHints(store, nats_url, listen=listen, names=names)
    await hints.start()
    return hints


async def test_an_append_wakes_the_followers_of_a_listening_process(
    store: EventStore, second_store: EventStore, nats_url: str, sid: Callable[[str], str]
) -> None:
    names = NatsNames(f"hints-{uuid.uuid4().hex[:8]}")  # this test's own subject
    writer = await _hints(store, nats_url, names, listen=True)
    follower = await _hints(second_store, nats_url, names, listen=True)
    deaf = await _hints(second_store, nats_url, names, listen=False)
    try:
        generation = second_store._appends
        waiting = asyncio.create_task(second_store.wait_appended(LONG_WAIT_S))
        await asyncio.sleep(0)
        await store.append(sid("hinted"), 0, [NewEvent("test.Happened", 1, b"{}")])
        await asyncio.wait_for(waiting, LONG_WAIT_S / 2)  # woken, not timed out
        assert follower.heard >= 1
        assert second_store._appends > generation  # a read begun before the hint answers for nothing after it
        await writer._nc.flush()
        assert writer.sent >= 1
        assert writer.heard == 0  # its own hint never comes back
        assert deaf.heard == 0
    finally:
        for hints in (writer, follower, deaf):
            await hints.close()
    assert writer._appended not in store.append_listeners


async def test_appends_close_together_send_one_hint(store: EventStore, nats_url: str) -> None:
    names = NatsNames(f"hints-{uuid.uuid4().hex[:8]}")
    # a long interval, so that the test's own pace cannot split the burst
    hints = AppendHints(store, nats_url, listen=False, names=names, every_s=3600.0)
    await hints.start()
    try:
        store.append_listeners[-1]()  # the first append after a quiet time: a hint at once
        await asyncio.sleep(0.01)
        assert hints.sent == 1
        for _ in range(5):  # the listener runs once per append: these wait for the interval
            store.append_listeners[-1]()
        await asyncio.sleep(0.01)
        assert hints.sent == 1 and hints._queued
    finally:
        await hints.close()
