"""`WatchTable` with `UPDATE_GRAIN_COMMAND`: one change per command, at the version of its last
event (the one the match marks with the decisions it leaves open), carrying the journal lines of
all of its events; versions outside a command one by one. Checked on random matches of every product game
against the change-per-version watch of the same feed: the same views at the versions both send,
the same journal lines in the same order, nothing lost on a resume, and one frame rendered a
command rather than one a version."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from support.randomplay import existing_games, random_match

from tablehall_eventstore import RecordedEvent, ends_command
from tablehall_projection.access import Role
from tablehall_projection.live.feed import Feed, Reader
from tablehall_projection.live.watch import Update, _follow

SPECTATOR = Role("spectator")
SEAT_1 = Role("seat", 1)


def _match(game_id: str, seed: int) -> list[RecordedEvent]:
    game = next(g for g in existing_games() if g.id == game_id)
    return random_match(game, random.Random(seed), f"grain-{seed}", max_commands=80, avoid=("Surrender", "Leave"))


async def _changes(feed: Feed, reader: Reader, from_version: int) -> list[Update]:
    """Every update a watcher gets until it has the head (the feed holds the whole match)."""
    got: list[Update] = []
    async for update in _follow(feed, reader, from_version):
        got.append(update)
        if update.frame.version == feed.version:
            break
    feed.unregister(reader)
    return got


def _journal(updates: list[Update]) -> list[Any]:
    return [(line.version, line.idx, line.entry) for u in updates for line in u.frame.journal]


async def _compare(events: list[RecordedEvent], role: Role, cut: int, resume_at: int) -> None:
    """Watchers joined at `cut` (the later versions rendered by the feed as they come), from
    `resume_at`: the per-command changes against the per-version ones."""
    feed = Feed(events[0].stream_id.removeprefix("table-"))
    feed.load(events[:cut])
    by_version = feed.register(role)
    by_command = feed.register(role, per_command=True)
    for event in events[cut:]:
        assert feed.offer(event)
    versions = await _changes(feed, by_version, resume_at)
    commands = await _changes(feed, by_command, resume_at)
    closing = [e.version for e in events[resume_at:] if ends_command(e.metadata)]
    assert [u.frame.version for u in commands] == closing
    assert [u.frame.version for u in versions] == list(range(resume_at + 1, len(events) + 1))
    at = {u.frame.version: u.frame for u in versions}
    sent = resume_at
    for update in commands:
        assert update.kind == "change" and update.frame.since == sent
        assert update.frame.view == at[update.frame.version].view
        assert update.frame.decisions == at[update.frame.version].decisions
        sent = update.frame.version
    assert _journal(commands) == _journal(versions) and _journal(versions)


@pytest.mark.parametrize("game_id", ["homunculus", "magnates", "puzzipolia", "dragons"])
def test_a_change_per_command_carries_every_versions_journal(game_id: str) -> None:
    events = _match(game_id, 11)
    rng = random.Random(game_id)
    assert any(not ends_command(e.metadata) for e in events)  # some commands wrote several events

    async def main() -> None:
        for role in (SPECTATOR, SEAT_1):
            # joined at the start; joined midway and resumed from before it (the cursor renders
            # what the feed rendered before the watcher came); resumed from inside a command
            await _compare(events, role, 1, 1)
            cut = rng.randrange(2, len(events) - 1)
            await _compare(events, role, cut, rng.randrange(1, cut))
            inside = next(e.version for e in events[1:] if not ends_command(e.metadata))
            await _compare(events, role, 1, inside)

    asyncio.run(main())


def test_a_watcher_of_whole_commands_has_one_frame_rendered_a_command() -> None:
    events = _match("homunculus", 5)

    async def main() -> None:
        feed = Feed("grain-5")
        feed.load(events[:1])
        reader = feed.register(SPECTATOR, per_command=True)
        for event in events[1:]:
            assert feed.offer(event)
        kept = events[max(1, len(events) - Feed.RETAIN) :]  # older frames are dropped unread
        closing = [e.version for e in kept if ends_command(e.metadata)]
        assert feed.kept(SPECTATOR, per_command=True) == len(closing) < len(kept)
        assert feed.kept(SPECTATOR) == 0  # nobody watches every version: nothing rendered for it
        feed.unregister(reader)

    asyncio.run(main())


def test_an_event_outside_a_command_closes_its_own_change() -> None:
    assert ends_command({})  # a lobby event
    assert ends_command({"command_id": "c1", "pending": []})  # a command's last event
    assert not ends_command({"command_id": "c1"})  # one before it
