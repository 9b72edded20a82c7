"""Read models stay exact with several instances, a rebuild while the service
runs, and an event one table cannot apply (quarantine)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from prometheus_client import REGISTRY
from support.matchkit import Tokens
from support.projectionkit import Stack, caught_up, dump_models, finish, new_race, play, start_stack, stop_stack

from tablehall.projection.v1 import projection_pb2 as pb
from tablehall_eventstore import NewEvent, RecordedEvent
from tablehall_projection import service as projection_service
from tablehall_projection.projector import Projector


async def _games(stack: Stack, tokens: Tokens) -> None:
    tables = [await new_race(stack, tokens, players=n) for n in (2, 3, 4, 3)]
    for table in tables[:3]:
        await finish(stack, tokens, table)
    await play(stack, tokens, tables[3], 12)
    await caught_up(stack)


async def _reference(stack: Stack) -> dict[str, list[tuple[object, ...]]]:
    for projector in projection_service.projectors(stack.store, batch=1000).values():
        await projector.rebuild()
    return await dump_models(stack.store)


async def test_two_instances_taking_turns_on_batches_keep_the_read_models_exact(empty_db: str, tokens: Tokens) -> None:
    stack = await start_stack(empty_db)
    try:
        await _games(stack, tokens)
        await stack.projection.close()
        reference = await _reference(stack)
        first = projection_service.projectors(stack.store, batch=3)
        second = projection_service.projectors(stack.store, batch=3)
        for name in first:
            await first[name].rebuild()  # fills first's caches to the head
        await stack.store.pool.execute("TRUNCATE proj_tables, proj_journal, proj_standings, proj_player_games")
        await stack.store.pool.execute("UPDATE projection_checkpoints SET position = 0")
        for name in first:
            turns = [first[name], second[name]]
            turn = 0
            while await turns[turn % 2].step():
                turn += 1
        assert await dump_models(stack.store) == reference
    finally:
        await stop_stack(stack)


async def test_a_rebuild_of_every_model_while_the_service_runs_is_exact(empty_db: str, tokens: Tokens) -> None:
    stack = await start_stack(empty_db, batch=4)
    try:
        await _games(stack, tokens)
        more = await new_race(stack, tokens, players=2)
        # the rebuild and the running service's projectors take turns on batches
        rebuilders = projection_service.projectors(stack.store, batch=4)
        playing = asyncio.create_task(finish(stack, tokens, more))
        for projector in rebuilders.values():
            assert await projector.rebuild() > 0
        await playing
        await caught_up(stack)
        after_live_rebuild = await dump_models(stack.store)
        await stack.projection.close()
        assert after_live_rebuild == await _reference(stack)
        assert after_live_rebuild["proj_standings"]
    finally:
        await stop_stack(stack)


def _quarantined(model: str) -> float:
    return REGISTRY.get_sample_value("tablehall_projection_quarantined_total", {"projection": model}) or 0.0


async def test_an_event_that_cannot_be_applied_quarantines_its_table_and_others_go_on(
    empty_db: str, tokens: Tokens
) -> None:
    stack = await start_stack(empty_db)
    try:
        broken = await new_race(stack, tokens)
        await play(stack, tokens, broken, 3)
        await caught_up(stack)
        stream = "table-" + broken.removeprefix("tables/")
        version = await stack.store.stream_version(stream)
        before = _quarantined("tables")
        # a game event no evolve can read, then an honest table moves on
        await stack.store.append(stream, version, [NewEvent("testgame.Rolled", 1, b'{"nonsense": [1, 2]}')])
        healthy = await new_race(stack, tokens)
        await play(stack, tokens, healthy, 4)
        await caught_up(stack)
        rows = await stack.store.pool.fetch(
            "SELECT name, version FROM projection_quarantine WHERE stream_id = $1", stream
        )
        assert {r["name"] for r in rows} >= {"standings", "journal"}
        assert {r["version"] for r in rows} == {version + 1}
        summary = await stack.proj.GetTable(pb.GetTableRequest(table=healthy), metadata=tokens("op", ("operator",)))
        assert summary.table.version == await stack.store.stream_version("table-" + healthy.removeprefix("tables/"))
        assert _quarantined("standings") >= 1 and _quarantined("tables") >= before
        # a retry of a table whose event is still unreadable leaves it in quarantine, with the reason
        still = await stack.projection.app.projectors["standings"].retry(stream)
        assert still is not None and still.startswith(f"version {version + 1}:")
    finally:
        await stop_stack(stack)


class _Failing:
    """Wraps a model: fails on one stream while `broken` is set."""

    def __init__(self, model: object, stream: str) -> None:
        self.inner = model
        self.name = model.name  # type: ignore[attr-defined]
        self.tables = model.tables  # type: ignore[attr-defined]
        self.stream = stream
        self.broken = True

    async def apply(self, conn: object, events: Sequence[RecordedEvent]) -> None:
        if self.broken and any(e.stream_id == self.stream for e in events):
            raise ValueError("cannot apply")
        await self.inner.apply(conn, events)  # type: ignore[attr-defined]

    def reset(self) -> None:
        self.inner.reset()  # type: ignore[attr-defined]


async def test_a_retry_rebuilds_the_quarantined_table_once_its_cause_is_gone(empty_db: str, tokens: Tokens) -> None:
    stack = await start_stack(empty_db)
    try:
        table = await new_race(stack, tokens)
        other = await new_race(stack, tokens)
        await finish(stack, tokens, table)
        await play(stack, tokens, other, 5)
        await caught_up(stack)
        await stack.projection.close()
        reference = await _reference(stack)
        stream = "table-" + table.removeprefix("tables/")
        models = projection_service.projectors(stack.store)
        wrapped = {name: Projector(stack.store, _Failing(p.model, stream), batch=5) for name, p in models.items()}
        for projector in wrapped.values():
            await projector.rebuild()
        damaged = await dump_models(stack.store)
        assert damaged != reference
        assert not [r for r in damaged["proj_tables"] if r[0] == table.removeprefix("tables/")]
        assert [r for r in damaged["proj_tables"] if r[0] == other.removeprefix("tables/")]
        for projector in wrapped.values():
            projector.model.broken = False  # type: ignore[attr-defined]
            assert await projector.retry(stream) is None
        assert await dump_models(stack.store) == reference
        assert not await stack.store.pool.fetch("SELECT 1 FROM projection_quarantine")
    finally:
        await stop_stack(stack)
