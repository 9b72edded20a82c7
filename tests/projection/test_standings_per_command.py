"""The standings read model works out a table's live places once a command, after its last event
(the places half way through a command's events are never shown), however the projector's
batches cut the stream."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from support.randomplay import random_match

from tablehall_eventstore import RecordedEvent, ends_command
from tablehall_projection.models.standings import StandingsModel
from tablehall_rules.registry import get_game
from tablehall_stream.fold import TableFold


class Conn:
    """What the model writes (a projector's transaction), nothing stored before."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []

    async def fetch(self, query: str, *args: Any) -> list[Any]:
        return []

    async def executemany(self, query: str, rows: list[tuple[Any, ...]]) -> None:
        if "proj_standings" in query:
            self.rows += rows


def expected_places(events: list[RecordedEvent], table_id: str) -> list[tuple[int, list[list[int]]]]:
    """The places after each command that had game events, where they changed."""
    fold, out, moved = TableFold(table_id), [], False
    last: list[list[int]] | None = None
    for event in events:
        fold.apply(event)
        moved = moved or fold.is_game_event(event.type)
        if fold.ended is None and moved and ends_command(event.metadata) and fold.state is not None:
            moved = False
            places = [list(p) for p in fold.game.standings(fold.state)]
            if places != last:
                out.append((event.version, places))
                last = places
    return out


@pytest.mark.parametrize("game_id", ["homunculus", "puzzipolia", "dragons"])
@pytest.mark.parametrize("batch", [1, 3, 64])
async def test_live_places_once_a_command_at_its_last_event(game_id: str, batch: int) -> None:
    game = get_game(game_id)
    rng = random.Random(f"{game_id}-{batch}")
    table_id = "t-standings"
    events = random_match(game, rng, table_id, max_commands=120)
    model = StandingsModel(store=None)  # type: ignore[arg-type]  # every table starts at version 1: no reads
    conn = Conn()
    for start in range(0, len(events), batch):
        await model.apply(conn, events[start : start + batch])
    live = [(row[1], msgspec.json.decode(row[2])) for row in conn.rows if not row[3]]
    assert live == expected_places(events, table_id)
    ends = {e.version for e in events if ends_command(e.metadata)}
    assert live and all(version in ends for version, _ in live)
    # more than one event to a command somewhere: the test could tell a version inside one
    assert len(ends) < len(events)
