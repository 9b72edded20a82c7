"""The live frames' delay (`tablehall_projection_frame_delay_seconds`): from the match deciding a
command (its first event's `now_ms`) to the frame of its change rendered (once a version for every
kind of viewer) and handed to each watcher. Only commands offered live while somebody watches are
counted: neither a feed's load from the store nor a table nobody watches."""

from __future__ import annotations

import dataclasses
import random
import time

from prometheus_client import REGISTRY
from support.randomplay import existing_games, random_match

from tablehall_eventstore import RecordedEvent, ends_command
from tablehall_projection.access import Role
from tablehall_projection.live.feed import Feed
from tablehall_projection.live.watch import _follow

DECIDED_AGO_S = 0.03  # every command was decided this long before the feed is offered it


def _count(stage: str, le: str | None = None) -> float:
    if le is None:
        value = REGISTRY.get_sample_value("tablehall_projection_frame_delay_seconds_count", {"stage": stage})
    else:
        value = REGISTRY.get_sample_value("tablehall_projection_frame_delay_seconds_bucket", {"stage": stage, "le": le})
    return value or 0.0


def _decided_a_moment_ago(events: list[RecordedEvent]) -> tuple[list[RecordedEvent], float]:
    decided_ms = time.time() * 1000 - DECIDED_AGO_S * 1000
    return [
        dataclasses.replace(e, metadata={**e.metadata, "now_ms": decided_ms}) if "now_ms" in e.metadata else e
        for e in events
    ], decided_ms / 1000


def _commands(events: list[RecordedEvent]) -> int:
    """Commands of the match (not the start, the end or the lobby's events) the events close."""
    started: set[str] = set()
    closed = 0
    for e in events:
        if "now_ms" in e.metadata:
            started.add(e.metadata["command_id"])
        if "command_id" in e.metadata and ends_command(e.metadata) and e.metadata["command_id"] in started:
            closed += 1
    return closed


async def test_each_live_command_is_measured_rendered_and_handed_to_its_watcher() -> None:
    game = next(g for g in existing_games() if g.id == "magnates")
    events, decided_at = _decided_a_moment_ago(
        random_match(game, random.Random(5), "delay-5", max_commands=40, avoid=("Surrender", "Leave"))
    )
    # the watcher comes after a command's change (its first change is one the feed rendered)
    cut = next(i for i in range(3, len(events)) if ends_command(events[i - 1].metadata))
    live = events[cut:]
    commands = _commands(live)
    assert commands > 10

    feed = Feed(events[0].stream_id.removeprefix("table-"))
    rendered, handed, fast = _count("rendered"), _count("handed"), _count("rendered", "0.025")
    feed.load(events[:cut])  # what the store held when the watcher came: not live
    reader = feed.register(Role("spectator"), per_command=True)
    for event in live:
        assert feed.offer(event)
    assert _count("rendered") - rendered == commands
    # each was decided at least DECIDED_AGO_S before it was rendered: none in the 25 ms bucket
    assert _count("rendered", "0.025") == fast

    got = []
    async for update in _follow(feed, reader, cut):
        got.append(update.frame)
        if update.frame.version == feed.version:
            break
    measured = [f for f in got if f.decided_at is not None]
    assert len(measured) == commands
    assert {f.decided_at for f in measured} == {decided_at}
    assert _count("handed") - handed == commands


async def test_a_table_nobody_watches_is_not_measured() -> None:
    game = next(g for g in existing_games() if g.id == "dragons")
    events, _ = _decided_a_moment_ago(random_match(game, random.Random(7), "delay-7", max_commands=30))
    rendered = _count("rendered")
    feed = Feed(events[0].stream_id.removeprefix("table-"))
    feed.load(events[:1])
    for event in events[1:]:
        assert feed.offer(event)
    assert _count("rendered") == rendered
