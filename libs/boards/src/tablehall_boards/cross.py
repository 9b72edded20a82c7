"""The Гомункул board: the four-player chess cross, 14×14 less its four 3×3 corners (160 cells).

Coordinates (file, rank) are 0..13, files west→east (`a`..`n`), ranks south→north (`1`..`14`).
Seats go clockwise from the south arm: 0 south, 1 west, 2 north, 3 east. Each army stands on
its own arm: the back rank on the edge row (8 cells), pawns on the row in front; the back rank
from the owner's left is R N B Q K B N R, so the kings start on h1, a7, g14 and n8. Pawns move
toward the far side, may step two from their start row, and promote to a queen on the 8th row
from their own edge (seat 0: rank 8; seat 1: file h; seat 2: rank 7; seat 3: file g).

        a b c d e f g h i j k l m n
    14        r n b k q b n r          seat 2 (north)
    13        p p p p p p p p
    12        . . . . . . . .
    11  R P . . . . . . . . . . p r
    10  N P . . . . . . . . . . p n
     9  B P . . . . . . . . . . p b
     8  Q P . . . . . . . . . . p k    seat 3 (east)
     7  K P . . . . . . . . . . p q
     6  B P . . . . . . . . . . p b
     5  N P . . . . . . . . . . p n
     4  R P . . . . . . . . . . p r
     3        . . . . . . . .
     2        P P P P P P P P
     1        R N B Q K B N R          seat 0 (south); seat 1 (west) on files a-b

The centre (where mines start) is the central 8×8 square, files d..k × ranks 4..11.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from tablehall_boards.grid import Cell, Coord, Direction, Grid
from tablehall_boards.pawns import PawnRules
from tablehall_boards.pieces import Kind, Piece

SIZE = 14
ARM = 3
SEATS: tuple[int, ...] = (0, 1, 2, 3)
SOUTH_SEAT, WEST_SEAT, NORTH_SEAT, EAST_SEAT = SEATS
BACK_RANK: tuple[Kind, ...] = (
    Kind.ROOK,
    Kind.KNIGHT,
    Kind.BISHOP,
    Kind.QUEEN,
    Kind.KING,
    Kind.BISHOP,
    Kind.KNIGHT,
    Kind.ROOK,
)
FORWARD: dict[int, Direction] = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}
PROMOTION_ROW = 7  # the 8th row from the own edge
PAWN_ROW = 1


def _on_cross(x: int, y: int) -> bool:
    return ARM <= x < SIZE - ARM or ARM <= y < SIZE - ARM


@cache
def grid() -> Grid:
    """The 160-cell cross (built once)."""
    return Grid(
        "homunculus-cross", ((x, y) for x in range(SIZE) for y in range(SIZE) if _on_cross(x, y)), algebraic=True
    )


def seat_coord(seat: int, lateral: int, row: int) -> Coord:
    """The coordinate `lateral` cells from the seat's left and `row` rows from its own edge.

    `lateral` 0..7 spans the seat's arm (its back rank), `row` 0..13 runs toward the far side.
    """
    if seat == SOUTH_SEAT:
        return (ARM + lateral, row)
    if seat == WEST_SEAT:
        return (row, SIZE - ARM - 1 - lateral)
    if seat == NORTH_SEAT:
        return (SIZE - ARM - 1 - lateral, SIZE - 1 - row)
    if seat == EAST_SEAT:
        return (SIZE - 1 - row, ARM + lateral)
    raise ValueError(f"no seat {seat}")


def row_of(seat: int, cell: Cell) -> int:
    """How many rows `cell` lies from `seat`'s own edge (0: its back rank's row)."""
    x, y = grid().coord(cell)
    return {0: y, 1: x, 2: SIZE - 1 - y, 3: SIZE - 1 - x}[seat]


@cache
def row_cells(seat: int, row: int) -> frozenset[Cell]:
    """Every cell of the board `row` rows from `seat`'s edge (the whole width of the board)."""
    g = grid()
    return frozenset(c for c in g if row_of(seat, c) == row)


@cache
def centre() -> frozenset[Cell]:
    """The central 8×8 square (where Гомункул's mines start)."""
    return grid().rectangle(ARM, ARM, SIZE - 2 * ARM, SIZE - 2 * ARM)


def pawn_rules(seat: int) -> PawnRules:
    return PawnRules(
        forward=FORWARD[seat],
        double_step_from=row_cells(seat, PAWN_ROW),
        promotion_cells=row_cells(seat, PROMOTION_ROW),
        promotions=(Kind.QUEEN,),
    )


def army(seat: int) -> dict[Cell, Piece]:
    """The starting army of `seat`: back rank R N B Q K B N R from its left, pawns in front."""
    g = grid()
    placed: dict[Cell, Piece] = {}
    for lateral, kind in enumerate(BACK_RANK):
        placed[g.cell(*seat_coord(seat, lateral, 0))] = Piece(kind, seat)
        placed[g.cell(*seat_coord(seat, lateral, PAWN_ROW))] = Piece(Kind.PAWN, seat)
    return placed


def seats_for(players: int) -> tuple[int, ...]:
    """Which seats 2, 3 or 4 players take: opposite arms for two, the fourth arm empty for three."""
    try:
        return {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[players]
    except KeyError:
        raise ValueError(f"Гомункул seats 2 to 4 players, not {players}") from None


def standard_setup(seats: Iterable[int]) -> dict[Cell, Piece]:
    """The armies of the given seats in their starting places."""
    placed: dict[Cell, Piece] = {}
    for seat in seats:
        placed.update(army(seat))
    return placed
