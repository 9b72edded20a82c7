"""Append/read contract: versions, conflicts, idempotency, batches, hash chain."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import msgspec
import pytest

from tablehall_eventstore import AppendRequest, AppendResult, ConcurrencyConflict, EventStore, NewEvent, StoredFact


def ev(n: int, type_: str = "Moved", **meta: object) -> NewEvent:
    return NewEvent(type_, 1, msgspec.json.encode({"n": n, "text": "é ✓"}), meta)


async def test_append_and_read_back(store: EventStore, sid: Callable[[str], str]) -> None:
    s = sid("a")
    r1 = await store.append(s, 0, [ev(1, actor="p1"), ev(2)])
    assert (r1.stream_id, r1.first_version, r1.last_version, r1.duplicate) == (s, 1, 2, False)
    assert r1.last_position == r1.first_position + 1
    r2 = await store.append(s, 2, [ev(3, "Scored")])
    assert (r2.first_version, r2.last_version) == (3, 3) and r2.first_position > r1.last_position

    events = await store.read_stream(s)
    assert [e.version for e in events] == [1, 2, 3]
    assert [e.position for e in events] == [r1.first_position, r1.last_position, r2.first_position]
    assert [msgspec.json.decode(e.payload)["n"] for e in events] == [1, 2, 3]
    assert events[0].payload == ev(1).payload  # byte-for-byte
    assert events[0].metadata == {"actor": "p1"} and events[1].metadata == {}
    assert events[2].type == "Scored" and events[2].schema_version == 1
    assert len({e.event_id for e in events}) == 3
    assert events[0].recorded_at.tzinfo is not None
    assert [e.version for e in await store.read_stream(s, 2)] == [2, 3]
    assert [e.version for e in await store.read_stream(s, 1, 2)] == [1, 2]
    assert await store.stream_version(s) == 3
    assert await store.stream_version(sid("absent")) == 0
    assert await store.read_stream(sid("absent")) == []


async def test_facts_are_the_events_as_a_rebuild_reads_them(store: EventStore, sid: Callable[[str], str]) -> None:
    s = sid("f")
    await store.append(s, 0, [ev(1, actor="p1", seat=0), ev(2)])
    await store.append(s, 2, [ev(3, "Scored")])
    events = await store.read_stream(s)
    facts = await store.read_facts(s)
    assert facts == [StoredFact(e.version, e.type, e.schema_version, e.payload, e.metadata) for e in events]
    assert facts[0].metadata == {"actor": "p1", "seat": 0} and facts[2].type == "Scored"
    assert [f.version for f in await store.read_facts(s, 2)] == [2, 3]
    assert [f.version for f in await store.read_facts(s, 1, 2)] == [1, 2]
    assert await store.read_facts(sid("absent")) == []


async def test_facts_with_parts_of_the_metadata_hold_only_those_parts(
    store: EventStore, sid: Callable[[str], str]
) -> None:
    s, other = sid("p"), sid("q")
    draws = [{"n": 4, "value": 2}, {"n": 5, "value": 6}]
    await store.append(s, 0, [ev(1, draws=draws, who={"seat": 1, "by_bot": True}, pending=[1, 2]), ev(2, draws=[])])
    await store.append(s, 2, [ev(3, "Scored", who=None)])
    await store.append(other, 0, [ev(9, draws=[{"n": 0}])])
    paths = {"who": ("who",), "last_draw": ("draws", "-1", "n"), "first": ("draws", "0")}
    facts = await store.read_facts(s, metadata=paths)
    whole = await store.read_facts(s)
    assert [(f.version, f.type, f.schema_version, f.payload) for f in facts] == [
        (f.version, f.type, f.schema_version, f.payload) for f in whole
    ]
    # a path that leads nowhere (no key, an empty list) is left out; a JSON null is kept
    assert [f.metadata for f in facts] == [
        {"who": {"seat": 1, "by_bot": True}, "last_draw": 5, "first": {"n": 4, "value": 2}},
        {},
        {"who": None},
    ]
    assert [f.version for f in await store.read_facts(s, 2, 2, metadata=paths)] == [2]
    assert await store.read_facts(s, metadata={}) == [
        StoredFact(f.version, f.type, f.schema_version, f.payload, {}) for f in whole
    ]
    many = await store.read_facts_many({s: 3, other: 1}, metadata=paths)
    assert many == {
        s: [facts[2]],
        other: [StoredFact(1, "Moved", 1, ev(9).payload, {"last_draw": 0, "first": {"n": 0}})],
    }
    assert await store.read_facts_many({s: 3, other: 1}) == {s: [whole[2]], other: await store.read_facts(other)}


async def test_hash_chain_is_verifiable_client_side(store: EventStore, sid: Callable[[str], str]) -> None:
    s = sid("h")
    await store.append(s, 0, [ev(1), ev(2)])
    await store.append(s, 2, [ev(3)])
    prev: str | None = None
    for e in await store.read_stream(s):
        assert e.prev_hash == prev and e.hash_scheme == 2
        # scheme 2: the metadata's stored text is covered too
        text = "2\n" + (prev or "") + "\n" + e.type + "\n" + e.payload.decode() + "\n" + e.metadata_text
        assert e.hash == hashlib.sha256(text.encode()).hexdigest()
        prev = e.hash


async def test_the_hash_chain_covers_the_metadata(store: EventStore, sid: Callable[[str], str]) -> None:
    s = sid("m")
    await store.append(s, 0, [NewEvent("E", 1, b'{"n": 1}', {"actor": "alice", "seat": 0})])
    [before] = await store.read_stream(s)
    assert msgspec.json.decode(before.metadata_text) == {"actor": "alice", "seat": 0}
    await store.pool.execute(
        "UPDATE events SET metadata = jsonb_set(metadata, '{actor}', '\"mallory\"') WHERE stream_id = $1", s
    )
    [after] = await store.read_stream(s)
    text = "2\n\nE\n" + after.payload.decode() + "\n" + after.metadata_text
    assert after.hash == before.hash != hashlib.sha256(text.encode()).hexdigest()


async def test_conflict_reports_actual_version_and_writes_nothing(store: EventStore, sid: Callable[[str], str]) -> None:
    s = sid("c")
    await store.append(s, 0, [ev(1), ev(2)])
    for expected in (0, 1, 3):
        with pytest.raises(ConcurrencyConflict) as info:
            await store.append(s, expected, [ev(9)], command_id=f"{s}-cmd-{expected}")
        assert (info.value.stream_id, info.value.expected_version, info.value.actual_version) == (
            s,
            expected,
            2,
        )
        assert await store.command_result(f"{s}-cmd-{expected}") is None
    with pytest.raises(ConcurrencyConflict) as info:
        await store.append(sid("missing"), 4, [ev(1)])
    assert info.value.actual_version == 0
    assert await store.stream_version(sid("missing")) == 0
    assert [e.version for e in await store.read_stream(s)] == [1, 2]


async def test_idempotent_retry_returns_original(store: EventStore, sid: Callable[[str], str]) -> None:
    s = sid("i")
    cmd = f"{s}-cmd"
    first = await store.append(s, 0, [ev(1), ev(2)], command_id=cmd)
    await store.append(s, 2, [ev(3)])
    # Retried with a now-stale expected version (and even another stream): the original result.
    again = await store.append(s, 0, [ev(1), ev(2)], command_id=cmd)
    elsewhere = await store.append(sid("other"), 0, [ev(1)], command_id=cmd)
    expected = AppendResult(s, 1, 2, first.first_position, first.last_position, duplicate=True)
    assert again == expected and elsewhere == expected
    assert await store.command_result(cmd) == expected
    assert await store.command_result(f"{s}-unknown") is None
    assert [e.version for e in await store.read_stream(s)] == [1, 2, 3]
    assert await store.stream_version(sid("other")) == 0


async def test_append_batch_mixed_outcomes(store: EventStore, sid: Callable[[str], str]) -> None:
    a, b, c = sid("ba"), sid("bb"), sid("bc")
    await store.append(b, 0, [ev(1)], command_id=f"{b}-1")
    results = await store.append_batch(
        [
            AppendRequest(c, 0, [ev(1), ev(2)]),
            AppendRequest(b, 0, [ev(2)]),  # stale: conflict
            AppendRequest(a, 0, [ev(1)], command_id=f"{a}-1"),
            AppendRequest(a, 1, [ev(2)]),  # chains on the request before it
            AppendRequest(b, 5, [ev(3)], command_id=f"{b}-1"),  # duplicate wins over staleness
        ]
    )
    assert isinstance(results[0], AppendResult) and (results[0].first_version, results[0].last_version) == (
        1,
        2,
    )
    assert results[1] == ConcurrencyConflict(b, 0, 1)
    assert isinstance(results[2], AppendResult) and results[2].last_version == 1
    assert isinstance(results[3], AppendResult) and results[3].first_version == 2
    assert isinstance(results[4], AppendResult) and results[4].duplicate
    assert [e.version for e in await store.read_stream(a)] == [1, 2]
    assert [e.version for e in await store.read_stream(b)] == [1]
    assert await store.append_batch([]) == []


async def test_invalid_requests(store: EventStore, sid: Callable[[str], str]) -> None:
    with pytest.raises(ValueError):
        await store.append(sid("v"), -1, [ev(1)])
    with pytest.raises(ValueError):
        await store.append(sid("v"), 0, [])
    assert await store.stream_version(sid("v")) == 0
