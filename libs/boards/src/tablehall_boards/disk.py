"""The Драконы board: the round board of the cells (x, y) with x² + y² ≤ 104 (333 cells, 21 rows).

The centre is (0, 0); x grows to the east, y to the north; rows run from y = −10 to y = 10
(5 cells each at the poles, 21 on the row y = 0). The row y = 0 is the two-coloured neutral
border; red's half is y > 0, blue's y < 0. Red is side 0, blue side 1.

The eight cells around the centre are the marked start ring (the centre stays empty):

    y =  1    r r r      NW, N, NE: red
    y =  0    b . r      W: blue, E: red
    y = -1    b b b      SW, S, SE: blue

The sixes start at (0, 5) for red and (0, −5) for blue. `docs/boards.md` draws the whole disk.

A pawn moves toward the opponent's half (red south, blue north), takes diagonally forward, has
no double step, and promotes on the last cell of its column to a 2, 3, 4 or 5 (knight, bishop,
rook, queen).
"""

from __future__ import annotations

from functools import cache

from tablehall_boards.grid import Cell, Coord, Grid
from tablehall_boards.pawns import PawnRules
from tablehall_boards.pieces import Kind

RADIUS_SQUARED = 104
RED = 0
BLUE = 1
SIDES: tuple[int, ...] = (RED, BLUE)
PROMOTIONS: tuple[Kind, ...] = (Kind.KNIGHT, Kind.BISHOP, Kind.ROOK, Kind.QUEEN)
MARKED: dict[int, tuple[Coord, ...]] = {
    RED: ((-1, 1), (0, 1), (1, 1), (1, 0)),
    BLUE: ((1, -1), (0, -1), (-1, -1), (-1, 0)),
}
SIX_START: dict[int, Coord] = {RED: (0, 5), BLUE: (0, -5)}
_REACH = 10  # the largest |x| or |y| on the board: 10² ≤ 104 < 11²


@cache
def grid() -> Grid:
    """The 333-cell disk (built once)."""
    span = range(-_REACH, _REACH + 1)
    return Grid("dragons-disk", ((x, y) for x in span for y in span if x * x + y * y <= RADIUS_SQUARED))


def half_of(cell: Cell) -> int | None:
    """The side whose half `cell` is in; None on the border row y = 0."""
    y = grid().coord(cell)[1]
    return RED if y > 0 else BLUE if y < 0 else None


def half(side: int) -> frozenset[Cell]:
    return frozenset(c for c in grid() if half_of(c) == side)


def border() -> frozenset[Cell]:
    return frozenset(c for c in grid() if half_of(c) is None)


def pawn_rules(side: int) -> PawnRules:
    """Red's pawns go south (toward y < 0), blue's north; each promotes at its column's far end."""
    g = grid()
    forward = (0, -1) if side == RED else (0, 1)
    columns: dict[int, Cell] = {}
    for cell in g:
        x, y = g.coord(cell)
        best = columns.get(x)
        if best is None or (y < g.coord(best)[1] if side == RED else y > g.coord(best)[1]):
            columns[x] = cell
    return PawnRules(forward=forward, promotion_cells=frozenset(columns.values()), promotions=PROMOTIONS)


def marked_cells(side: int) -> tuple[Cell, ...]:
    g = grid()
    return tuple(g.cell(*c) for c in MARKED[side])


def six_start(side: int) -> Cell:
    return grid().cell(*SIX_START[side])
