"""The out-of-order commit race: readers never pass a position that may still commit."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from tablehall_eventstore import EventStore, NewEvent, RecordedEvent, Tail

APPEND = (
    "SELECT * FROM tablehall_append($1::text[], $2::int[], $3::text[], $4::int[],"
    " $5::text[], $6::int[], $7::text[], $8::text[])"
)


def ev(n: int) -> NewEvent:
    return NewEvent("E", 1, b'{"n":%d}' % n)


async def _take(tail: Tail, n: int, within: float) -> list[RecordedEvent]:
    got: list[RecordedEvent] = []

    async def run() -> None:
        async for e in tail:
            got.append(e)
            if len(got) == n:
                return

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(run(), within)
    return got


@pytest.mark.parametrize("outcome", ["commit", "rollback"])
async def test_held_transaction_blocks_readers_until_it_ends(
    fresh_store: Callable[[], Awaitable[EventStore]], outcome: str
) -> None:
    store = await fresh_store()
    await store.append("before", 0, [ev(0)])
    async with store.pool.acquire() as held:
        tx = held.transaction()
        await tx.start()
        # Same SQL path as EventStore.append, left uncommitted: it holds position 2.
        [row] = await held.fetch(APPEND, ["slow"], [0], [None], [1], ["E"], [1], ['{"n":1}'], [None])
        assert row["first_position"] == 2
        for i in range(3):  # later appends commit first: positions 3, 4, 5
            await store.append(f"fast-{i}", 0, [ev(10 + i)])

        assert [e.position for e in await store.read_all(0)] == [1]
        assert await store.read_all(1) == []
        tail = Tail(store, 0, poll_interval=0.01)
        assert [e.position for e in await _take(tail, 5, within=0.3)] == [1]

        if outcome == "commit":
            await tx.commit()
        else:
            await tx.rollback()

    expected = [1, 2, 3, 4, 5] if outcome == "commit" else [1, 3, 4, 5]
    assert [e.position for e in await store.read_all(0)] == expected
    rest = await _take(tail, len(expected) - 1, within=60)  # returns once it has them all
    assert [e.position for e in rest] == expected[1:]


async def test_append_must_be_first_write_of_its_transaction(store: EventStore) -> None:
    # Otherwise the xid would be older than the positions it draws and the rule breaks.
    async with store.pool.acquire() as conn, conn.transaction():
        await conn.execute("INSERT INTO publisher_checkpoints (name, position) VALUES ('gap-guard', 0)")
        with pytest.raises(asyncpg.PostgresError, match="first write"):
            await conn.fetch(APPEND, ["x"], [0], [None], [1], ["E"], [1], ["{}"], [None])
