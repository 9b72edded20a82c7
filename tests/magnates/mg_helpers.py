"""Scene set-up for Магнаты's rule tests, which play on `tablehall_rules.testing.Table`: cells by
name, hand-placed pieces, Kings and Companies, and the events of one kind among those played."""

from __future__ import annotations

from typing import Any

import msgspec

from magnates import board
from magnates.state import State


def cell(name: str) -> int:
    return board.grid().parse(name)


def clear_pieces(state: State, *seats: int) -> None:
    for seat in seats or range(len(state.players)):
        state.players[seat].pieces = {}


def put(state: State, seat: int, kind: str, at: str | int) -> None:
    """Place a piece of `seat` (taking it off wherever it stood, and anybody on the cell off)."""
    target = cell(at) if isinstance(at, str) else at
    for p in state.players:
        for k, c in list(p.pieces.items()):
            if c == target:
                del p.pieces[k]
    state.players[seat].pieces[kind] = target


def king_at(state: State, seat: int, position: int) -> None:
    state.players[seat].king = position


def own(state: State, at: str | int, seat: int, level: int = 0) -> int:
    target = cell(at) if isinstance(at, str) else at
    assert board.square(target).is_company
    state.owner[target] = seat
    state.level[target] = level
    return target


def of(events: list[msgspec.Struct], kind: type[Any]) -> list[Any]:
    """The events of one kind, in order."""
    return [e for e in events if isinstance(e, kind)]
