"""One view version: everything the screen shows at a time comes from one `Frame`.

A seat's frame is the match's TableView (state, open decisions and legal moves of one version);
a spectator's is the live feed's update (no moves). The screen never mixes two frames.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tablehall_sdk import Command, Decision, LegalMove, TableView, Update


@dataclass(frozen=True)
class Frame:
    table: str
    game: str
    version: int
    seat: int | None  # None: a spectator
    state: Mapping[str, Any]
    decisions: tuple[Decision, ...]
    moves: tuple[LegalMove, ...]  # the seat's legal-move descriptors at this version
    legal: tuple[Command, ...]  # the same, spelled out
    finished: bool
    outcome: Mapping[str, Any] | None
    teams: tuple[tuple[int, ...], ...] = ()
    names: tuple[str, ...] = ()  # the seats' names (the lobby's), by seat

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) and self.names[seat] else str(seat)

    def my_decisions(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.seat == self.seat)


def from_view(view: TableView, names: tuple[str, ...]) -> Frame:
    return Frame(
        table=view.table,
        game=view.game,
        version=view.version,
        seat=view.seat,
        state=view.state,
        decisions=view.decisions,
        moves=view.moves if not view.finished else (),
        legal=view.legal if not view.finished else (),
        finished=view.finished,
        outcome=view.outcome,
        teams=view.teams,
        names=names,
    )


def from_update(update: Update, names: tuple[str, ...]) -> Frame:
    return Frame(
        table=update.table,
        game=update.game,
        version=update.version,
        seat=None,
        state=update.state,
        decisions=update.decisions,
        moves=(),
        legal=(),
        finished=update.finished,
        outcome=update.outcome,
        names=names,
    )
