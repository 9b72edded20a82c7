"""The ring's Chance (Шанс) and Chest (Казна) decks as data (`data/ring_cards.json`).

The classic cards with their amounts divided by 10 (rounded half up, at least 1), Start paying
the seed's 10, plus the seed's own kinds: `repairs` (per house and hotel), `dungeon`, `pass` (a
pass out of the Dungeon, kept until used) and `lose_piece` (the cheapest own piece leaves the
board). Kinds: advance (to `target`, Start +10 if passed), nearest (the next `target` kind of
square, rent as usual), back (`steps`), money (+`amount`), fine (pay `amount` to the bank),
pay_each / collect_each (`amount` to / from every other live player), dungeon, pass, repairs
(`house`, `hotel` per building), lose_piece.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

DECKS = ("chance", "chest")


@dataclass(frozen=True, slots=True)
class RingCard:
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


@cache
def all_cards() -> dict[str, RingCard]:
    raw = json.loads(resources.files("homunculus.ring").joinpath("data/ring_cards.json").read_text("utf-8"))
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
        for deck in DECKS
        for c in raw[deck]
    }


def ring_card(card_id: str) -> RingCard:
    return all_cards()[card_id]


@cache
def deck_of(deck: str) -> tuple[str, ...]:
    return tuple(c.id for c in all_cards().values() if c.deck == deck)
