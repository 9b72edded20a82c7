"""The live feed keeps a shared frame only until every watcher of its role has taken it (or it is
`Feed.RETAIN` versions behind the head): a table's frames are whole views, and kept for every
version they grew the process by about a hundred kilobytes a move."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support.randomplay import random_match

from tablehall_eventstore import RecordedEvent
from tablehall_projection.access import Role
from tablehall_projection.live.feed import Feed, Reader
from tablehall_rules.registry import get_game

SPECTATOR = Role("spectator")


def _events(n: int = 60) -> list[RecordedEvent]:
    game = get_game("magnates")
    events = random_match(game, random.Random(5), "retention", max_commands=200, avoid=("Surrender", "Leave"))
    assert len(events) >= n, len(events)
    return events


EVENTS = _events()


def _feed(first: int = 1) -> Feed:
    feed = Feed("retention")
    feed.load(EVENTS[:first])
    return feed


def _run(body: Any) -> Any:
    async def main() -> Any:  # a Feed wants a running loop (its ready future)
        return body()

    return asyncio.run(main())


def test_a_frame_is_dropped_once_every_watcher_of_its_role_took_it() -> None:
    def body() -> None:
        feed = _feed()
        a, b = feed.register(SPECTATOR), feed.register(SPECTATOR)
        for event in EVENTS[1:11]:
            assert feed.offer(event)
        assert feed.kept(SPECTATOR) == 10
        for version in range(2, 12):
            assert feed.take(a, version) is not None
        assert feed.kept(SPECTATOR) == 10  # b has taken none yet
        for version in range(2, 7):
            frame = feed.take(b, version)
            assert frame is not None and frame.version == version
        assert feed.kept(SPECTATOR) == 5
        for version in range(7, 12):
            assert feed.take(b, version) is not None
        assert feed.kept(SPECTATOR) == 0

    _run(body)


def test_a_watcher_that_leaves_no_longer_holds_frames() -> None:
    def body() -> None:
        feed = _feed()
        stays, leaves = feed.register(SPECTATOR), feed.register(SPECTATOR)
        for event in EVENTS[1:6]:
            feed.offer(event)
        feed.take(leaves, 2)
        feed.unregister(leaves)
        assert feed.kept(SPECTATOR) == 5  # `stays` has taken none
        for version in range(2, 7):
            assert feed.take(stays, version) is not None
        assert feed.kept(SPECTATOR) == 0

    _run(body)


def test_a_watcher_who_joins_later_is_not_waited_for_on_earlier_frames() -> None:
    def body() -> None:
        feed = _feed()
        early = feed.register(SPECTATOR)
        for event in EVENTS[1:4]:
            feed.offer(event)
        late = feed.register(SPECTATOR)
        assert late.joined == 4
        for event in EVENTS[4:6]:
            feed.offer(event)
        for version in range(2, 7):
            feed.take(early, version)
        assert feed.kept(SPECTATOR) == 2  # versions 5 and 6, which `late` was counted for
        feed.unregister(late)
        assert feed.kept(SPECTATOR) == 0

    _run(body)


def test_frames_wait_at_most_retain_versions_for_a_slow_watcher() -> None:
    def body() -> None:
        feed = _feed()
        feed.RETAIN = 8
        slow = feed.register(SPECTATOR)
        for event in EVENTS[1:31]:
            feed.offer(event)
        assert feed.kept(SPECTATOR) == 8
        assert feed.take(slow, 2) is None  # rendered again by the watcher's own cursor
        frame = feed.take(slow, 31)
        assert frame is not None and frame.version == 31

    _run(body)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["offer", "join", "take", "leave"]), st.integers(0, 5)), max_size=120))
def test_every_watcher_gets_each_frame_it_was_counted_for_and_nothing_is_kept_for_nobody(
    steps: list[tuple[str, int]],
) -> None:
    def body() -> None:
        feed = _feed()
        readers: list[Reader] = []
        offered = 1
        for action, pick in steps:
            if action == "offer" and offered < len(EVENTS):
                feed.offer(EVENTS[offered])
                offered += 1
            elif action == "join":
                readers.append(feed.register(SPECTATOR))
            elif action == "take" and readers:
                reader = readers[pick % len(readers)]
                if reader.taken < feed.version:
                    version = reader.taken + 1
                    frame = feed.take(reader, version)
                    assert frame is not None and frame.version == version
            elif action == "leave" and readers:
                feed.unregister(readers.pop(pick % len(readers)))
            # kept: exactly the versions some present watcher was counted for and has not taken
            wanted = {v for r in readers for v in range(r.taken + 1, feed.version + 1)}
            assert feed.kept(SPECTATOR) == len(wanted)
            for version in wanted:
                assert feed.frame(SPECTATOR, version) is not None

    _run(body)
