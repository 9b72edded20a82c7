"""Given/when helpers for the ring's scenario tests: rigged dice and card draws, a turn of
player 1 begun by player 0 ending its own."""

from __future__ import annotations

from typing import TypeVar

import msgspec
from hm_helpers import board, when

from homunculus import commands as c
from homunculus.ring import board as rb
from homunculus.ring.cards import deck_of
from homunculus.state import State
from tablehall_rules import DrawSource

E = TypeVar("E", bound=msgspec.Struct)


class Rigged(DrawSource):
    """Dice from `dice` (then the seed's), card draws from `ints` (indices; then the seed's)."""

    def __init__(self, dice: list[int], ints: list[int] | None = None) -> None:
        super().__init__(b"rigged")
        self.dice = list(dice)
        self.ints = list(ints or [])

    def die(self) -> int:
        return self.dice.pop(0) if self.dice else super().die()

    def randint(self, lo: int, hi: int) -> int:
        if self.ints:
            value = self.ints.pop(0)
            assert lo <= value <= hi
            return value
        return super().randint(lo, hi)


def card_index(state: State, card_id: str) -> int:
    """The draw index that picks `card_id` (the deck's cards not kept by anybody)."""
    held = {x for p in state.ring.passes for x in p}
    deck = card_id.split(".")[0]
    return [x for x in deck_of(deck) if x not in held].index(card_id)


def table(players: int = 2, teams: bool = False) -> State:
    """A bare table (kings only, no mines), player 0 to move in the phase `continue`."""
    s = board(players, teams)
    s.phase = "continue"
    return s


def own_all(s: State, seat: int) -> State:
    """Every lot of the ring belongs to `seat` (its own lots take no rent: quiet squares)."""
    s.ring.owners = [seat if sq.ownable else -1 for sq in rb.squares()]
    return s


def next_turn(s: State, dice: list[int], ints: list[int] | None = None) -> tuple[list[msgspec.Struct], State]:
    """Player `s.turn` ends its turn; the next player's turn begins with `dice` on the ring."""
    s.phase = "continue"
    return when(s, c.EndTurn(), source=Rigged(dice, ints))


def events_of(events: list[msgspec.Struct], kind: type[E]) -> list[E]:
    return [ev for ev in events if isinstance(ev, kind)]
