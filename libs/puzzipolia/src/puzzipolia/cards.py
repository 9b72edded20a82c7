"""The Chance and Community Chest decks (each with «67!») as data from `data/cards.json`."""

from __future__ import annotations

from functools import cache

from tablehall_boards.monopoly import RingCard, load_cards

DECKS = ("chance", "chest")
DECK_NAMES = {"chance": ("Chance", "Шанс"), "chest": ("Community Chest", "Общественная казна")}


Card = RingCard


@cache
def all_cards() -> dict[str, Card]:
    return load_cards("puzzipolia", "data/cards.json", DECKS)


def card(card_id: str) -> Card:
    return all_cards()[card_id]


@cache
def deck_cards(deck: str) -> tuple[str, ...]:
    """The card ids of a deck in printed order (before shuffling)."""
    return tuple(c.id for c in all_cards().values() if c.deck == deck)
