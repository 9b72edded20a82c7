"""A table's stream folded through its game's `evolve`: how the projection learns a table's
state and the audit replays one. Views and journal lines come from the game (`view`,
`journal`) applied to this state, never from raw events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from tablehall_rules import Journaled, JournalEntry, Viewer
from tablehall_rules.registry import get_game
from tablehall_stream.codecs import event_codec
from tablehall_stream.events import ENDED_DECODER, STARTED_DECODER, MatchEnded, MatchStarted
from tablehall_stream.journal_lines import JournalLine, ended_entries, started_entries, timeout_entries
from tablehall_stream.names import ENDED, STARTED, split_type


class Fact(Protocol):
    """What a fold reads of a stored event (the event store's `Fact`, an exported event)."""

    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def schema_version(self) -> int: ...
    @property
    def payload(self) -> bytes: ...
    @property
    def metadata(self) -> dict[str, Any]: ...


def decode_game_event(game_id: str, event: Fact) -> msgspec.Struct:
    _, tag = split_type(event.type)
    result: msgspec.Struct = event_codec(game_id).decode_stored(tag, event.schema_version, event.payload)
    return result


def viewer_of(role: str, seat: int | None) -> Viewer:
    if role == "auditor":
        return Viewer.auditor()
    if role == "seat" and seat is not None:
        return Viewer.of_seat(seat)
    return Viewer.spectator()


@dataclass
class TableFold:
    """State of one table after `version` events of its stream."""

    table_id: str
    version: int = 0
    started: MatchStarted | None = None
    ended: MatchEnded | None = None
    state: Any = None

    @property
    def game(self) -> Any:
        assert self.started is not None
        return get_game(self.started.game)

    @property
    def game_id(self) -> str:
        return self.started.game if self.started is not None else ""

    def is_game_event(self, event_type: str) -> bool:
        return self.started is not None and split_type(event_type)[0] == self.started.game

    def apply(self, event: Fact, journal: bool = False) -> list[JournalLine]:
        """Fold one event (the next version); its journal lines when asked.

        Journal lines are computed on the state before the event, as the
        game's `journal(state_before, event)` hook expects.
        """
        if event.version != self.version + 1:
            raise ValueError(f"{self.table_id}: version {event.version} after {self.version}")
        lines: list[JournalEntry] = []
        if event.type == STARTED:
            self.started = STARTED_DECODER.decode(event.payload)
            if journal:
                lines = started_entries(self.started)
        elif event.type == ENDED:
            self.ended = ENDED_DECODER.decode(event.payload)
            if journal and self.started is not None:
                lines = ended_entries(self.started, self.ended)
        elif self.is_game_event(event.type):
            game = self.game
            game_event = decode_game_event(game.id, event)
            if journal:
                lines = timeout_entries(self.started, event.metadata)
                if isinstance(game, Journaled):
                    lines = lines + list(game.journal(self.state, game_event))
            self.state = game.evolve(self.state, game_event)
        self.version = event.version
        return [JournalLine(event.version, i, entry) for i, entry in enumerate(lines)]

    def view(self, role: str, seat: int | None) -> dict[str, Any]:
        """The game's own redacted view (empty before the match started)."""
        if self.started is None or self.state is None:
            return {}
        result: dict[str, Any] = self.game.view(self.state, viewer_of(role, seat))
        return result
