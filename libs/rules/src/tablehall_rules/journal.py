"""Optional hooks a game may implement for the projection service.

- `journal(state_before, event) -> list[JournalEntry]`: the table's log as
  structured entries (a stable `code` and its `params`) with a rendered line
  in Russian and English. `audience` is the seats that may read the entry;
  None means everyone at or watching the table. An entry that reveals hidden
  information names its audience, and the game adds a public entry beside it
  when the others should know that something happened ("Alice drew a card").
- `standings(state) -> list[list[int]]`: live places (seats; ties share a
  place) computed from public information only, since everybody reads them.

Both are pure and total, like `view`. A game without them gets the
platform's generic entries (start, end, timeouts) and places at the end only.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import msgspec


class JournalEntry(msgspec.Struct, frozen=True):
    """One line of a table's journal."""

    code: str
    params: dict[str, Any] = msgspec.field(default_factory=dict)
    ru: str = ""
    en: str = ""
    # seats allowed to read the entry; None: everybody (players and spectators)
    audience: list[int] | None = None

    def visible_to_seat(self, seat: int | None) -> bool:
        """Whether a viewer in `seat` (None: a spectator) may read the entry."""
        return self.audience is None or (seat is not None and seat in self.audience)


@runtime_checkable
class Journaled(Protocol):
    def journal(self, state_before: Any, event: msgspec.Struct) -> list[JournalEntry]: ...


@runtime_checkable
class HasStandings(Protocol):
    def standings(self, state: Any) -> list[list[int]]: ...
