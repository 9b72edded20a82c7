"""The classic 40-square Monopoly ring as data (`data/monopoly_classic.json`), shared by the
games that use it (Пузиполия's classic board, Гомункул's ring).

Each square is a dict with `key`, `kind` (go, street, chest, chance, tax, transport, jail,
utility, free_parking, go_to_jail), `en`, `ru`, and for ownable squares `group`, `price`,
streets also `house_cost` and `rents` (bare lot, 1-4 houses, hotel); taxes `amount`. The figures
are the classic ones, undivided: a game scales them as its rules say.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

CLASSIC_SIZE = 40


@cache
def _classic_text() -> str:
    return resources.files("tablehall_boards").joinpath("data/monopoly_classic.json").read_text("utf-8")


def classic_squares() -> list[dict[str, Any]]:
    """A fresh copy of the classic ring's squares, Start (GO) first, in the order of play."""
    squares: list[dict[str, Any]] = json.loads(_classic_text())
    assert len(squares) == CLASSIC_SIZE
    return squares
