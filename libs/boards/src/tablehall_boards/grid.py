"""Masked square grids: a set of cells of a square lattice, with fixed indices and neighbour tables.

A `Grid` is built once from the coordinates of its cells and never changes. Coordinates are
`(x, y)` pairs (a board's file and rank); x grows to the east, y to the north. Cells are
numbered `0 .. len(grid) - 1` south to north, and west to east within a row (sorted by `(y, x)`),
so a cell index is stable API: games store cells as these integers (`Cell = int`, as
python-chess's `Square = int`) and iterate them in this order.

Tables computed once per grid (on first use, then kept): 4- and 8-neighbours, the step from a
cell in a direction, rays (every cell reached by repeating a step until the board ends) and
leaps (the targets of a set of jumps, such as a knight's). Move generators read these tables
instead of doing coordinate arithmetic per move.

Algebraic names (`a1`, `h1`, `n8`, `g14`) are given by grids that use them: files are letters
from `a` at the grid's smallest x, ranks are numbers from `1` at its smallest y.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = int
Coord = tuple[int, int]
Direction = tuple[int, int]

NORTH: Direction = (0, 1)
EAST: Direction = (1, 0)
SOUTH: Direction = (0, -1)
WEST: Direction = (-1, 0)
ORTHOGONAL: tuple[Direction, ...] = (NORTH, EAST, SOUTH, WEST)
DIAGONAL: tuple[Direction, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KING_STEPS: tuple[Direction, ...] = ORTHOGONAL + DIAGONAL
KNIGHT_JUMPS: tuple[Direction, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

_FILES = "abcdefghijklmnopqrstuvwxyz"


class Grid:
    """The cells of one board shape. Immutable; build each shape once and share it."""

    __slots__ = (
        "_index",
        "_leaps",
        "_rays",
        "_steps",
        "algebraic",
        "coords",
        "max_x",
        "max_y",
        "min_x",
        "min_y",
        "name",
    )

    def __init__(self, name: str, coords: Iterable[Coord], *, algebraic: bool = False) -> None:
        ordered = tuple(sorted(set(coords), key=lambda c: (c[1], c[0])))
        if not ordered:
            raise ValueError("a grid needs at least one cell")
        self.name = name
        self.coords: tuple[Coord, ...] = ordered
        self._index: dict[Coord, Cell] = {c: i for i, c in enumerate(ordered)}
        self.min_x = min(x for x, _ in ordered)
        self.max_x = max(x for x, _ in ordered)
        self.min_y = min(y for _, y in ordered)
        self.max_y = max(y for _, y in ordered)
        self.algebraic = algebraic
        if algebraic and self.max_x - self.min_x >= len(_FILES):
            raise ValueError("too many files for letter names")
        self._steps: dict[Direction, tuple[Cell | None, ...]] = {}
        self._rays: dict[Direction, tuple[tuple[Cell, ...], ...]] = {}
        self._leaps: dict[tuple[Direction, ...], tuple[tuple[Cell, ...], ...]] = {}

    def __repr__(self) -> str:
        return f"Grid({self.name!r}, {len(self)} cells)"

    def __len__(self) -> int:
        return len(self.coords)

    def __iter__(self) -> Iterator[Cell]:
        return iter(range(len(self.coords)))

    def __contains__(self, coord: object) -> bool:
        return coord in self._index

    @property
    def width(self) -> int:
        return self.max_x - self.min_x + 1

    @property
    def height(self) -> int:
        return self.max_y - self.min_y + 1

    def has(self, x: int, y: int) -> bool:
        return (x, y) in self._index

    def cell(self, x: int, y: int) -> Cell:
        """The index of the cell at (x, y); KeyError when it is not on the board."""
        return self._index[(x, y)]

    def cell_at(self, x: int, y: int) -> Cell | None:
        return self._index.get((x, y))

    def coord(self, cell: Cell) -> Coord:
        return self.coords[cell]

    # --- names -------------------------------------------------------------------------------

    def name_of(self, cell: Cell) -> str:
        """`h1` on an algebraic grid, `x,y` on any other."""
        x, y = self.coords[cell]
        if self.algebraic:
            return f"{_FILES[x - self.min_x]}{y - self.min_y + 1}"
        return f"{x},{y}"

    def parse(self, name: str) -> Cell:
        """The cell named `name` (as `name_of` writes it); ValueError when there is none."""
        try:
            if self.algebraic:
                x = _FILES.index(name[0]) + self.min_x
                y = int(name[1:]) - 1 + self.min_y
            else:
                sx, sy = name.split(",")
                x, y = int(sx), int(sy)
        except (ValueError, IndexError):
            raise ValueError(f"not a cell name: {name!r}") from None
        found = self._index.get((x, y))
        if found is None or self.name_of(found) != name:
            raise ValueError(f"no cell {name!r} on {self.name}")
        return found

    # --- tables ------------------------------------------------------------------------------

    def steps(self, direction: Direction) -> tuple[Cell | None, ...]:
        """Per cell, the cell one step in `direction` (None off the board)."""
        table = self._steps.get(direction)
        if table is None:
            dx, dy = direction
            table = tuple(self._index.get((x + dx, y + dy)) for x, y in self.coords)
            self._steps[direction] = table
        return table

    def step(self, cell: Cell, direction: Direction) -> Cell | None:
        return self.steps(direction)[cell]

    def rays(self, direction: Direction) -> tuple[tuple[Cell, ...], ...]:
        """Per cell, the cells reached by repeating `direction` until the first one off the board.

        A ray stops at the first missing cell: on a masked grid it does not jump a gap.
        """
        table = self._rays.get(direction)
        if table is None:
            step = self.steps(direction)
            built: list[tuple[Cell, ...]] = []
            for cell in range(len(self.coords)):
                ray: list[Cell] = []
                nxt = step[cell]
                while nxt is not None:
                    ray.append(nxt)
                    nxt = step[nxt]
                built.append(tuple(ray))
            table = tuple(built)
            self._rays[direction] = table
        return table

    def ray(self, cell: Cell, direction: Direction) -> tuple[Cell, ...]:
        return self.rays(direction)[cell]

    def leaps(self, offsets: tuple[Direction, ...]) -> tuple[tuple[Cell, ...], ...]:
        """Per cell, the on-board targets of the jumps `offsets` (in the order given)."""
        table = self._leaps.get(offsets)
        if table is None:
            table = tuple(
                tuple(t for t in (self._index.get((x + dx, y + dy)) for dx, dy in offsets) if t is not None)
                for x, y in self.coords
            )
            self._leaps[offsets] = table
        return table

    def neighbours4(self, cell: Cell) -> tuple[Cell, ...]:
        """The side neighbours (N, E, S, W order, those on the board)."""
        return self.leaps(ORTHOGONAL)[cell]

    def neighbours8(self, cell: Cell) -> tuple[Cell, ...]:
        """The side and corner neighbours (N, E, S, W, NE, SE, SW, NW order)."""
        return self.leaps(KING_STEPS)[cell]

    def knight_jumps(self, cell: Cell) -> tuple[Cell, ...]:
        return self.leaps(KNIGHT_JUMPS)[cell]

    def adjacent_pairs(self) -> tuple[tuple[Cell, Cell], ...]:
        """Every unordered pair of side neighbours once, as (lower index, higher index)."""
        east = self.steps(EAST)
        north = self.steps(NORTH)
        pairs: list[tuple[Cell, Cell]] = []
        for cell in range(len(self.coords)):
            for nxt in (east[cell], north[cell]):
                if nxt is not None:
                    pairs.append((cell, nxt))
        return tuple(pairs)

    def region(self, cells: Iterable[Coord]) -> frozenset[Cell]:
        """The indices of the given coordinates that are on the board."""
        return frozenset(i for i in (self._index.get(c) for c in cells) if i is not None)

    def rectangle(self, x0: int, y0: int, width: int, height: int) -> frozenset[Cell]:
        """The cells of the board inside the rectangle with its south-west corner at (x0, y0)."""
        return self.region((x, y) for x in range(x0, x0 + width) for y in range(y0, y0 + height))


def rectangle_grid(name: str, width: int, height: int, *, algebraic: bool = True) -> Grid:
    """A full width × height board with (0, 0) in the south-west corner."""
    return Grid(name, ((x, y) for x in range(width) for y in range(height)), algebraic=algebraic)
