"""Two deployments on one NATS server: each prefix has its own stream and
subjects, and a bot feed bound to one never sees the other's events."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import nats
import pytest
from support.publishkit import publish_until
from tablehall_bot.feed import Feed

from tablehall_eventstore import EventStore, NewEvent, Publisher
from tablehall_eventstore.publisher import STREAM_NAME, SUBJECT_PREFIX, NatsNames


def test_the_default_prefix_keeps_todays_names() -> None:
    assert NatsNames().stream == STREAM_NAME == "TABLEHALL_EVENTS"
    assert NatsNames().subject_prefix == SUBJECT_PREFIX == "tablehall.events."
    with pytest.raises(ValueError):
        NatsNames("two.tokens")


async def _feed_streams(feed: Feed, want: int) -> list[str]:
    stop = asyncio.Event()
    seen: list[str] = []
    async for note in feed.notifications(stop):
        await note.ack()
        assert note.envelope is not None
        seen.append(note.envelope.stream_id)
        if len(seen) >= want:
            break
    return seen


async def test_two_prefixes_on_one_nats_do_not_mix(
    fresh_store: Callable[[], Awaitable[EventStore]], nats_url: str
) -> None:
    tag = uuid.uuid4().hex[:8]
    first, second = NatsNames(f"tha{tag}"), NatsNames(f"thb{tag}")
    stores = [await fresh_store(), await fresh_store()]
    publishers = [Publisher(stores[0], nats_url, names=first), Publisher(stores[1], nats_url, names=second)]
    feeds = [Feed(nats_url, f"bots-{tag}-{i}", 30.0, names) for i, names in enumerate((first, second))]
    nc = await nats.connect(nats_url)
    js: Any = nc.jetstream()
    try:
        for publisher in publishers:  # each creates its deployment's stream
            assert await publisher.publish_pending() == 0
        stop = asyncio.Event()
        for feed in feeds:
            assert await feed.connect(stop)
        for i, store in enumerate(stores):
            for n in range(3 + i):
                await store.append(f"table-d{i}x{n}", 0, [NewEvent("E", 1, b'{"n": %d}' % n, {})])
        assert await publish_until(publishers[0], 3) == 3
        assert await publish_until(publishers[1], 4) == 4
        one = await js.stream_info(first.stream)
        two = await js.stream_info(second.stream)
        assert one.config.subjects == [f"tha{tag}.events.>"] and one.state.messages == 3
        assert two.config.subjects == [f"thb{tag}.events.>"] and two.state.messages == 4
        # each deployment's bot consumer gets its own events only
        got = [await asyncio.wait_for(_feed_streams(feed, n), 120) for feed, n in zip(feeds, (3, 4), strict=True)]
        assert sorted(got[0]) == [f"table-d0x{n}" for n in range(3)]
        assert sorted(got[1]) == [f"table-d1x{n}" for n in range(4)]
        envelope = msgspec.json.decode((await js.get_last_msg(first.stream, f"tha{tag}.events.table-d0x2")).data)
        assert envelope["stream_id"] == "table-d0x2"
    finally:
        for feed in feeds:
            await feed.close()
        for publisher in publishers:
            await publisher.close()
        for names in (first, second):
            with contextlib.suppress(nats.js.errors.NotFoundError):
                await js.delete_stream(names.stream)
        await nc.close()
