"""Snapshots, leases, conflicts, the seed reveal and the draw verifier."""

from __future__ import annotations

import asyncio
import dataclasses

import msgspec
import pytest
from support.matchkit import Running, Tokens, race_command, start_race, start_service, stop_service

from tablehall.match.v1 import match_pb2
from tablehall_match.app import HeldElsewhere
from tablehall_match.audit import verify_draws_in_stream
from tablehall_platform.auth import Principal
from tablehall_stream.names import ENDED, stream_id

ALICE = Principal("alice", "Alice")
BOB = Principal("bob", "Bob")


async def play(match: Running, tokens: Tokens, table: str, moves: int, prefix: str = "m") -> int:
    version = 0
    for i in range(moves):
        view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
        if view.view.finished:
            break
        seat = view.view.decisions[0].seat
        user = ("alice", "bob")[seat]
        reply = await match.stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(
                table=table, seat=seat, command=race_command("roll" if i % 3 else "pass"), request_id=f"{prefix}{i}"
            ),
            metadata=tokens(user),
        )
        version = reply.version
    return version


async def test_snapshot_plus_tail_equals_full_replay_and_snapshots_are_only_a_cache(
    match: Running, tokens: Tokens
) -> None:
    table = await start_race(match.stub, tokens, options='{"target": 1000}')
    table_id = table.split("/")[1]
    await play(match, tokens, table, 23)
    await asyncio.sleep(0.1)  # snapshots are written in the background
    app = match.service.app
    live = app.tables[table_id]
    expected = (live.version, live.draw_counter, msgspec.json.encode(live.state))
    snapshot = await match.store.load_snapshot(stream_id(table_id))
    assert snapshot is not None and snapshot.version >= 20
    app.evict(table_id)
    from_snapshot = await app.table(table_id)
    assert (from_snapshot.version, from_snapshot.draw_counter, msgspec.json.encode(from_snapshot.state)) == expected
    await match.store.delete_snapshots(stream_id(table_id))
    app.evict(table_id)
    from_events = await app.table(table_id)
    assert (from_events.version, from_events.draw_counter, msgspec.json.encode(from_events.state)) == expected


async def test_a_finished_match_reveals_its_seed_and_every_draw_verifies(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens, options='{"target": 12}')
    await play(match, tokens, table, 200)
    events = await match.store.read_stream(stream_id(table.split("/")[1]))
    assert events[-1].type == ENDED
    verdict = verify_draws_in_stream(events)
    assert verdict.ok, verdict.message
    assert verdict.draws_checked >= 4  # two secrets and at least two dice

    forged = list(events)
    index = next(i for i, e in enumerate(forged) if e.type == "testgame.Rolled")
    meta = dict(forged[index].metadata)
    draw = dict(meta["draws"][0])
    draw["value"] = 7 - draw["value"] if draw["value"] != 3.5 else 1
    meta["draws"] = [draw]
    forged[index] = dataclasses.replace(forged[index], metadata=meta)
    bad = verify_draws_in_stream(forged)
    assert not bad.ok and bad.version == forged[index].version

    skipped = [e for e in events if e.version != forged[index].version]
    assert not verify_draws_in_stream(skipped).ok


async def test_a_stale_writer_reloads_on_conflict_and_decides_once_more(migrated: str, tokens: Tokens) -> None:
    first = await start_service(migrated)
    second = await start_service(migrated)
    try:
        table = await start_race(first.stub, tokens)
        table_id = table.split("/")[1]
        await first.service.app.table(table_id)
        # the second instance takes the table over behind the first one's back
        await first.store.pool.execute("UPDATE table_leases SET expires_at = now() - interval '1 second'")
        live2 = await second.service.app.table(table_id)
        await second.service.app.submit(ALICE, table_id, 0, msgspec.convert({"type": "Roll"}, _roll()), "r1")
        assert live2.version >= 3
        # the first still holds a stale copy: its append conflicts, it reloads, decides again
        await first.store.pool.execute("UPDATE table_leases SET owner = $1", first.service.app.leases.owner)
        result = await first.service.app.submit(BOB, table_id, 1, msgspec.convert({"type": "Roll"}, _roll()), "r2")
        assert result.version == live2.version + 1 and not result.duplicate
    finally:
        await stop_service(first)
        await stop_service(second)


def _roll() -> type:
    from testgame.game import Roll

    return Roll


async def test_only_one_instance_writes_a_table_and_the_other_forwards(migrated: str, tokens: Tokens) -> None:
    first = await start_service(migrated)
    second = await start_service(migrated)
    try:
        table = await start_race(first.stub, tokens)
        table_id = table.split("/")[1]
        await first.service.app.table(table_id)
        with pytest.raises(HeldElsewhere) as moved:
            await second.service.app.table(table_id)
        assert moved.value.address == first.address
        # a client talking to the second instance is served by the writer
        reply = await second.stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table, seat=0, command=race_command("roll"), request_id="f1"),
            metadata=tokens("alice"),
        )
        assert reply.version >= 3 and table_id in first.service.app.tables
    finally:
        await stop_service(first)
        await stop_service(second)


async def test_a_dead_writers_lease_is_taken_over(migrated: str, tokens: Tokens) -> None:
    first = await start_service(migrated, lease_seconds=0.6)
    second = await start_service(migrated, lease_seconds=0.6)
    try:
        table = await start_race(first.stub, tokens)
        table_id = table.split("/")[1]
        await first.service.app.table(table_id)
        # the first instance dies: no more renewals
        first.service.stop_event.set()
        await asyncio.gather(*first.service.tasks)
        await asyncio.sleep(0.8)
        live = await second.service.app.table(table_id)
        assert live.version >= 2
    finally:
        await stop_service(first)
        await stop_service(second)
