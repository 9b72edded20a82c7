"""Publisher: every event to JetStream once, resumes from its checkpoint, dedups a crash replay."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
import nats
import pytest
from nats.errors import TimeoutError as NatsTimeout

from tablehall_eventstore import EventStore, NewEvent, Publisher
from tablehall_eventstore.publisher import STREAM_NAME


@pytest.fixture
async def js(nats_url: str) -> AsyncIterator[Any]:
    nc = await nats.connect(nats_url)
    yield nc.jetstream()
    await nc.close()


async def consume(js: Any, prefix: str, expected: int) -> list[tuple[dict[str, Any], str]]:
    """What JetStream holds under tablehall.events.<prefix>.>, in stream order: the `expected`
    messages (however slowly a busy machine delivers them), then whatever else comes at once
    (a duplicate would: the callers' equalities then fail)."""
    sub = await js.subscribe(f"tablehall.events.{prefix}.>", stream=STREAM_NAME, ordered_consumer=True)
    got: list[tuple[dict[str, Any], str]] = []
    try:
        with contextlib.suppress(NatsTimeout):
            while True:
                msg = await sub.next_msg(timeout=60 if len(got) < expected else 0.5)
                got.append((msgspec.json.decode(msg.data), msg.headers["Nats-Msg-Id"]))
    finally:
        await sub.unsubscribe()
    return got


async def publish_and_crash(crashing: Publisher) -> None:
    """One pass of `crashing` that dies after JetStream acknowledged, before the checkpoint."""

    async def crash(position: int) -> None:
        raise RuntimeError("killed before checkpoint")

    crashing._save_checkpoint = crash  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await crashing.publish_pending()
    await crashing.close()


async def fill(store: EventStore, prefix: str, tables: int, per_table: int, start: int = 0) -> None:
    for t in range(tables):
        for k in range(per_table):
            n = start + k
            await store.append(f"{prefix}.t{t}", n, [NewEvent("E", 1, b'{"n": %d}' % n, {"k": n})])


async def test_publishes_every_event_once_and_resumes(
    fresh_store: Callable[[], Awaitable[EventStore]], nats_url: str, js: Any
) -> None:
    store = await fresh_store()
    prefix = f"pub{uuid.uuid4().hex[:10]}"
    await fill(store, prefix, tables=3, per_table=4)

    first = Publisher(store, nats_url, name="p")
    assert await first.publish_pending() == 12
    assert await first.publish_pending() == 0
    await first.close()

    await fill(store, prefix, tables=3, per_table=2, start=4)
    restarted = Publisher(store, nats_url, name="p")  # a new process: resumes from the checkpoint
    assert await restarted.publish_pending() == 6
    assert restarted.duplicates == 0
    await restarted.close()

    events = await store.read_all(0)
    got = await consume(js, prefix, len(events))
    assert [body["position"] for body, _ in got] == [e.position for e in events]
    assert [msg_id for _, msg_id in got] == [str(e.event_id) for e in events]
    body, _ = got[0]
    e = events[0]
    assert body == {
        "event_id": str(e.event_id),
        "stream_id": e.stream_id,
        "version": e.version,
        "position": e.position,
        "type": "E",
        "schema_version": 1,
        "payload": {"n": 0},
        "metadata": {"k": 0},
        "recorded_at": e.recorded_at.isoformat(),
    }


async def test_crash_between_publish_and_checkpoint_does_not_duplicate(
    fresh_store: Callable[[], Awaitable[EventStore]], nats_url: str, js: Any
) -> None:
    store = await fresh_store()
    prefix = f"pub{uuid.uuid4().hex[:10]}"
    await fill(store, prefix, tables=2, per_table=5)

    await publish_and_crash(Publisher(store, nats_url, name="p"))

    recovered = Publisher(store, nats_url, name="p")
    assert await recovered.checkpoint() == 0
    assert await recovered.publish_pending() == 10  # sent again...
    assert recovered.duplicates == 10  # ...and dropped by JetStream's dedup window
    await recovered.close()

    got = await consume(js, prefix, 10)
    assert len(got) == 10 and len({msg_id for _, msg_id in got}) == 10


async def test_run_publishes_until_stopped(
    fresh_store: Callable[[], Awaitable[EventStore]], nats_url: str, js: Any
) -> None:
    store = await fresh_store()
    prefix = f"pub{uuid.uuid4().hex[:10]}"
    publisher = Publisher(store, nats_url, name="runner", poll_interval=0.02)
    stop = asyncio.Event()
    running = asyncio.create_task(publisher.run(stop))
    await fill(store, prefix, tables=2, per_table=3)
    last = (await store.read_all(0))[-1].position
    for _ in range(3000):  # up to a minute: a busy machine may take long
        if await publisher.checkpoint() == last or running.done():
            break
        await asyncio.sleep(0.02)
    stop.set()
    await running
    assert await publisher.checkpoint() == last
    assert len(await consume(js, prefix, 6)) == 6


async def _commands(store: EventStore, stream: str) -> None:
    """Two commands of three events each (the last marked with its open decisions, as the match
    writes them) with a lobby event between them."""
    for c, version in (("c1", 0), ("c2", 4)):
        events = [NewEvent("E", 1, b'{"n": %d}' % i, {"command_id": c}) for i in range(3)]
        events[-1] = NewEvent("E", 1, b'{"n": 2}', {"command_id": c, "pending": []})
        await store.append(stream, version, events)
        if c == "c1":
            await store.append(stream, 3, [NewEvent("lobby.Seen", 1, b"{}", {})])


async def test_a_commands_events_go_as_one_message(
    fresh_store: Callable[[], Awaitable[EventStore]], nats_url: str, js: Any
) -> None:
    store = await fresh_store()
    prefix = f"pub{uuid.uuid4().hex[:10]}"
    await _commands(store, f"{prefix}.t0")
    publisher = Publisher(store, nats_url, name="p", batch=5)  # a read batch ends inside c2
    assert await publisher.publish_pending() == 7
    await publisher.close()
    events = await store.read_all(0)
    got = await consume(js, prefix, 4)
    bodies = [body for body, _ in got]
    assert [len(b) if isinstance(b, list) else 1 for b in bodies] == [3, 1, 1, 2]
    assert [e["version"] for b in bodies for e in (b if isinstance(b, list) else [b])] == [1, 2, 3, 4, 5, 6, 7]
    ids = [str(e.event_id) for e in events]
    assert [msg_id for _, msg_id in got] == [f"{ids[0]}..{ids[2]}", ids[3], ids[4], f"{ids[5]}..{ids[6]}"]


async def test_a_republished_command_is_dropped_as_a_duplicate(
    fresh_store: Callable[[], Awaitable[EventStore]], nats_url: str, js: Any
) -> None:
    store = await fresh_store()
    prefix = f"pub{uuid.uuid4().hex[:10]}"
    await _commands(store, f"{prefix}.t0")
    await publish_and_crash(Publisher(store, nats_url, name="p", batch=5))
    recovered = Publisher(store, nats_url, name="p", batch=5)
    assert await recovered.publish_pending() == 7
    assert recovered.duplicates == 5  # the first read batch: three messages, five events
    await recovered.close()
    got = await consume(js, prefix, 4)
    assert len(got) == 4 and len({msg_id for _, msg_id in got}) == 4
