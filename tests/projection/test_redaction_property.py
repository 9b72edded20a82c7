"""Property: across thousands of random events of every game that exists, each
viewer is shown exactly the game's own `view` for that viewer and only the
journal lines meant for them; opponents and spectators never see a seat's
secrets (checked on the test game, whose secrets are known).

Random legal play (and clocks running out) is generated from the rules
contract alone, recorded as the match service records it, and pushed through
the live feed (the shared rendering) and a private cursor (resumes), the code
`WatchTable` serves.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgspec
import pytest
from support.randomplay import existing_games, random_match

from tablehall_eventstore import RecordedEvent
from tablehall_projection.access import Role
from tablehall_projection.live.feed import Cursor, Feed
from tablehall_stream.events import MatchStarted
from tablehall_stream.fold import TableFold, viewer_of

MATCHES_PER_GAME = 120
# make test stops a game's matches once this many events were checked (the heavy games' listings
# made 120 matches take minutes); make soak plays all MATCHES_PER_GAME
EVENTS_PER_GAME = 4000


def roles_of(players: int) -> list[Role]:
    return [Role("spectator"), *(Role("seat", s) for s in range(players))]


def check_secrets(game_id: str, role: Role, view: dict[str, Any], journal: list[Any]) -> None:
    """The test game's hidden information: each seat's secret number."""
    if game_id != "testgame":
        return
    if view and view.get("places") is None:
        for i, value in enumerate(view["secrets"]):
            assert (value is not None) == (role.seat == i), (role, view)
    for line in journal:
        if line.entry.code == "testgame.secret_dealt":
            assert line.entry.params["seat"] == role.seat, (role, line)


async def check_match(game: Any, events: list[RecordedEvent], cut: int) -> None:
    table_id = events[0].stream_id.removeprefix("table-")
    feed = Feed(table_id)
    feed.load(events[:cut])
    players = len(msgspec.json.decode(events[0].payload, type=MatchStarted).seats)
    roles = roles_of(players)
    for role in roles:
        feed.register(role)
    cursors = {role.key: Cursor(feed, role) for role in roles}
    truth = TableFold(table_id)
    for event in events[:cut]:
        truth.apply(event)
    for event in events[cut:]:
        assert feed.offer(event)
        lines = truth.apply(event, journal=True)
        for role in roles:
            shared = feed.frame(role, event.version)
            private = cursors[role.key].frame_at(event.version)
            assert shared is not None and shared.version == event.version
            expected_view = game.view(truth.state, viewer_of(role.name, role.seat)) if truth.state is not None else {}
            for frame in (shared, private):
                assert frame.view == expected_view  # redaction is the game's view, nothing added
                assert [(x.idx, x.entry) for x in frame.journal] == [
                    (x.idx, x.entry) for x in lines if x.entry.audience is None or role.seat in x.entry.audience
                ]
                check_secrets(game.id, role, frame.view, frame.journal)


def play_and_check(game: Any, events_wanted: int | None) -> int:
    rng = random.Random(f"redaction-{game.id}")
    total = 0

    async def run() -> None:
        nonlocal total
        for n in range(MATCHES_PER_GAME):
            if events_wanted is not None and total >= events_wanted:
                break
            events = random_match(game, rng, f"prop-{n}")
            total += len(events)
            await check_match(game, events, cut=rng.randint(1, len(events)))

    asyncio.run(run())
    return total


@pytest.mark.parametrize("game", existing_games(), ids=lambda g: g.id)
def test_no_viewer_sees_hidden_information_across_random_play(game: Any) -> None:
    total = play_and_check(game, EVENTS_PER_GAME)
    assert total >= 2000, total
    print(f"{game.id}: {total} events checked")


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("game", existing_games(), ids=lambda g: g.id)
def test_no_viewer_sees_hidden_information_across_many_random_matches(game: Any) -> None:
    total = play_and_check(game, None)
    assert total >= 2000, total
    print(f"{game.id}: {MATCHES_PER_GAME} matches, {total} events checked")
