"""Issue 30.7: a player's view cost more than a command. It read the lobby's newest facts under
the table's command lock (waiting for every command queued on the table) in a query of its own;
now it reads outside the lock, in one query with the other views asking at the same time, and
still sees every fact committed before it asked."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import grpc
import msgspec
from support.matchkit import Running, Tokens, start_race

from tablehall.match.v1 import match_pb2
from tablehall_eventstore import NewEvent, StoredFact
from tablehall_match.fact_reads import FactReads
from tablehall_stream.names import stream_id

# generous: a view that waits for the lock never answers at all while the lock is held
BOUND = 60.0


async def test_a_view_does_not_wait_for_the_command_lock(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    table_id = table.split("/")[1]
    await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    live = match.service.app.tables[table_id]
    async with live.lock:  # a command in flight on the table (deciding, or waiting for its commit)
        view = await asyncio.wait_for(
            match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("bob")), BOUND
        )
    assert view.view.version == live.version and view.view.seat == 1


async def test_a_view_sees_a_lobby_fact_committed_before_it(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    table_id = table.split("/")[1]
    stream = stream_id(table_id)
    seen = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("carol"))
    assert seen.view.version > 0  # a spectator
    version = await match.store.stream_version(stream)
    removed = {"user_id": "carol", "by": "alice", "at_ms": 1}
    await match.store.append(
        stream, version, [NewEvent("lobby.SpectatorRemoved", 1, msgspec.json.encode(removed))], command_id="lobby-x"
    )
    views = [
        match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens(user))
        for user in ("alice", "bob", "carol")
    ]
    alice, bob, carol = await asyncio.gather(*views, return_exceptions=True)
    assert isinstance(alice, match_pb2.GetTableViewResponse) and isinstance(bob, match_pb2.GetTableViewResponse)
    assert alice.view.version == bob.view.version == version + 1
    assert isinstance(carol, grpc.aio.AioRpcError) and carol.code() == grpc.StatusCode.PERMISSION_DENIED


def _fact(version: int) -> StoredFact:
    return StoredFact(version, "lobby.X", 1, b"{}", {})


async def test_views_asking_together_share_one_query_and_late_ones_wait_for_the_next() -> None:
    heads = {"a": 3, "b": 5}
    queries: list[dict[str, int]] = []
    release, began = asyncio.Event(), asyncio.Event()

    async def read_many(from_versions: Mapping[str, int]) -> dict[str, list[StoredFact]]:
        queries.append(dict(from_versions))
        began.set()
        snapshot = dict(heads)  # what this query's snapshot holds
        await release.wait()
        return {s: [_fact(v) for v in range(f, snapshot.get(s, 0) + 1)] for s, f in from_versions.items()}

    reads = FactReads(read_many, in_flight=1)
    first = asyncio.create_task(reads.after("a", 2))
    await began.wait()  # the first query has begun
    heads["a"] = 4  # committed while the first query runs: only a later query sees it
    late = [asyncio.create_task(reads.after(*asked)) for asked in (("a", 2), ("b", 5), ("b", 1))]
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(queries) == 1  # the late ones wait: the running query may not hold their facts
    release.set()
    assert [f.version for f in await first] == [3]
    a, b5, b1 = await asyncio.gather(*late)
    assert [f.version for f in a] == [3, 4] and b5 == [] and [f.version for f in b1] == [2, 3, 4, 5]
    assert queries == [{"a": 3}, {"a": 3, "b": 2}]  # the three late ones: one query


async def test_batches_begin_at_once_while_few_are_being_read() -> None:
    queries: list[dict[str, int]] = []
    release = asyncio.Event()

    async def read_many(from_versions: Mapping[str, int]) -> dict[str, list[StoredFact]]:
        queries.append(dict(from_versions))
        await release.wait()
        return {s: [] for s in from_versions}

    reads = FactReads(read_many, in_flight=2)
    asked = [asyncio.create_task(reads.after(s, 0)) for s in "abcd"]
    for _ in range(5):
        await asyncio.sleep(0)
    # a and b began a batch each at once; c and d formed the next, which waits for room
    assert queries == [{"a": 1}, {"b": 1}]
    release.set()
    await asyncio.gather(*asked)
    assert queries[2:] == [{"c": 1, "d": 1}]


async def test_a_failed_query_fails_its_batch_only() -> None:
    calls = 0

    async def read_many(from_versions: Mapping[str, int]) -> dict[str, list[StoredFact]]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionError("database gone")
        return {s: [_fact(f)] for s, f in from_versions.items()}

    reads = FactReads(read_many)
    try:
        await reads.after("a", 0)
    except ConnectionError:
        pass
    else:
        raise AssertionError("the batch's error was not raised")
    assert [f.version for f in await reads.after("a", 0)] == [1]
