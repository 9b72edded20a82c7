"""A read model keeping up starts a batch at most once an interval (TABLEHALL_PROJECTION_INTERVAL_MS):
the events appended meanwhile wait and go into the next batch together, one transaction for them
all, instead of a transaction per append."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from tablehall_eventstore import EventStore, NewEvent, RecordedEvent
from tablehall_projection import service as projection_service
from tablehall_projection.projector import Projector


class Counting:
    """A read model that keeps, per batch, the positions it was given (no tables of its own)."""

    name = "counting"
    tables: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.changed = asyncio.Condition()

    async def apply(self, conn: object, events: Sequence[RecordedEvent]) -> None:
        self.batches.append([e.position for e in events])
        async with self.changed:
            self.changed.notify_all()

    def reset(self) -> None:
        """No in-memory state."""


async def _append(store: EventStore, stream: str, version: int) -> None:
    await store.append(stream, version, [NewEvent("lobby.Noted", 1, b"{}")])


async def _applied(model: Counting, batches: int) -> None:
    """Until the model has been given `batches` batches."""
    async with asyncio.timeout(120), model.changed:  # a bound for a busy machine
        await model.changed.wait_for(lambda: len(model.batches) >= batches)


async def test_appends_within_the_interval_wait_for_the_next_batch(empty_db: str) -> None:
    store = await EventStore.connect(empty_db)
    model = Counting()
    # an interval no test outlasts: after its first batch the projector waits for `stop` alone
    projector = Projector(store, model, interval=3600.0)
    stop = asyncio.Event()
    try:
        await _append(store, "table-a", 0)
        running = asyncio.create_task(projector.run(stop))
        await _applied(model, 1)
        assert len(model.batches) == 1
        for version in range(1, 6):  # each append wakes the projector; none starts a batch
            await _append(store, "table-a", version)
            await asyncio.sleep(0.05)
        assert len(model.batches) == 1
        stop.set()
        await asyncio.wait_for(running, 120)  # stopping does not wait out the interval
        assert len(model.batches) == 1 and await projector.checkpoint() == model.batches[0][-1]
        # the waiting events are one batch for the next run
        again = Projector(store, model, interval=0.0)
        assert await again.step() == 5
        assert len(model.batches) == 2 and len(model.batches[1]) == 5
    finally:
        stop.set()
        await store.close()


async def test_without_an_interval_each_append_is_applied_as_it_comes(empty_db: str) -> None:
    store = await EventStore.connect(empty_db)
    model = Counting()
    projector = Projector(store, model, interval=0.0)
    stop = asyncio.Event()
    running = asyncio.create_task(projector.run(stop))
    try:
        for version in range(3):
            await _append(store, "table-b", version)
            await _applied(model, version + 1)
        assert [len(b) for b in model.batches] == [1, 1, 1]
    finally:
        stop.set()
        await asyncio.wait_for(running, 120)
        await store.close()


def test_the_interval_setting_is_read_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLEHALL_PROJECTION_INTERVAL_MS", raising=False)
    assert projection_service.batch_interval() == 0.1
    monkeypatch.setenv("TABLEHALL_PROJECTION_INTERVAL_MS", "0")
    assert projection_service.batch_interval() == 0.0
    monkeypatch.setenv("TABLEHALL_PROJECTION_INTERVAL_MS", "-5")
    with pytest.raises(ValueError, match="TABLEHALL_PROJECTION_INTERVAL_MS"):
        projection_service.batch_interval()
