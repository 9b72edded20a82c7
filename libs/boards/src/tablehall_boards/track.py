"""A closed track of positions walked in one direction: Магнаты's perimeter, a ring of squares.

Positions are `0 .. size - 1`; walking forward goes to the next position and wraps from the last
to 0. A `Track` may carry the grid cell of each position (the Магнаты perimeter does; an abstract
ring like Гомункул's 40 squares does not). `advance` walks a number of steps and answers what a
game needs for "passing" and "stopping": the positions passed (strictly between start and end,
in order, each lap's passes included) and the end.
"""

from __future__ import annotations

import msgspec

from tablehall_boards.grid import Cell, Grid


class TrackMove(msgspec.Struct, frozen=True):
    """A walk of `steps` from `start`: the positions passed (not the start, not the end) and the end."""

    start: int
    steps: int
    end: int
    passed: tuple[int, ...]

    def passes(self, position: int) -> bool:
        """True when the walk goes over `position` without stopping there (counted once)."""
        return position in self.passed

    def times_passed(self, position: int) -> int:
        return self.passed.count(position)

    def stops_at(self, position: int) -> bool:
        return self.end == position

    def reaches(self, position: int) -> bool:
        """Passes or stops at `position`."""
        return self.end == position or position in self.passed


class Track(msgspec.Struct, frozen=True):
    size: int
    cells: tuple[Cell, ...] = ()

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("a track needs at least one position")
        if self.cells and len(self.cells) != self.size:
            raise ValueError("a track's cells must give one cell per position")
        if len(set(self.cells)) != len(self.cells):
            raise ValueError("a track visits each cell once")

    def advance(self, start: int, steps: int) -> TrackMove:
        """Walk `steps` forward (negative: backward) from `start`."""
        if not 0 <= start < self.size:
            raise ValueError(f"no position {start} on a track of {self.size}")
        sign = 1 if steps >= 0 else -1
        passed = tuple((start + sign * k) % self.size for k in range(1, abs(steps)))
        return TrackMove(start=start, steps=steps, end=(start + steps) % self.size, passed=passed)

    def distance(self, start: int, end: int) -> int:
        """Steps forward from `start` to `end` (0 when equal)."""
        return (end - start) % self.size

    def cell_of(self, position: int) -> Cell:
        if not self.cells:
            raise ValueError("this track has no cells")
        return self.cells[position % self.size]

    def position_of(self, cell: Cell) -> int:
        """The position on the track of a grid cell; ValueError off the track."""
        return self.cells.index(cell)


def perimeter_track(grid: Grid) -> Track:
    """The clockwise perimeter of a full rectangular grid, from its south-west corner going north.

    Clockwise as seen from above with north up: up the west edge, east along the north edge,
    down the east edge, west along the south edge.
    """
    x0, y0, x1, y1 = grid.min_x, grid.min_y, grid.max_x, grid.max_y
    if len(grid) != grid.width * grid.height or grid.width < 2 or grid.height < 2:
        raise ValueError("a perimeter track needs a full rectangle of at least 2×2")
    coords = (
        [(x0, y) for y in range(y0, y1)]
        + [(x, y1) for x in range(x0, x1)]
        + [(x1, y) for y in range(y1, y0, -1)]
        + [(x, y0) for x in range(x1, x0, -1)]
    )
    return Track(size=len(coords), cells=tuple(grid.cell(x, y) for x, y in coords))
