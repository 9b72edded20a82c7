"""A deck of cards: a draw pile, a discard pile, drawing with reshuffle (Гомункул's ruling).

`Deck` is immutable: every operation returns a new deck. The draw pile's top is its first card;
the discard pile's top is its last card. Randomness comes only from the table's auditable
`tablehall_rules.DrawSource`, never from `random`.

Drawing is split the event-sourced way: `draw(deck, count, source)` (in `decide`) returns the
new deck and a `Drawn` record, plain data a game puts into its event; `apply_drawn(deck, drawn)`
(in `evolve`) makes the same deck again from the record alone, with no randomness.

When the draw pile runs out during a draw, the discard pile except its top card is shuffled
into a new draw pile and drawing goes on; `Drawn.new_draw_pile` records that pile (so replay
does not shuffle). The reshuffle happens only when a card is wanted from an empty pile. When
both piles are exhausted (the discard pile holds at most its top card), fewer cards are drawn
than asked (`Drawn.short`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Generic, TypeVar

import msgspec

from tablehall_rules import DrawSource

T = TypeVar("T", bound=Hashable)


class Deck(msgspec.Struct, Generic[T], frozen=True):
    draw_pile: tuple[T, ...] = ()
    discard_pile: tuple[T, ...] = ()

    @property
    def top_discard(self) -> T | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def __len__(self) -> int:
        return len(self.draw_pile) + len(self.discard_pile)


class Drawn(msgspec.Struct, Generic[T], frozen=True):
    """What one draw took: the cards in order, and the new draw pile if the pile was reshuffled."""

    wanted: int
    cards: tuple[T, ...]
    new_draw_pile: tuple[T, ...] | None = None

    @property
    def short(self) -> int:
        """How many of the wanted cards there were none left to draw."""
        return self.wanted - len(self.cards)


def shuffled_deck(cards: Sequence[T], source: DrawSource) -> Deck[T]:
    """A new deck: `cards` shuffled into the draw pile, nothing discarded."""
    return Deck(draw_pile=tuple(source.shuffled(cards)))


def draw(deck: Deck[T], count: int, source: DrawSource) -> tuple[Deck[T], Drawn[T]]:
    """Draw `count` cards from the top, reshuffling the discard pile (less its top) when needed."""
    if count < 0:
        raise ValueError("cannot draw a negative number of cards")
    pile = list(deck.draw_pile)
    discard = deck.discard_pile
    taken: list[T] = []
    new_pile: tuple[T, ...] | None = None
    while len(taken) < count:
        if not pile:
            if new_pile is not None or len(discard) < 2:
                break
            new_pile = tuple(source.shuffled(discard[:-1]))
            pile = list(new_pile)
            discard = discard[-1:]
        taken.append(pile.pop(0))
    return Deck(tuple(pile), discard), Drawn(wanted=count, cards=tuple(taken), new_draw_pile=new_pile)


def apply_drawn(deck: Deck[T], drawn: Drawn[T]) -> Deck[T]:
    """The deck after `drawn`, made from the record alone (for `evolve`).

    Raises ValueError when the record does not fit the deck (other cards, a reshuffle of other
    cards, a reshuffle while cards were left): an event log and a state that disagree.
    """
    pile = list(deck.draw_pile)
    discard = deck.discard_pile
    pending = drawn.new_draw_pile
    for card in drawn.cards:
        if not pile:
            if pending is None:
                raise ValueError("the draw pile ran out and the record has no reshuffle for it")
            if Counter(pending) != Counter(discard[:-1]):
                raise ValueError("the recorded reshuffle is not the discard pile less its top card")
            pile = list(pending)
            discard = discard[-1:]
            pending = None
        if pile[0] != card:
            raise ValueError(f"the record draws {card!r}, the pile has {pile[0]!r}")
        pile.pop(0)
    if pending is not None:
        raise ValueError("the record reshuffles, but the draw did not run out")
    if len(drawn.cards) < drawn.wanted and (pile or len(discard) > 1):
        raise ValueError("the record draws fewer cards than there were")
    return Deck(tuple(pile), discard)


def discard(deck: Deck[T], cards: Iterable[T]) -> Deck[T]:
    """Put `cards` on the discard pile in order; the last one becomes the top."""
    return Deck(deck.draw_pile, deck.discard_pile + tuple(cards))


def put_under_discard(deck: Deck[T], cards: Iterable[T]) -> Deck[T]:
    """Slide `cards` under the discard pile (an eliminated player's hand in Гомункул)."""
    return Deck(deck.draw_pile, tuple(cards) + deck.discard_pile)


def put_under_draw_pile(deck: Deck[T], cards: Iterable[T]) -> Deck[T]:
    return Deck(deck.draw_pile + tuple(cards), deck.discard_pile)


def deal(deck: Deck[T], hands: int, size: int, source: DrawSource) -> tuple[Deck[T], tuple[Drawn[T], ...]]:
    """Deal `size` cards to each of `hands` hands, one whole hand after another."""
    records: list[Drawn[T]] = []
    for _ in range(hands):
        deck, drawn = draw(deck, size, source)
        records.append(drawn)
    return deck, tuple(records)
