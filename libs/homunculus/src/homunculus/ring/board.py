"""The ring's 40 squares: the classic Monopoly ring (`tablehall_boards.monopoly`, shared with
Пузиполия) with Гомункул's money.

Prices, rents, house costs and mortgages are the classic figures divided by 10, rounded half
up, at least 1 (the rulings); the mortgage is the classic one (half the classic price) divided
so. The seed's own figures stand as written: Start +10, gates (врата, the classic railroads)
3/5/10/20 by how many the owner holds, utilities (предприятия) the dice sum ×1, ×3 for both,
income tax (подать) the greater of 20 and 10 % of the total wealth, luxury tax 10, the Dungeon
(Темница, the classic jail) fine 5. A redemption costs the mortgage plus 10 %, rounded up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tablehall_boards.monopoly import classic_squares
from tablehall_boards.track import Track

SIZE = 40
TRACK = Track(SIZE)  # the token walks it forward from Start (position 0)
START = 0
START_BONUS = 10
START_GOLD = 30
DUNGEON_FINE = 5
DUNGEON_TRIES = 3
GATE_RENTS = (3, 5, 10, 20)
UTILITY_FACTORS = (1, 3)
INCOME_TAX_MIN = 20
LUXURY_TAX = 10
HOUSES = 32
HOTELS = 12
HOTEL = 5  # the building level of a hotel (it replaces 4 houses)
SAFE_CONDUCT_OFF = 15
OWNABLE = frozenset({"street", "gates", "utility"})
# the classic kinds under Гомункул's names
_KINDS = {"transport": "gates", "jail": "dungeon", "go_to_jail": "to_dungeon"}
_RU = {"jail": "Темница", "go_to_jail": "В Темницу", "go": "Старт"}
_EN = {"jail": "Dungeon", "go_to_jail": "Go to the Dungeon", "go": "Start"}


def tenth(amount: int) -> int:
    """A classic amount divided by 10, rounded half up, at least 1."""
    return max(1, (amount + 5) // 10)


def half_up(numerator: int, denominator: int) -> int:
    return (2 * numerator + denominator) // (2 * denominator)


@dataclass(frozen=True, slots=True)
class Square:
    index: int
    key: str
    kind: str  # start, street, chest, chance, tax, gates, dungeon, utility, free_parking, to_dungeon
    en: str
    ru: str
    group: str = ""
    price: int = 0
    house_cost: int = 0
    rents: tuple[int, ...] = ()  # bare lot, 1-4 houses, hotel
    mortgage: int = 0
    tax: str = ""  # income, luxury

    @property
    def ownable(self) -> bool:
        return self.kind in OWNABLE

    @property
    def redeem_cost(self) -> int:
        return self.mortgage + -(-self.mortgage // 10)


@cache
def squares() -> tuple[Square, ...]:
    out = []
    for i, raw in enumerate(classic_squares()):
        classic_kind = raw["kind"]
        kind = "start" if classic_kind == "go" else _KINDS.get(classic_kind, classic_kind)
        price = raw.get("price", 0)
        out.append(
            Square(
                index=i,
                key=raw["key"],
                kind=kind,
                en=_EN.get(classic_kind, raw["en"]),
                ru=_RU.get(classic_kind, raw["ru"]),
                group=raw.get("group", ""),
                price=tenth(price) if price else 0,
                house_cost=tenth(raw["house_cost"]) if raw.get("house_cost") else 0,
                rents=tuple(tenth(r) for r in raw.get("rents", ())),
                mortgage=tenth(price // 2) if price else 0,
                tax=("income" if raw["key"] == "income_tax" else "luxury") if kind == "tax" else "",
            )
        )
    assert len(out) == SIZE
    return tuple(out)


def square(index: int) -> Square:
    return squares()[index]


@cache
def district(group: str) -> tuple[int, ...]:
    """The squares of a district (район: a colour group, the gates, the utilities)."""
    return tuple(sq.index for sq in squares() if sq.group == group and sq.ownable)


@cache
def index_of(key: str) -> int:
    return next(sq.index for sq in squares() if sq.key == key)


@cache
def dungeon_square() -> int:
    return next(sq.index for sq in squares() if sq.kind == "dungeon")


def nearest(start: int, kind: str) -> int:
    """The first square of `kind` strictly ahead of `start`."""
    ahead = [sq.index for sq in squares() if sq.kind == kind]
    return min(ahead, key=lambda i: TRACK.distance(start, i) or SIZE)
