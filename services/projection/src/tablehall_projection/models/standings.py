"""Read model "standings": places at each table as they change (live from
the game's optional `standings(state)` hook after each command, final from
the outcome) and each player's finished games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from tablehall_eventstore import EventStore, RecordedEvent, ends_command
from tablehall_projection.folds import Folds
from tablehall_projection.projector import Conn
from tablehall_rules import HasStandings
from tablehall_stream.fold import TableFold
from tablehall_stream.names import ENDED, table_of


def live_places(fold: TableFold) -> list[list[int]] | None:
    if fold.started is None or fold.state is None:
        return None
    game = fold.game
    return [list(p) for p in game.standings(fold.state)] if isinstance(game, HasStandings) else None


class StandingsModel:
    name: str = "standings"
    tables: tuple[str, ...] = ("proj_standings", "proj_player_games")

    def __init__(self, store: EventStore) -> None:
        self.folds = Folds(store)
        self._last: dict[str, list[list[int]]] = {}
        # tables with game events folded since their places were last worked out
        self._moved: set[str] = set()

    def reset(self) -> None:
        self.folds.clear()
        self._last.clear()
        self._moved.clear()

    async def apply(self, conn: Conn, events: Sequence[RecordedEvent]) -> None:
        ids = sorted({t for e in events if (t := table_of(e.stream_id)) is not None} - set(self._last))
        if ids:
            for r in await conn.fetch(
                "SELECT DISTINCT ON (table_id) table_id, places::text FROM proj_standings"
                " WHERE table_id = ANY($1::text[]) ORDER BY table_id, version DESC",
                ids,
            ):
                self._last[r[0]] = msgspec.json.decode(r[1])
        standings: list[tuple[Any, ...]] = []
        games: list[tuple[Any, ...]] = []
        for event in events:
            table_id = table_of(event.stream_id)
            if table_id is None:
                continue
            fold = await self.folds.before(table_id, event)
            fold.apply(event)
            if event.type == ENDED and fold.ended is not None and fold.started is not None:
                outcome = fold.ended.outcome
                places = [list(map(int, p)) for p in outcome.get("places", [])]
                scores = msgspec.json.encode(outcome.get("scores", {})).decode()
                standings.append((table_id, event.version, msgspec.json.encode(places).decode(), True, scores))
                self._last.pop(table_id, None)
                self._moved.discard(table_id)
                place_of = {seat: i + 1 for i, group in enumerate(places) for seat in group}
                for seat in fold.started.seats:
                    games.append(
                        (
                            table_id,
                            seat.seat,
                            seat.user_id,
                            fold.started.game,
                            place_of.get(seat.seat, len(places) + 1),
                            len(fold.started.seats),
                            str(outcome.get("reason", "")),
                            fold.ended.ended_at_ms,
                            event.position,
                        )
                    )
                self.folds.forget(table_id)
                continue
            if fold.is_game_event(event.type):
                self._moved.add(table_id)
            # a command's events are shown together: places half way through one are never seen
            if table_id not in self._moved or not ends_command(event.metadata):
                continue
            self._moved.discard(table_id)
            places_now = live_places(fold)
            if places_now is not None and places_now != self._last.get(table_id):
                self._last[table_id] = places_now
                standings.append((table_id, event.version, msgspec.json.encode(places_now).decode(), False, "{}"))
        if standings:
            await conn.executemany(
                "INSERT INTO proj_standings (table_id, version, places, final, scores)"
                " VALUES ($1, $2, $3::jsonb, $4, $5::jsonb)",
                standings,
            )
        if games:
            await conn.executemany(
                "INSERT INTO proj_player_games (table_id, seat, user_id, game, place, players, reason,"
                " ended_at_ms, ended_position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                games,
            )
