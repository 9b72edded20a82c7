"""The Chance and Community Chest decks (each with «67!») as data from `data/cards.json`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

DECKS = ("chance", "chest")
DECK_NAMES = {"chance": ("Chance", "Шанс"), "chest": ("Community Chest", "Общественная казна")}


@dataclass(frozen=True, slots=True)
class Card:
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
        """A get-out-of-jail card stays with its drawer instead of going under the deck."""
        return self.kind == "jail_free"


@cache
def all_cards() -> dict[str, Card]:
    raw = json.loads(resources.files("puzzipolia").joinpath("data/cards.json").read_text("utf-8"))
    cards: dict[str, Card] = {}
    for deck in DECKS:
        for c in raw[deck]:
            cards[c["id"]] = Card(
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
    return cards


def card(card_id: str) -> Card:
    return all_cards()[card_id]


@cache
def deck_cards(deck: str) -> tuple[str, ...]:
    """The card ids of a deck in printed order (before shuffling)."""
    return tuple(c.id for c in all_cards().values() if c.deck == deck)
