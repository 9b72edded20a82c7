"""The deck: drawing through the auditable DrawSource, reshuffle, and replay from the record."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablehall_boards.deck import (
    Deck,
    Drawn,
    apply_drawn,
    deal,
    discard,
    draw,
    put_under_discard,
    put_under_draw_pile,
    shuffled_deck,
)
from tablehall_rules import DrawSource, verify_draws

SEED = b"s" * 32
CARDS = tuple(f"c{i}" for i in range(12))


def test_a_new_deck_is_the_cards_shuffled_by_the_draw_source_and_auditable() -> None:
    source = DrawSource(SEED)
    deck = shuffled_deck(CARDS, source)
    assert sorted(deck.draw_pile) == sorted(CARDS) and deck.discard_pile == ()
    assert deck.draw_pile == shuffled_deck(CARDS, DrawSource(SEED)).draw_pile
    assert verify_draws(SEED, source.draws) is None


def test_drawing_takes_from_the_top() -> None:
    deck = Deck(draw_pile=("a", "b", "c"), discard_pile=("x",))
    after, drawn = draw(deck, 2, DrawSource(SEED))
    assert drawn == Drawn(wanted=2, cards=("a", "b"))
    assert after == Deck(("c",), ("x",))


def test_when_the_pile_runs_out_the_discard_pile_less_its_top_card_becomes_the_new_pile() -> None:
    source = DrawSource(SEED)
    deck = Deck(draw_pile=("a",), discard_pile=("p", "q", "r", "top"))
    after, drawn = draw(deck, 3, source)
    assert drawn.cards[0] == "a"
    assert drawn.new_draw_pile is not None and sorted(drawn.new_draw_pile) == ["p", "q", "r"]
    assert drawn.cards[1:] == drawn.new_draw_pile[:2]
    assert after.discard_pile == ("top",)
    assert after.draw_pile == drawn.new_draw_pile[2:]
    assert [d.kind for d in source.draws] == ["shuffle"]
    assert verify_draws(SEED, source.draws) is None


def test_no_reshuffle_and_no_draw_is_made_while_the_pile_lasts() -> None:
    source = DrawSource(SEED)
    draw(Deck(("a", "b"), ("p", "q", "top")), 2, source)
    assert source.draws == []


def test_a_draw_falls_short_when_both_piles_are_exhausted() -> None:
    after, drawn = draw(Deck(("a",), ("p", "top")), 5, DrawSource(SEED))
    assert drawn.cards == ("a", "p") and drawn.short == 3
    assert after == Deck((), ("top",))
    after, drawn = draw(Deck((), ("top",)), 1, DrawSource(SEED))
    assert drawn.cards == () and drawn.short == 1 and drawn.new_draw_pile is None


def test_a_record_that_does_not_fit_the_deck_is_refused() -> None:
    deck = Deck(("a",), ("p", "q", "top"))
    _, drawn = draw(deck, 3, DrawSource(SEED))
    with pytest.raises(ValueError):
        apply_drawn(Deck(("b",), ("p", "q", "top")), drawn)
    with pytest.raises(ValueError):
        apply_drawn(deck, Drawn(wanted=3, cards=drawn.cards, new_draw_pile=("p", "x")))
    with pytest.raises(ValueError):
        apply_drawn(deck, Drawn(wanted=3, cards=("a", "p")))
    with pytest.raises(ValueError):
        apply_drawn(deck, Drawn(wanted=1, cards=("a",), new_draw_pile=("p", "q")))
    with pytest.raises(ValueError):
        apply_drawn(deck, Drawn(wanted=2, cards=("a",)))  # fewer than there were


Op = tuple[str, int]


@given(
    ops=st.lists(st.tuples(st.sampled_from(["draw", "discard"]), st.integers(0, 5)), max_size=40),
    seed=st.binary(min_size=1, max_size=8),
)
def test_replaying_the_records_makes_the_same_deck_and_no_card_is_lost(ops: list[Op], seed: bytes) -> None:
    source = DrawSource(seed)
    deck: Deck[str] = shuffled_deck(CARDS, source)
    replayed = deck
    hand: list[str] = []
    for op, n in ops:
        if op == "draw":
            deck, drawn = draw(deck, n, source)
            replayed = apply_drawn(replayed, drawn)
            hand.extend(drawn.cards)
        else:
            given_up, hand = hand[:n], hand[n:]
            deck = discard(deck, given_up)
            replayed = discard(replayed, given_up)
        assert replayed == deck
        assert sorted([*deck.draw_pile, *deck.discard_pile, *hand]) == sorted(CARDS)
    assert verify_draws(seed, source.draws) is None


def test_a_record_is_plain_data_for_an_event() -> None:
    _, drawn = draw(Deck(("a",), ("p", "q", "top")), 2, DrawSource(SEED))
    encoded = msgspec.json.encode(drawn)
    assert msgspec.json.decode(encoded, type=Drawn[str]) == drawn
    deck = Deck(("a", "b"), ("c",))
    assert msgspec.json.decode(msgspec.json.encode(deck), type=Deck[str]) == deck


def test_deal_and_the_under_pile_helpers() -> None:
    source = DrawSource(SEED)
    deck, hands = deal(shuffled_deck(CARDS, source), 3, 4, source)
    assert [len(h.cards) for h in hands] == [4, 4, 4] and len(deck.draw_pile) == 0
    deck = discard(deck, ["x", "y"])
    assert deck.top_discard == "y"
    assert put_under_discard(deck, ["z"]).discard_pile == ("z", "x", "y")
    assert put_under_draw_pile(Deck(("a",)), ["b"]).draw_pile == ("a", "b")
    assert len(Deck(("a",), ("b",))) == 2
    with pytest.raises(ValueError):
        draw(deck, -1, source)
