"""The game's data as constant tables: the perimeter's cells, prices, the army and the Offices.

The perimeter track is `tablehall_boards.magnates.perimeter()`: 36 positions clockwise from a1
(0 a1, 9 a10, 18 j10, 27 j1 are the Banks). Each side's eight cells between two corners are
listed in clockwise order as tokens: `C` a Company, `I` Инвестиции, `A` Арбитраж, `S` Субсидии,
`X` Санкции. Every side holds four Companies and one of each special cell, in its own order.
"""

from __future__ import annotations

from typing import Final

# clockwise, the cells after each corner: west side (1..8), north (10..17), east (19..26), south (28..35)
SIDES: Final[tuple[str, ...]] = ("CICACSCX", "CSCICXCA", "CACXCICS", "CXCSCACI")

SPECIAL_NAMES: Final[dict[str, str]] = {
    "B": "bank",
    "I": "investment",
    "A": "arbitrage",
    "S": "subsidy",
    "X": "sanction",
}

# the 16 perimeter Companies' prices in clockwise order from a1; one sector of four per side
PERIMETER_PRICES: Final[tuple[int, ...]] = (
    300, 320, 350, 380,  # sector 1, west side
    420, 450, 480, 520,  # sector 2, north side
    560, 600, 640, 680,  # sector 3, east side
    720, 760, 800, 850,  # sector 4, south side
)  # fmt: skip

CITY_PRICE: Final = 1200
QUARTER_PRICE: Final = 800

# (x, y) of the inner Companies: «Сити» the central 2×2, four L-shaped quarters of three around it
CITY_CELLS: Final[tuple[tuple[int, int], ...]] = ((4, 4), (5, 4), (4, 5), (5, 5))
QUARTERS: Final[dict[str, tuple[tuple[int, int], ...]]] = {
    "quarter-sw": ((3, 3), (4, 3), (3, 4)),
    "quarter-nw": ((3, 5), (3, 6), (4, 6)),
    "quarter-ne": ((5, 6), (6, 6), (6, 5)),
    "quarter-se": ((6, 4), (6, 3), (5, 3)),
}

START_CASH: Final = 5000
BANK_STOP: Final = 600
BANK_PASS: Final = 300
ARBITRAGE_PENALTY: Final = 300
PER_COMPANY: Final = 100  # Субсидии and Санкции, per own Company
AT_LEAST: Final = 200  # Субсидии and Санкции, the least amount
MAX_LEVEL: Final = 3
MAX_EXTRA_MOVES: Final = 2

# a fine is 20 % of the price (×2 for a whole group), times this factor in tenths per level
FINE_PERCENT: Final = 20
LEVEL_FACTOR_TENTHS: Final[tuple[int, ...]] = (10, 25, 50, 75)

PIECES: Final[tuple[str, ...]] = ("queen", "rook", "bishop", "knight")
PIECE_PRICE: Final[dict[str, int]] = {"king": 0, "queen": 2000, "rook": 1000, "bishop": 1000, "knight": 1000}
POWER: Final[dict[str, int]] = {"king": 0, "queen": 2, "rook": 1, "bishop": 1, "knight": 1}
# the order pieces are sold in to pay a debt: cheapest first, ties in this order
SELL_ORDER: Final[tuple[str, ...]] = ("knight", "bishop", "rook", "queen")

# home corners (track positions) by seat count; two players take opposite corners
CORNERS_FOR: Final[dict[int, tuple[int, ...]]] = {2: (0, 18), 3: (0, 9, 18), 4: (0, 9, 18, 27)}

# per home corner: its Offices (x, y) on the field row or column nearest the home side (the side
# that ends at that corner, clockwise) and the piece on each Office at the start
OFFICES: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    0: ((3, 1), (4, 1), (5, 1), (6, 1)),  # a1: home side south, field row 2
    9: ((1, 6), (1, 5), (1, 4), (1, 3)),  # a10: home side west, field file b
    18: ((6, 8), (5, 8), (4, 8), (3, 8)),  # j10: home side north, field row 9
    27: ((8, 3), (8, 4), (8, 5), (8, 6)),  # j1: home side east, field file i
}
START_PIECES: Final[tuple[str, ...]] = ("rook", "queen", "bishop", "knight")
