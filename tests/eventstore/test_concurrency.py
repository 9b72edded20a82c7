"""Randomised concurrency: one winner per version; read_all delivers each event once, in order."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Awaitable, Callable

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablehall_eventstore import (
    AppendRequest,
    AppendResult,
    ConcurrencyConflict,
    EventStore,
    GroupCommitter,
    NewEvent,
)


def ev(writer: int, n: int) -> NewEvent:
    return NewEvent("E", 1, msgspec.json.encode({"w": writer, "n": n}))


async def test_concurrent_writers_on_one_stream_one_winner_per_version(
    store: EventStore, sid: Callable[[str], str]
) -> None:
    s = sid("hot")
    target = 60
    wins: dict[int, list[int]] = {}

    async def writer(w: int) -> None:
        rng = random.Random(w)
        while True:
            version = await store.stream_version(s)
            if version >= target:
                return
            try:
                r = await store.append(s, version, [ev(w, version + 1)])
                wins.setdefault(r.first_version, []).append(w)
            except ConcurrencyConflict as c:
                assert c.actual_version > version or c.actual_version == version  # never behind
            await asyncio.sleep(rng.random() * 0.002)

    await asyncio.gather(*(writer(w) for w in range(12)))
    events = await store.read_stream(s)
    assert [e.version for e in events][:target] == list(range(1, target + 1))
    # Exactly one winner each version, and it is the event stored there.
    for e in events:
        [w] = wins[e.version]
        assert msgspec.json.decode(e.payload) == {"w": w, "n": e.version}


async def test_many_streams_read_all_exactly_once_in_order(
    fresh_store: Callable[[], Awaitable[EventStore]],
) -> None:
    store = await fresh_store()
    committer = GroupCommitter(store, max_batch=16, workers=3)
    seen: list[int] = []
    done = asyncio.Event()

    async def reader() -> None:
        position = 0
        while True:
            batch = await store.read_all(position, limit=37)
            seen.extend(e.position for e in batch)
            if batch:
                position = batch[-1].position
            elif done.is_set():
                return
            else:
                await asyncio.sleep(0.001)

    async def table(i: int) -> int:
        rng = random.Random(i)
        version = 0
        for _ in range(rng.randint(5, 20)):
            n = rng.randint(1, 3)
            events = [ev(i, version + k + 1) for k in range(n)]
            via = committer.append if rng.random() < 0.5 else store.append
            await via(f"table-{i}", version, events)
            version += n
        return version

    reading = asyncio.create_task(reader())
    totals = await asyncio.gather(*(table(i) for i in range(30)))
    done.set()
    await reading
    await committer.close()

    everything = await store.read_all(0, limit=100_000)
    assert len(everything) == sum(totals)
    assert seen == [e.position for e in everything]  # exactly once, ascending, no gaps skipped
    assert seen == sorted(set(seen))
    for i, total in enumerate(totals):
        assert [e.version for e in everything if e.stream_id == f"table-{i}"] == list(range(1, total + 1))


_request = st.tuples(
    st.sampled_from(["a", "b", "c"]),
    st.integers(0, 3),
    st.one_of(st.none(), st.sampled_from(["k1", "k2", "k3"])),
    st.integers(1, 2),
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(batches=st.lists(st.lists(_request, min_size=1, max_size=5), min_size=1, max_size=4))
async def test_append_batch_matches_model(
    store: EventStore, batches: list[list[tuple[str, int, str | None, int]]]
) -> None:
    """append_batch against a model: requests take effect in (stream id, request order)."""
    run = uuid.uuid4().hex  # not `random`: hypothesis reseeds it per example
    versions: dict[str, int] = {}
    commands: dict[str, tuple[str, int, int]] = {}
    for batch in batches:
        reqs = [
            AppendRequest(f"p{run}.{s}", exp, [ev(0, k) for k in range(n)], f"p{run}.{cmd}" if cmd else None)
            for s, exp, cmd, n in batch
        ]
        results = await store.append_batch(reqs)
        for i in sorted(range(len(reqs)), key=lambda i: (reqs[i].stream_id, i)):
            req, res = reqs[i], results[i]
            if req.command_id in commands:
                assert isinstance(res, AppendResult) and res.duplicate
                assert (res.stream_id, res.first_version, res.last_version) == commands[req.command_id]
                continue
            current = versions.get(req.stream_id, 0)
            if req.expected_version != current:
                assert res == ConcurrencyConflict(req.stream_id, req.expected_version, current)
                continue
            assert isinstance(res, AppendResult) and not res.duplicate
            last = current + len(req.events)
            assert (res.first_version, res.last_version) == (current + 1, last)
            versions[req.stream_id] = last
            if req.command_id:
                commands[req.command_id] = (req.stream_id, current + 1, last)
    for stream, version in versions.items():
        assert await store.stream_version(stream) == version
        assert [e.version for e in await store.read_stream(stream)] == list(range(1, version + 1))


async def test_racing_retries_of_one_command_append_once(store: EventStore, sid: Callable[[str], str]) -> None:
    cmd = f"{sid('cmd')}-race"
    # Same stream (row lock path) and other streams (commands primary key path) at once.
    streams = [sid("race")] * 4 + [sid(f"race-{i}") for i in range(4)]
    results = await asyncio.gather(*(store.append(s, 0, [ev(0, 1)], command_id=cmd) for s in streams))
    assert sum(not r.duplicate for r in results) == 1
    assert len({(r.stream_id, r.first_version, r.first_position) for r in results}) == 1
    winner = next(r for r in results if not r.duplicate)
    for s in set(streams):
        assert await store.stream_version(s) == (1 if s == winner.stream_id else 0)


@pytest.mark.parametrize(("workers", "max_batch"), [(0, 16), (1, 0)])
async def test_a_group_commit_without_workers_or_room_is_refused(
    store: EventStore, workers: int, max_batch: int
) -> None:
    with pytest.raises(ValueError, match="workers >= 1"):
        GroupCommitter(store, max_batch=max_batch, workers=workers)
