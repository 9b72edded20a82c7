"""Billiard moves: a line of exactly N steps that bounces off the board's edge (Магнаты).

The ruling: the bounce is at the edge cell. A piece whose next step would leave the board
reverses that component of its direction and steps on; the bounce costs no step. So an
orthogonal move comes straight back, a diagonal reflects off a side (angle of incidence = angle
of reflection), and a diagonal into a corner comes back along itself.

On a rectangle "that component" is plain: the x component when the step would cross the west
or east edge, the y component for north or south, both in a corner. On a masked grid the same
test is made per component (the cell beside in x, the cell beside in y); when neither alone is
missing (a notch), both are reversed.

`billiard_path` gives the cells entered, one per step, the last being where the move ends. A path
may pass the same cell twice and may pass the start (a move that comes straight back); whether
the mover's own start counts as empty is the game's decision.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from tablehall_boards.grid import Cell, Direction, Grid


def billiard_path(grid: Grid, start: Cell, direction: Direction, steps: int) -> tuple[Cell, ...]:
    """The cells entered by `steps` steps from `start` along `direction`, bouncing off the edge.

    A path depends on the shape only (grids are immutable and shared), so each is worked out once.
    """
    return _path(grid, start, direction, steps)


@functools.lru_cache(maxsize=1 << 16)
def _path(grid: Grid, start: Cell, direction: Direction, steps: int) -> tuple[Cell, ...]:
    if steps < 0:
        raise ValueError("steps must be at least 0")
    dx, dy = direction
    if (dx, dy) == (0, 0) or max(abs(dx), abs(dy)) != 1:
        raise ValueError(f"a billiard direction is one of the 8 unit steps, not {direction}")
    x, y = grid.coord(start)
    path: list[Cell] = []
    for _ in range(steps):
        if not grid.has(x + dx, y + dy):
            flip_x = dx != 0 and not grid.has(x + dx, y)
            flip_y = dy != 0 and not grid.has(x, y + dy)
            if not flip_x and not flip_y:
                flip_x = flip_y = True
            if flip_x:
                dx = -dx
            if flip_y:
                dy = -dy
            if not grid.has(x + dx, y + dy):
                raise ValueError(f"no way to bounce from {grid.name_of(grid.cell(x, y))} along {direction}")
        x, y = x + dx, y + dy
        path.append(grid.cell(x, y))
    return tuple(path)


def billiard_paths(
    grid: Grid, start: Cell, directions: tuple[Direction, ...], steps: int
) -> dict[Direction, tuple[Cell, ...]]:
    """The billiard path along each of `directions` (e.g. a queen's eight) for one step count."""
    return {d: billiard_path(grid, start, d, steps) for d in directions}


def billiard_ends(
    grid: Grid,
    start: Cell,
    directions: tuple[Direction, ...],
    steps: int,
    passable: Callable[[Cell], bool],
) -> dict[Direction, Cell]:
    """Per direction, the end of the path when every cell before the end is `passable`.

    The end itself is not judged (it may be empty, an enemy to duel, or a forbidden stop such as
    the perimeter): that is the game's decision. `passable` is asked about the start too when a
    path comes back over it, so a game that treats the mover's own cell as empty says so there.
    """
    ends: dict[Direction, Cell] = {}
    for direction in directions:
        cells = billiard_path(grid, start, direction, steps)
        if cells and all(passable(c) for c in cells[:-1]):
            ends[direction] = cells[-1]
    return ends
