"""The Магнаты board: 10×10, its 36-cell perimeter a clockwise track, an 8×8 field inside.

Coordinates (x, y) are 0..9, x west→east (files `a`..`j`), y south→north (ranks `1`..`10`).
The perimeter track starts at the south-west corner (position 0) and goes clockwise: up the west
edge, along the north edge, down the east edge, back along the south edge. The corners (the
Banks) are positions 0 (a1), 9 (a10), 18 (j10) and 27 (j1); each side holds eight cells between
two corners. The field is the inner 8×8 (x, y in 1..8); its central 4×4 (3..6) holds the inner
Companies, and «Сити» is the central 2×2 (4..5).

         a b c d e f g h i j
     10  9 > > > > > > > > 18      positions 9..18 along the north edge
      9  ^ . . . . . . . . v
      …  ^ . . # # # # . . v       # the central 4×4, with «Сити» at its middle 2×2
      2  ^ . . . . . . . . v
      1  0 < < < < < < < < 27      positions 27..35 back along the south edge

Pieces other than the King move inside with billiard bounces off the 10×10 edge
(`billiard`), and knights may jump twice (`jumps.knight_double_jumps`).
"""

from __future__ import annotations

from functools import cache

from tablehall_boards.grid import Cell, Grid, rectangle_grid
from tablehall_boards.track import Track, perimeter_track

SIZE = 10
CORNER_POSITIONS: tuple[int, ...] = (0, 9, 18, 27)


@cache
def grid() -> Grid:
    return rectangle_grid("magnates-10x10", SIZE, SIZE)


@cache
def perimeter() -> Track:
    """The 36 perimeter cells as a clockwise track from a1."""
    return perimeter_track(grid())


def field() -> frozenset[Cell]:
    """The inner 8×8, where pieces other than the King may stop."""
    return grid().rectangle(1, 1, SIZE - 2, SIZE - 2)


def centre() -> frozenset[Cell]:
    """The central 4×4 of the field (the inner Companies)."""
    return grid().rectangle(3, 3, 4, 4)


def city() -> frozenset[Cell]:
    """«Сити»: the central 2×2."""
    return grid().rectangle(4, 4, 2, 2)


def corners() -> tuple[Cell, ...]:
    track = perimeter()
    return tuple(track.cell_of(p) for p in CORNER_POSITIONS)


def is_perimeter(cell: Cell) -> bool:
    x, y = grid().coord(cell)
    return x in (0, SIZE - 1) or y in (0, SIZE - 1)
