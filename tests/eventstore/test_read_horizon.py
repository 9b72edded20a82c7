"""The gap-safe horizon is per database: a transaction left open in another
database of the same server does not hold this database's readers back, while
one of this database still does (it could commit a lower position)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import asyncpg

from tablehall_eventstore import EventStore, NewEvent

APPEND = (
    "SELECT * FROM tablehall_append($1::text[], $2::int[], $3::text[], $4::int[],"
    " $5::text[], $6::int[], $7::text[], $8::text[])"
)


def ev(n: int) -> NewEvent:
    return NewEvent("E", 1, b'{"n":%d}' % n)


@contextlib.asynccontextmanager
async def write_open_elsewhere(url: str) -> AsyncIterator[int]:
    """A write transaction left open in another database (it has an xid); that xid."""
    other = await asyncpg.connect(url)
    try:
        tx = other.transaction()
        await tx.start()
        yield await other.fetchval("SELECT pg_current_xact_id()::text::bigint")
        await tx.rollback()
    finally:
        await other.close()


async def test_an_open_transaction_in_another_database_does_not_stall_read_all(
    fresh_store: Callable[[], Awaitable[EventStore]], fresh_database_url: Callable[[], Awaitable[str]]
) -> None:
    store = await fresh_store()
    await store.append("before", 0, [ev(0)])
    async with write_open_elsewhere(await fresh_database_url()) as held:
        for i in range(3):
            await store.append(f"after-{i}", 0, [ev(1 + i)])
        # the cluster-wide rule would stop below the other database's xid...
        cluster_xmin = await store.pool.fetchval("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
        assert cluster_xmin <= held
        stalled = await store.pool.fetch("SELECT position FROM events WHERE tx_id::text::bigint < $1", cluster_xmin)
        assert {r[0] for r in stalled} <= {1}  # (lower still if other sessions hold older ones)
        # ...the per-database horizon passes it: every committed event is read
        assert [e.position for e in await store.read_all(0)] == [1, 2, 3, 4]


async def test_an_open_append_in_this_database_still_holds_the_horizon_while_another_database_waits(
    fresh_store: Callable[[], Awaitable[EventStore]], fresh_database_url: Callable[[], Awaitable[str]]
) -> None:
    store = await fresh_store()
    await store.append("before", 0, [ev(0)])
    async with write_open_elsewhere(await fresh_database_url()):
        async with store.pool.acquire() as conn:
            tx = conn.transaction()
            await tx.start()
            [row] = await conn.fetch(APPEND, ["slow"], [0], [None], [1], ["E"], [1], ['{"n":1}'], [None])
            assert row["first_position"] == 2
            await store.append("fast", 0, [ev(2)])  # commits position 3 while 2 is open
            assert [e.position for e in await store.read_all(0)] == [1]
            await tx.commit()
        assert [e.position for e in await store.read_all(0)] == [1, 2, 3]


async def test_the_horizon_never_passes_an_in_progress_transaction_of_this_database(
    fresh_store: Callable[[], Awaitable[EventStore]],
) -> None:
    store = await fresh_store()
    async with store.pool.acquire() as conn:
        tx = conn.transaction()
        await tx.start()
        mine = await conn.fetchval("SELECT pg_current_xact_id()::text::bigint")
        horizon = await store.pool.fetchval("SELECT tablehall_read_horizon()::text::bigint")
        assert horizon <= mine
        await tx.rollback()
    # nothing open: the horizon is the snapshot's xmax (every assigned xid has ended)
    after = await store.pool.fetchval("SELECT tablehall_read_horizon()::text::bigint")
    xmax = await store.pool.fetchval("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint")
    assert mine < after <= xmax


async def _both_horizons(store: EventStore, after: int, limit: int = 1000) -> tuple[list[int], list[int]]:
    """Positions read below 0003's per-database horizon, and those read_all returns (0004's)."""
    full = await store.pool.fetch(
        "SELECT position FROM events WHERE position > $1 AND tx_id < (SELECT tablehall_read_horizon())"
        " ORDER BY position LIMIT $2",
        after,
        limit,
    )
    return [r[0] for r in full], [e.position for e in await store.read_all(after, limit)]


async def test_the_fast_horizon_skips_the_backend_scan_only_where_it_reads_the_same_rows(
    fresh_store: Callable[[], Awaitable[EventStore]], fresh_database_url: Callable[[], Awaitable[str]]
) -> None:
    store = await fresh_store()
    for i in range(3):
        await store.append(f"s{i}", 0, [ev(i)])

    async def horizon(sql: str) -> int:
        return int(await store.pool.fetchval(f"SELECT {sql}::text::bigint"))

    async with write_open_elsewhere(await fresh_database_url()) as held:
        await store.append("later", 0, [ev(9)])  # position 4, its xid above the held one
        # both horizons on one snapshot: any transaction of the cluster in between (another
        # test's, a service's) moves the snapshot's xmax, which a horizon may be
        async with store.pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            full = int(await conn.fetchval("SELECT tablehall_read_horizon()::text::bigint"))
            scanned = int(await conn.fetchval("SELECT tablehall_read_horizon_after(0, 1000)::text::bigint"))
        assert full > held  # the per-database horizon passes the other database's xid
        # a row after `after` at or above the snapshot's lowest running xid (the held one): the
        # backend scan is made, and position 4 is read as 0003 reads it
        assert scanned == full
        # nothing at or above it among the rows to read: the lowest running xid is answer enough
        assert await horizon("tablehall_read_horizon_after(4, 1000)") <= held
        assert await horizon("tablehall_read_horizon_after(0, 3)") <= held
        for after, limit in ((0, 1000), (0, 3), (0, 2), (3, 1), (4, 10), (2, 5)):
            same, read = await _both_horizons(store, after, limit)
            assert read == same
        assert (await _both_horizons(store, 0))[1] == [1, 2, 3, 4]


async def test_the_fast_horizon_still_stops_below_an_open_append_of_this_database(
    fresh_store: Callable[[], Awaitable[EventStore]],
) -> None:
    store = await fresh_store()
    await store.append("before", 0, [ev(0)])
    async with store.pool.acquire() as conn:
        tx = conn.transaction()
        await tx.start()
        [row] = await conn.fetch(APPEND, ["slow"], [0], [None], [1], ["E"], [1], ['{"n":1}'], [None])
        assert row["first_position"] == 2
        await store.append("fast", 0, [ev(2)])  # commits position 3 while 2 is open
        for after in (0, 1, 2):
            same, read = await _both_horizons(store, after)
            assert read == same
        assert [e.position for e in await store.read_all(0)] == [1]
        await tx.commit()
    assert [e.position for e in await store.read_all(0)] == [1, 2, 3]
