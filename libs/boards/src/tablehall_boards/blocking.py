"""What a moving piece may do at each cell: the blocking policy a game hands the move generator.

A policy answers, for one piece, a `Verdict` per cell of the grid (a sequence indexed by cell):

- `EMPTY`: the piece may stop there (a quiet move); a sliding piece goes on past it.
- `CAPTURE`: the piece may stop there by taking; a sliding piece stops there.
- `BLOCKED`: the piece may not enter; a sliding piece stops before it.
- `PASS`: the piece may not stop there, but a sliding piece goes on through it.

That is enough for every board rule of the three games: standard chess (own pieces `BLOCKED`,
enemy pieces `CAPTURE`); Драконы (every occupied cell blocks; only enemy dice are `CAPTURE`,
dominoes and black dice `BLOCKED`); Гомункул (an enemy domino is a wall, `BLOCKED`, or
`CAPTURE` for a piece strong enough to pierce its half; an own or allied domino is a bridge,
`PASS`; an ally's piece is `BLOCKED`; a hidden mine is `EMPTY`, since passing one does not set
it off and the game resolves a stop on it). Leapers (knight, king) and pawns only look at their
target cells, so a knight jumps any wall; `PASS` never is a legal stop.

Policies are asked once per piece (not per cell), so the generator's inner loops only index
lists. `OccupancyBlocking` is standard chess; `CallbackBlocking` adapts a per-cell function;
`Overlay` puts fixed verdicts (walls) over another policy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import IntEnum
from typing import Protocol

from tablehall_boards.grid import Cell
from tablehall_boards.pieces import Piece


class Verdict(IntEnum):
    EMPTY = 0
    CAPTURE = 1
    BLOCKED = 2
    PASS = 3


class Blocking(Protocol):
    def verdicts(self, piece: Piece) -> Sequence[Verdict]:
        """Per cell of the grid, what `piece` may do there."""
        ...


def _opponents(a: int, b: int) -> bool:
    return a != b


class OccupancyBlocking:
    """Standard chess: own (and allied) pieces block, opponents' pieces may be taken, the rest is empty.

    `is_enemy(mover_side, other_side)` says who may be taken (default: every other side).
    """

    __slots__ = ("_cache", "_is_enemy", "_occupant")

    def __init__(
        self,
        size: int,
        placement: Mapping[Cell, Piece],
        is_enemy: Callable[[int, int], bool] = _opponents,
    ) -> None:
        occupant: list[int | None] = [None] * size
        for cell, piece in placement.items():
            occupant[cell] = piece.side
        self._occupant = occupant
        self._is_enemy = is_enemy
        self._cache: dict[int, list[Verdict]] = {}

    def verdicts(self, piece: Piece) -> Sequence[Verdict]:
        side = piece.side
        found = self._cache.get(side)
        if found is None:
            empty, capture, blocked = Verdict.EMPTY, Verdict.CAPTURE, Verdict.BLOCKED
            enemy = self._is_enemy
            found = [empty if other is None else capture if enemy(side, other) else blocked for other in self._occupant]
            self._cache[side] = found
        return found


class CallbackBlocking:
    """A policy from a function `(piece, cell) -> Verdict`, asked once per piece and cell."""

    __slots__ = ("_cache", "_decide", "_size")

    def __init__(self, size: int, decide: Callable[[Piece, Cell], Verdict]) -> None:
        self._size = size
        self._decide = decide
        self._cache: dict[Piece, list[Verdict]] = {}

    def verdicts(self, piece: Piece) -> Sequence[Verdict]:
        found = self._cache.get(piece)
        if found is None:
            found = [self._decide(piece, cell) for cell in range(self._size)]
            self._cache[piece] = found
        return found


class Overlay:
    """`base`, with fixed verdicts for some cells that hold for every piece (walls, closed cells)."""

    __slots__ = ("_base", "_cache", "_cells")

    def __init__(self, base: Blocking, cells: Mapping[Cell, Verdict]) -> None:
        self._base = base
        self._cells = dict(cells)
        self._cache: dict[Piece, list[Verdict]] = {}

    def verdicts(self, piece: Piece) -> Sequence[Verdict]:
        found = self._cache.get(piece)
        if found is None:
            found = list(self._base.verdicts(piece))
            for cell, verdict in self._cells.items():
                found[cell] = verdict
            self._cache[piece] = found
        return found
