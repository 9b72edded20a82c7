"""The Драконы board facts the rules read: sides, who supports a placement, line windows.

Cells are `tablehall_boards.disk` cell indices. A cell's occupant is kept as two parallel lists
in the state: `owner` (FREE, RED, BLUE or BLACK) and `face` (the number on it, 0 for a blank
domino half), plus `domino` (the id of the placed domino covering it, NO_DOMINO otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from tablehall_boards import disk
from tablehall_boards.grid import Cell, Grid

FREE = -1
RED = disk.RED
BLUE = disk.BLUE
BLACK = 2
NO_DOMINO = -1
SIDES = (RED, BLUE)
CELLS = 333
COLOUR = {RED: "red", BLUE: "blue"}
COLOUR_RU = {RED: "красные", BLUE: "синие"}

ORTHOGONAL_LINES = ((1, 0), (0, 1))
DIAGONAL_LINES = ((1, 1), (1, -1))


def grid() -> Grid:
    return disk.grid()


def other(side: int) -> int:
    return 1 - side


def supports(owner: int, side: int) -> bool:
    """Whether a cell with `owner` counts as `side`'s own die (its dice, its domino halves, black dice)."""
    return owner in (side, BLACK)


@cache
def windows(length: int) -> tuple[tuple[tuple[tuple[Cell, ...], bool], ...], ...]:
    """Per cell, every line of `length` cells through it: (cells in line order, diagonal?)."""
    g = grid()
    out: list[list[tuple[tuple[Cell, ...], bool]]] = [[] for _ in g]
    for direction, diagonal in [(d, False) for d in ORTHOGONAL_LINES] + [(d, True) for d in DIAGONAL_LINES]:
        dx, dy = direction
        for cell in g:
            x, y = g.coord(cell)
            line = [g.cell_at(x + i * dx, y + i * dy) for i in range(length)]
            if any(c is None for c in line):
                continue
            cells = tuple(c for c in line if c is not None)
            for c in cells:
                out[c].append((cells, diagonal))
    return tuple(tuple(w) for w in out)


@cache
def side_neighbours() -> tuple[tuple[Cell, ...], ...]:
    g = grid()
    return tuple(g.neighbours4(c) for c in g)


@cache
def all_neighbours() -> tuple[tuple[Cell, ...], ...]:
    g = grid()
    return tuple(g.neighbours8(c) for c in g)


@cache
def corner_neighbours() -> tuple[tuple[Cell, ...], ...]:
    g = grid()
    return tuple(tuple(n for n in g.neighbours8(c) if n not in g.neighbours4(c)) for c in g)


def half_of(cell: Cell) -> int | None:
    return disk.half_of(cell)


def touches_side(owner: Sequence[int], cell: Cell, side: int, skip: Cell | None = None) -> bool:
    """Rule 1: a side neighbour is `side`'s own die, domino half or a black die."""
    return any(supports(owner[n], side) for n in side_neighbours()[cell] if n != skip)


def touches_corner(owner: Sequence[int], cell: Cell, side: int, skip: Cell | None = None) -> bool:
    return any(supports(owner[n], side) for n in corner_neighbours()[cell] if n != skip)


class Contact:
    """Per cell, for one side and one board: own die there, a side contact, a corner contact.

    Built once per question (a legal-move listing) instead of asking each cell's neighbours again.
    """

    __slots__ = ("corner", "own", "side")

    def __init__(self, owner: Sequence[int], side: int) -> None:
        own = [o in (side, BLACK) for o in owner]
        sides, corners = side_neighbours(), corner_neighbours()
        self.own = own
        self.side = [False] * len(owner)
        self.corner = [False] * len(owner)
        for cell, mine in enumerate(own):  # mark the neighbours of each own cell
            if mine:
                for n in sides[cell]:
                    self.side[n] = True
                for n in corners[cell]:
                    self.corner[n] = True
