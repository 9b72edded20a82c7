"""Knight jumps, single and double (Магнаты: two L-jumps in a row on an even Blue die).

A double jump is a jump to a middle cell and a second jump from there. The middle landing may be
anywhere on the board (occupied, on the perimeter): only the end is the game's to judge. The end
may be the start itself (a jump there and back); a game that does not count that as a move
filters it out.
"""

from __future__ import annotations

from tablehall_boards.grid import Cell, Grid


def knight_jumps(grid: Grid, start: Cell) -> tuple[Cell, ...]:
    return grid.knight_jumps(start)


def knight_double_jumps(grid: Grid, start: Cell) -> tuple[tuple[Cell, Cell], ...]:
    """Every (middle, end) of two knight jumps from `start`, in jump order."""
    return tuple((middle, end) for middle in grid.knight_jumps(start) for end in grid.knight_jumps(middle))


def knight_double_targets(grid: Grid, start: Cell) -> dict[Cell, tuple[Cell, ...]]:
    """Per end cell of a double jump, the middle cells that reach it (sorted by index)."""
    found: dict[Cell, set[Cell]] = {}
    for middle, end in knight_double_jumps(grid, start):
        found.setdefault(end, set()).add(middle)
    return {end: tuple(sorted(middles)) for end, middles in sorted(found.items())}
