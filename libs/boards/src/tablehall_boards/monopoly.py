"""The classic 40-square Monopoly ring as data (`data/monopoly_classic.json`), shared by the
games that use it (Пузиполия's classic board, Гомункул's ring).

Each square is a dict with `key`, `kind` (go, street, chest, chance, tax, transport, jail,
utility, free_parking, go_to_jail), `en`, `ru`, and for ownable squares `group`, `price`,
streets also `house_cost` and `rents` (bare lot, 1-4 houses, hotel); taxes `amount`. The figures
are the classic ones, undivided: a game scales them as its rules say.

`RingCard` and `load_cards` read a game's Chance / Chest decks from its own JSON file (the
decks differ between the games: Пузиполия's «67!», Гомункул's amounts and kinds).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class RingCard:
    """A Chance / Chest card as data: its `kind` says what it does, with its figures."""

    id: str
    deck: str
    kind: str
    en: str
    ru: str
    target: str = ""
    amount: int = 0
    steps: int = 0
    house: int = 0
    hotel: int = 0

    @property
    def is_kept(self) -> bool:
        """A get-out-of-jail card (kind `jail_free`) stays with its drawer until used."""
        return self.kind == "jail_free"


def load_cards(package: str, resource: str, decks: tuple[str, ...]) -> dict[str, RingCard]:
    """A game's decks from its JSON file `{deck: [card, ...]}`, by id, each deck in printed order."""
    raw = json.loads(resources.files(package).joinpath(resource).read_text("utf-8"))
    return {
        c["id"]: RingCard(
            id=c["id"],
            deck=deck,
            kind=c["kind"],
            en=c["en"],
            ru=c["ru"],
            target=c.get("target", ""),
            amount=c.get("amount", 0),
            steps=c.get("steps", 0),
            house=c.get("house", 0),
            hotel=c.get("hotel", 0),
        )
        for deck in decks
        for c in raw[deck]
    }
