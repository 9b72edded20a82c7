"""The publisher's metrics and its stream's replicas (TABLEHALL_NATS_REPLICAS)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable

import pytest
from prometheus_client import REGISTRY
from support.publishkit import publish_until

from tablehall_eventstore import EventStore, NewEvent, Publisher


def sample(name: str, publisher: str) -> float | None:
    return REGISTRY.get_sample_value(name, {"publisher": publisher})


async def test_published_events_repeats_and_position_are_exported(
    fresh_store: Callable[[], Awaitable[EventStore]], nats_url: str
) -> None:
    store = await fresh_store()
    prefix = f"pm{uuid.uuid4().hex[:10]}"
    for k in range(7):
        await store.append(f"{prefix}.t", k, [NewEvent("E", 1, b"{}", {})])
    name = f"metrics-{prefix}"
    first = Publisher(store, nats_url, name=name)
    assert await publish_until(first, 7) == 7
    await first.close()
    last = (await store.read_all(0))[-1].position
    assert sample("tablehall_publisher_events_total", name) == 7
    assert sample("tablehall_publisher_duplicates_total", name) == 0
    assert sample("tablehall_publisher_position", name) == last

    # a crash before the checkpoint: the same 7 again, counted as published and as repeats
    await store.pool.execute("DELETE FROM publisher_checkpoints WHERE name = $1", name)
    again = Publisher(store, nats_url, name=name)
    assert await publish_until(again, 7) == 7
    await again.close()
    assert sample("tablehall_publisher_events_total", name) == 14
    assert sample("tablehall_publisher_duplicates_total", name) == 7
    assert sample("tablehall_publisher_position", name) == last


def test_stream_replicas_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, store: EventStore, nats_url: str
) -> None:
    assert Publisher(store, nats_url).stream_config().num_replicas == 1
    monkeypatch.setenv("TABLEHALL_NATS_REPLICAS", "3")
    assert Publisher(store, nats_url).stream_config().num_replicas == 3
    monkeypatch.setenv("TABLEHALL_NATS_REPLICAS", "7")
    with pytest.raises(ValueError, match="1-5"):
        Publisher(store, nats_url)
