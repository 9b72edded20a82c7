"""Hidden hands resampled for determinization: consistent with the public facts, every deal possible."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablehall_boards.dominoes import domino_sets
from tablehall_boards.hidden import sample_hidden


@given(
    cards=st.lists(st.integers(0, 9), max_size=30),
    sizes=st.lists(st.integers(0, 6), min_size=1, max_size=4),
    seed=st.integers(0, 2**32),
)
def test_a_sample_deals_every_unseen_card_once_with_the_public_hand_sizes(
    cards: list[int], sizes: list[int], seed: int
) -> None:
    wanted = dict(enumerate(sizes))
    if sum(sizes) > len(cards):
        with pytest.raises(ValueError):
            sample_hidden(cards, wanted, random.Random(seed))
        return
    deal = sample_hidden(cards, wanted, random.Random(seed), rest_size=len(cards) - sum(sizes))
    assert {seat: len(hand) for seat, hand in deal.hands.items()} == wanted
    assert Counter(c for hand in deal.hands.values() for c in hand) + Counter(deal.rest) == Counter(cards)


def test_known_cards_stay_in_their_hand() -> None:
    deal = sample_hidden(["a", "b", "c", "d"], {1: 3, 2: 1}, random.Random(1), known={1: ["spy"]})
    assert deal.hands[1][0] == "spy" and len(deal.hands[1]) == 3
    assert len(deal.hands[2]) == 1 and len(deal.rest) == 1
    with pytest.raises(ValueError):
        sample_hidden(["a"], {1: 1}, random.Random(1), known={1: ["x", "y"]})
    with pytest.raises(ValueError):
        sample_hidden(["a"], {1: 1}, random.Random(1), known={3: ["x"]})


def test_the_pile_size_must_account_for_every_unseen_card() -> None:
    with pytest.raises(ValueError):
        sample_hidden(list(range(10)), {1: 2}, random.Random(1), rest_size=7)


def test_every_tile_can_reach_every_hand_and_the_same_rng_gives_the_same_deal() -> None:
    unseen = list(domino_sets(1))
    rng = random.Random(7)
    seen_in: dict[int, set[object]] = {1: set(), 2: set()}
    for _ in range(300):
        deal = sample_hidden(unseen, {1: 3, 2: 3}, rng)
        for seat, hand in deal.hands.items():
            seen_in[seat].update(hand)
    assert seen_in[1] == seen_in[2] == set(unseen)
    assert sample_hidden(unseen, {1: 3}, random.Random(3)) == sample_hidden(unseen, {1: 3}, random.Random(3))
