"""The two boards as data: the classic 40-square ring and the 60-square large ring.

Squares, prices, rent tables and house costs are data: the classic ring is the shared
`tablehall_boards.monopoly` one, the large ring `data/board_large.json`;
this module loads them once and answers questions about positions and groups.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from tablehall_boards.monopoly import classic_squares

BoardKind = Literal["classic", "large"]

SALARY = 200
JAIL_FINE = 50
TRANSPORT_RENTS = (25, 50, 100, 200)
UTILITY_MULTIPLIERS = (4, 10)
OWNABLE_KINDS = frozenset({"street", "transport", "utility"})


@dataclass(frozen=True, slots=True)
class Square:
    index: int
    key: str
    kind: str
    en: str
    ru: str
    group: str = ""
    price: int = 0
    house_cost: int = 0
    rents: tuple[int, ...] = ()
    amount: int = 0

    @property
    def is_ownable(self) -> bool:
        return self.kind in OWNABLE_KINDS

    @property
    def mortgage_value(self) -> int:
        return self.price // 2

    @property
    def redeem_cost(self) -> int:
        # half the price plus 10 % of it, rounded up
        half = self.price // 2
        return half + (half + 9) // 10


@dataclass(frozen=True, slots=True)
class Board:
    kind: BoardKind
    squares: tuple[Square, ...]
    groups: dict[str, tuple[int, ...]]
    by_key: dict[str, int]
    jail: int
    transports: tuple[int, ...]
    utilities: tuple[int, ...]
    streets: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.squares)

    def group_of(self, index: int) -> tuple[int, ...]:
        return self.groups[self.squares[index].group]

    def nearest(self, start: int, kind: str) -> int:
        """The first square of `kind` strictly ahead of `start` going forward."""
        n = self.size
        for step in range(1, n + 1):
            index = (start + step) % n
            if self.squares[index].kind == kind:
                return index
        raise ValueError(f"no square of kind {kind!r}")


def _raw(kind: BoardKind) -> list[dict[str, Any]]:
    """The classic ring is the shared one (`tablehall_boards.monopoly`); the large is Пузиполия's."""
    if kind == "classic":
        return classic_squares()
    raw: list[dict[str, Any]] = json.loads(
        resources.files("puzzipolia").joinpath(f"data/board_{kind}.json").read_text("utf-8")
    )
    return raw


def _load(kind: BoardKind) -> Board:
    raw = _raw(kind)
    squares = tuple(
        Square(
            index=i,
            key=s["key"],
            kind=s["kind"],
            en=s["en"],
            ru=s["ru"],
            group=s.get("group", ""),
            price=s.get("price", 0),
            house_cost=s.get("house_cost", 0),
            rents=tuple(s.get("rents", ())),
            amount=s.get("amount", 0),
        )
        for i, s in enumerate(raw)
    )
    groups: dict[str, list[int]] = {}
    for sq in squares:
        if sq.is_ownable:
            groups.setdefault(sq.group, []).append(sq.index)
    return Board(
        kind=kind,
        squares=squares,
        groups={g: tuple(ix) for g, ix in groups.items()},
        by_key={sq.key: sq.index for sq in squares},
        jail=next(sq.index for sq in squares if sq.kind == "jail"),
        transports=tuple(sq.index for sq in squares if sq.kind == "transport"),
        utilities=tuple(sq.index for sq in squares if sq.kind == "utility"),
        streets=tuple(sq.index for sq in squares if sq.kind == "street"),
    )


@cache
def board(kind: str) -> Board:
    if kind not in ("classic", "large"):
        raise ValueError(f"unknown board {kind!r}")
    return _load(kind)  # type: ignore[arg-type]
