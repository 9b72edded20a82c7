"""Hidden hands for a bot's determinization: sample a full deal consistent with public facts.

A seat sees its own hand, the public piles and how many cards (or tiles) every other hand holds.
`sample_hidden` deals the cards it cannot place (`unseen`) into the other hands with the right
sizes, uniformly among all consistent deals, and returns the rest (in random order: the draw
pile or the bazaar of the sample). Cards the seat knows to be in a hand (shown by Гомункул's
spyglass, say) are given in `known` and are not part of `unseen`.

The randomness is the bot's own `random.Random`: determinization is a search device, never a
table draw, so it does not use the table's `DrawSource`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Generic, TypeVar

import msgspec

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


class HiddenDeal(msgspec.Struct, Generic[K, T], frozen=True):
    """One sampled deal: each hand (known cards first), and the cards left over in random order."""

    hands: dict[K, tuple[T, ...]]
    rest: tuple[T, ...]


def sample_hidden(
    unseen: Sequence[T],
    sizes: Mapping[K, int],
    rng: random.Random,
    known: Mapping[K, Sequence[T]] | None = None,
    rest_size: int | None = None,
) -> HiddenDeal[K, T]:
    """Deal `unseen` into hands of `sizes` (counting `known` cards), the remainder left over.

    `rest_size`, when given, is the public size of the pile the remainder goes to; the deal is
    then checked to account for every unseen card. ValueError when the facts do not fit.
    """
    known = known or {}
    for seat in known:
        if seat not in sizes:
            raise ValueError(f"known cards for {seat!r}, which has no hand size")
    needed: dict[K, int] = {}
    for seat, size in sizes.items():
        missing = size - len(known.get(seat, ()))
        if missing < 0:
            raise ValueError(f"{seat!r} holds {size} cards but {len(known[seat])} are known")
        needed[seat] = missing
    total = sum(needed.values())
    if total > len(unseen):
        raise ValueError(f"the hands need {total} unseen cards, there are {len(unseen)}")
    if rest_size is not None and len(unseen) - total != rest_size:
        raise ValueError(f"{len(unseen) - total} cards left over, the pile holds {rest_size}")
    pool = list(unseen)
    rng.shuffle(pool)
    hands: dict[K, tuple[T, ...]] = {}
    at = 0
    for seat, missing in needed.items():
        hands[seat] = tuple(known.get(seat, ())) + tuple(pool[at : at + missing])
        at += missing
    return HiddenDeal(hands=hands, rest=tuple(pool[at:]))
