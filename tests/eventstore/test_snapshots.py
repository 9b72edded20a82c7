"""Snapshots are a cache: save/load newest/delete, and deleting changes nothing for readers."""

from __future__ import annotations

from collections.abc import Callable

from tablehall_eventstore import EventStore, NewEvent


async def test_snapshot_save_load_delete(store: EventStore, sid: Callable[[str], str]) -> None:
    s, other = sid("snap"), sid("snap-other")
    await store.append(s, 0, [NewEvent("E", 1, b'{"n":%d}' % i) for i in range(5)])
    before = await store.read_stream(s)
    assert await store.load_snapshot(s) is None

    await store.save_snapshot(s, 2, b"\x00state@2", state_type="Table")
    await store.save_snapshot(s, 4, b"state@4", state_type="Table", schema_version=3)
    await store.save_snapshot(other, 1, b"o", state_type="Table")
    snap = await store.load_snapshot(s)
    assert snap is not None
    assert (snap.stream_id, snap.version, snap.payload, snap.state_type, snap.schema_version) == (
        s,
        4,
        b"state@4",
        "Table",
        3,
    )
    await store.save_snapshot(s, 4, b"state@4-again", state_type="Table2")  # same version: replaced
    snap = await store.load_snapshot(s)
    assert snap is not None and (snap.payload, snap.state_type, snap.schema_version) == (
        b"state@4-again",
        "Table2",
        1,
    )

    assert await store.delete_snapshots(s) == 2
    assert await store.load_snapshot(s) is None
    assert await store.load_snapshot(other) is not None
    assert await store.read_stream(s) == before
    assert await store.stream_version(s) == 5


async def test_delete_all_snapshots(store: EventStore, sid: Callable[[str], str]) -> None:
    await store.save_snapshot(sid("x"), 1, b"x", state_type="T")
    assert await store.delete_snapshots() >= 1
    assert await store.load_snapshot(sid("x")) is None
