"""The ring's Chance (Шанс) and Chest (Казна) decks as data (`data/ring_cards.json`).

The classic cards with their amounts divided by 10 (rounded half up, at least 1), Start paying
the seed's 10, plus the seed's own kinds: `repairs` (per house and hotel), `dungeon`, `jail_free` (the
pass out of the Dungeon, пропуск, kept until used) and `lose_piece` (the cheapest own piece leaves the
board). Kinds: advance (to `target`, Start +10 if passed), nearest (the next `target` kind of
square, rent as usual), back (`steps`), money (+`amount`), fine (pay `amount` to the bank),
pay_each / collect_each (`amount` to / from every other live player), dungeon, jail_free, repairs
(`house`, `hotel` per building), lose_piece.
"""

from __future__ import annotations

from functools import cache

from tablehall_boards.monopoly import RingCard, load_cards

DECKS = ("chance", "chest")


@cache
def all_cards() -> dict[str, RingCard]:
    return load_cards("homunculus.ring", "data/ring_cards.json", DECKS)


def ring_card(card_id: str) -> RingCard:
    return all_cards()[card_id]


@cache
def deck_of(deck: str) -> tuple[str, ...]:
    return tuple(c.id for c in all_cards().values() if c.deck == deck)
