"""The board's facts derived once from `tables`: what each of the 100 cells is.

Cells are `tablehall_boards.magnates.grid()` indices (south to north, west to east within a row:
`cell = 10 * y + x`). Perimeter cells also have a track position (clockwise from a1).
"""

from __future__ import annotations

from functools import cache

import msgspec

from magnates import tables
from tablehall_boards import magnates as geometry
from tablehall_boards.grid import Grid
from tablehall_boards.track import Track

Cell = int


class Square(msgspec.Struct, frozen=True):
    cell: Cell
    kind: str  # bank, company, investment, arbitrage, subsidy, sanction, field
    position: int = -1  # on the perimeter track; -1 inside
    group: str = ""  # a Company's sector, quarter or "city"
    price: int = 0

    @property
    def is_company(self) -> bool:
        return self.kind == "company"

    @property
    def is_perimeter(self) -> bool:
        return self.position >= 0

    @property
    def is_shop(self) -> bool:
        """«Магазин фигур»: the Bank and the four special cells."""
        return self.kind in ("bank", "investment", "arbitrage", "subsidy", "sanction")


def grid() -> Grid:
    return geometry.grid()


def track() -> Track:
    return geometry.perimeter()


def cell_at(x: int, y: int) -> Cell:
    return grid().cell(x, y)


@cache
def squares() -> tuple[Square, ...]:
    g, t = grid(), track()
    found: dict[Cell, Square] = {}
    prices = iter(tables.PERIMETER_PRICES)
    for corner_index, side in enumerate(tables.SIDES):
        corner = corner_index * 9
        found[t.cell_of(corner)] = Square(t.cell_of(corner), "bank", corner)
        for offset, token in enumerate(side, start=1):
            position = corner + offset
            cell = t.cell_of(position)
            if token == "C":
                found[cell] = Square(cell, "company", position, f"sector-{corner_index + 1}", next(prices))
            else:
                found[cell] = Square(cell, tables.SPECIAL_NAMES[token], position)
    for x, y in tables.CITY_CELLS:
        found[g.cell(x, y)] = Square(g.cell(x, y), "company", group="city", price=tables.CITY_PRICE)
    for group, coords in tables.QUARTERS.items():
        for x, y in coords:
            found[g.cell(x, y)] = Square(g.cell(x, y), "company", group=group, price=tables.QUARTER_PRICE)
    return tuple(found.get(cell, Square(cell, "field")) for cell in g)


def square(cell: Cell) -> Square:
    return squares()[cell]


@cache
def company_cells() -> tuple[Cell, ...]:
    return tuple(s.cell for s in squares() if s.is_company)


@cache
def group_cells(group: str) -> tuple[Cell, ...]:
    return tuple(s.cell for s in squares() if s.group == group)


@cache
def groups() -> tuple[str, ...]:
    return tuple(dict.fromkeys(s.group for s in squares() if s.group))


def is_perimeter(cell: Cell) -> bool:
    return geometry.is_perimeter(cell)


def cell_of_position(position: int) -> Cell:
    return track().cell_of(position)


def position_of(cell: Cell) -> int:
    return track().position_of(cell)


def offices(corner: int) -> tuple[Cell, ...]:
    return tuple(cell_at(x, y) for x, y in tables.OFFICES[corner])


def name(cell: Cell) -> str:
    return grid().name_of(cell)


def upgrade_cost(cell: Cell) -> int:
    """One level of an upgrade costs half the Company's price."""
    return square(cell).price // 2
