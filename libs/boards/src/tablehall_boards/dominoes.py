"""Dominoes: tiles, double-six sets, the bazaar to draw from, placements on a grid.

A `Tile` is a value (`low` ≤ `high`, pips 0..6; a blank half is 0, Драконы's «пустышка»). Sets
hold equal tiles more than once (Гомункул's two sets at four players), so a `Bazaar` is a
multiset kept sorted: drawing picks a random index with the table's `DrawSource` (auditable),
and `take` removes a tile by value, which is all `evolve` needs to replay the draw from the
tile the event names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import msgspec

from tablehall_boards.grid import Cell, Grid
from tablehall_rules import DrawSource

MAX_PIPS = 6


class Tile(msgspec.Struct, frozen=True, order=True, array_like=True):
    low: int
    high: int

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high <= MAX_PIPS:
            raise ValueError(f"a double-six tile has 0 ≤ low ≤ high ≤ 6, not {self.low}-{self.high}")

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


def tile(a: int, b: int) -> Tile:
    """The tile with halves `a` and `b`, in either order."""
    return Tile(min(a, b), max(a, b))


def double_six() -> tuple[Tile, ...]:
    """One double-six set: the 28 tiles 0-0 … 6-6, sorted."""
    return tuple(Tile(low, high) for low in range(MAX_PIPS + 1) for high in range(low, MAX_PIPS + 1))


def domino_sets(count: int) -> tuple[Tile, ...]:
    """`count` double-six sets together (28 × count tiles), sorted."""
    if count < 1:
        raise ValueError("at least one set")
    return tuple(sorted(double_six() * count))


class Bazaar(msgspec.Struct, frozen=True):
    """The tiles left to draw, as a sorted multiset."""

    tiles: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        if list(self.tiles) != sorted(self.tiles):
            raise ValueError("a bazaar keeps its tiles sorted (build it with bazaar_of)")

    def __len__(self) -> int:
        return len(self.tiles)

    def count(self, t: Tile) -> int:
        return self.tiles.count(t)


def bazaar_of(tiles: Iterable[Tile]) -> Bazaar:
    return Bazaar(tuple(sorted(tiles)))


def draw_tile(bazaar: Bazaar, source: DrawSource) -> tuple[Bazaar, Tile]:
    """A uniformly random tile from the bazaar (one recorded draw) and the bazaar without it."""
    if not bazaar.tiles:
        raise ValueError("the bazaar is empty")
    drawn = bazaar.tiles[source.randint(0, len(bazaar.tiles) - 1)]
    return take(bazaar, drawn), drawn


def take(bazaar: Bazaar, t: Tile) -> Bazaar:
    """The bazaar without one tile equal to `t` (replaying a draw); ValueError when there is none."""
    tiles = list(bazaar.tiles)
    tiles.remove(t)
    return Bazaar(tuple(tiles))


def give_back(bazaar: Bazaar, tiles: Iterable[Tile]) -> Bazaar:
    """The bazaar with `tiles` returned to it."""
    return bazaar_of((*bazaar.tiles, *tiles))


def placements(grid: Grid, is_free: Callable[[Cell], bool]) -> tuple[tuple[Cell, Cell], ...]:
    """Every way to lay a tile on two side-adjacent free cells, both orientations.

    Each pair comes as (cell of the first half, cell of the second half): a tile `a-b` laid on
    (c1, c2) puts `a` on c1 and `b` on c2, so a non-double tile has twice as many placements.
    """
    out: list[tuple[Cell, Cell]] = []
    for a, b in grid.adjacent_pairs():
        if is_free(a) and is_free(b):
            out.append((a, b))
            out.append((b, a))
    return tuple(out)
