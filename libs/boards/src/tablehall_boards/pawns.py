"""How one side's pawns move: a forward direction, the cells that allow a double step, promotion.

A pawn steps one cell `forward` onto an `EMPTY` cell, two from a cell of `double_step_from`
when both cells are `EMPTY`, and takes one cell diagonally forward (forward plus or minus the
perpendicular) onto a `CAPTURE` cell. Reaching a cell of `promotion_cells` it becomes one of
`promotions` (one move per choice, in the order given).

The games' rules are built by their board modules (`cross.pawn_rules(seat)`,
`disk.pawn_rules(side)`); `rows_pawn_rules` makes the ordinary case: start row and promotion row
counted from the side's own edge.
"""

from __future__ import annotations

import msgspec

from tablehall_boards.grid import Cell, Direction, Grid
from tablehall_boards.pieces import Kind


class PawnRules(msgspec.Struct, frozen=True):
    forward: Direction
    double_step_from: frozenset[Cell] = frozenset()
    promotion_cells: frozenset[Cell] = frozenset()
    promotions: tuple[Kind, ...] = (Kind.QUEEN,)

    def __post_init__(self) -> None:
        fx, fy = self.forward
        if (abs(fx), abs(fy)) not in ((0, 1), (1, 0)):
            raise ValueError(f"a pawn moves orthogonally, not {self.forward}")
        if self.promotion_cells and not self.promotions:
            raise ValueError("promotion cells need at least one promotion kind")
        if Kind.PAWN in self.promotions:
            raise ValueError("a pawn cannot promote to a pawn")

    @property
    def capture_directions(self) -> tuple[Direction, Direction]:
        fx, fy = self.forward
        return (fx - fy, fy + fx), (fx + fy, fy - fx)


def rows_pawn_rules(
    grid: Grid,
    forward: Direction,
    start_row: int,
    promotion_row: int,
    promotions: tuple[Kind, ...] = (Kind.QUEEN,),
) -> PawnRules:
    """Pawn rules where rows are counted from the side's own edge (0 = the edge it starts from).

    The own edge is the board's extreme in the direction opposite to `forward`: a pawn moving
    north counts rows from `min_y`, one moving west from `max_x`. `start_row` is the row of its
    double step (-1: none), `promotion_row` the row where it promotes.
    """
    fx, fy = forward

    def row(cell: Cell) -> int:
        x, y = grid.coord(cell)
        if fy == 1:
            return y - grid.min_y
        if fy == -1:
            return grid.max_y - y
        if fx == 1:
            return x - grid.min_x
        return grid.max_x - x

    return PawnRules(
        forward=forward,
        double_step_from=frozenset(c for c in grid if row(c) == start_row),
        promotion_cells=frozenset(c for c in grid if row(c) == promotion_row),
        promotions=promotions,
    )
