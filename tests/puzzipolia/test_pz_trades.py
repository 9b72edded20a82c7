"""Trades: lots, money and cards; both sides give; no lot from a built set; any time but
an auction; offers live 1 min; one open offer per proposer, 5 per round, 3 unanswered per
recipient, 30 s for a pair after a refusal."""

from __future__ import annotations

from pz_helpers import deadline, given, houses, kinds, money, of, owns, refused, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import CardDrawn, OfferMade, TurnStarted
from puzzipolia.game import GAME
from puzzipolia.state import Bundle

SELL_BALTIC = c.ProposeTrade(to_seat=1, give=Bundle(lots=[3]), get=Bundle(money=100))


def test_an_accepted_trade_swaps_lots_money_and_cards() -> None:
    setup = [
        *owns(0, 3),
        *owns(1, 5),
        CardDrawn(seat=1, deck="chest", card="chest.jail_free"),
        TurnStarted(seat=0, round=1),
    ]
    state = given(*setup)
    offer = c.ProposeTrade(to_seat=1, give=Bundle(lots=[3], money=40), get=Bundle(lots=[5], cards=["chest.jail_free"]))
    state = then(state, when(state, offer, now=1_000))
    state = then(state, when(state, c.AcceptTrade(offer_id=1), 1))
    assert (state.owners[3], state.owners[5]) == (1, 0)
    assert (state.player(0).money, state.player(1).money) == (1460, 1540)
    assert state.player(0).jail_cards == ["chest.jail_free"] and state.offers == []


def test_both_sides_must_give_something() -> None:
    state = given(*owns(0, 3))
    refused(state, c.ProposeTrade(to_seat=1, give=Bundle(lots=[3]), get=Bundle()), "ONE_SIDED_TRADE")


def test_no_lot_from_a_set_with_buildings() -> None:
    state = given(*owns(0, 1, 3), *houses(0, 1, 1))
    refused(state, SELL_BALTIC, "SET_HAS_BUILDINGS")


def test_only_what_the_giver_has() -> None:
    refused(given(*owns(2, 3)), SELL_BALTIC, "LOT_NOT_OWNED")
    refused(
        given(*owns(0, 3)),
        c.ProposeTrade(to_seat=1, give=Bundle(money=9999), get=Bundle(money=1)),
        "NOT_ENOUGH_MONEY",
    )
    refused(
        given(*owns(0, 3)),
        c.ProposeTrade(to_seat=0, give=Bundle(lots=[3]), get=Bundle(money=1)),
        "BAD_PARTNER",
    )


def test_any_time_even_off_turn() -> None:
    state = given(*owns(2, 3))
    assert kinds(when(state, c.ProposeTrade(to_seat=1, give=Bundle(lots=[3]), get=Bundle(money=5)), 2)) == ["OfferMade"]


def test_one_open_offer_at_a_time() -> None:
    state = given(*owns(0, 1, 3))
    state = then(state, when(state, SELL_BALTIC))
    refused(state, c.ProposeTrade(to_seat=2, give=Bundle(lots=[1]), get=Bundle(money=5)), "ONE_OPEN_OFFER")
    state = then(state, when(state, c.WithdrawTrade(offer_id=1)))
    assert of(when(state, c.ProposeTrade(to_seat=2, give=Bundle(lots=[1]), get=Bundle(money=5))), OfferMade)


def test_five_offers_per_round() -> None:
    state = given(*owns(0, 3))
    for _ in range(5):
        state = then(state, when(state, SELL_BALTIC))
        state = then(state, when(state, c.WithdrawTrade(offer_id=state.offers[0].id)))
    refused(state, SELL_BALTIC, "ROUND_OFFER_LIMIT")
    state = then(state, [TurnStarted(seat=0, round=2)])
    assert of(when(state, SELL_BALTIC), OfferMade)


def test_at_most_three_unanswered_to_one_person() -> None:
    state = given(*owns(0, 1), *owns(2, 3), *owns(3, 6), *owns(4, 8), table=started(5))
    for seat, lot in ((0, 1), (2, 3), (3, 6)):
        state = then(state, when(state, c.ProposeTrade(to_seat=1, give=Bundle(lots=[lot]), get=Bundle(money=5)), seat))
    refused(state, c.ProposeTrade(to_seat=1, give=Bundle(lots=[8]), get=Bundle(money=5)), "RECIPIENT_BUSY", 4)


def test_a_pair_waits_30_s_after_a_refusal() -> None:
    state = given(*owns(0, 3))
    state = then(state, when(state, SELL_BALTIC, now=1_000))
    state = then(state, when(state, c.DeclineTrade(offer_id=1), 1, now=2_000))
    refused(state, SELL_BALTIC, "PAIR_WAIT", now=31_999)
    back = c.ProposeTrade(to_seat=0, give=Bundle(money=10), get=Bundle(lots=[3]))
    refused(state, back, "PAIR_WAIT", 1, now=31_999)
    assert of(when(state, SELL_BALTIC, now=32_000), OfferMade)


def test_an_offer_lives_one_minute() -> None:
    state = given(*owns(0, 3))
    state = then(state, when(state, SELL_BALTIC, now=1_000))
    decision = next(d for d in GAME.pending(state) if d.kind == "offer_answer")
    assert (decision.seat, decision.opened_at_ms, decision.clock_ms) == (1, 1_000, 60_000)
    assert GAME.default_command(state, decision) == c.DeclineTrade(offer_id=1)
    assert deadline(state, 1) == 61_000  # the match refuses its default move before
    events = when(state, c.DeclineTrade(offer_id=1), 1, now=61_000, timeout=True)
    assert "OfferExpired" in kinds(events) and not then(state, events).is_away(1)  # an offer's clock is no strike
    state = then(state, events)
    assert of(when(state, SELL_BALTIC, now=61_001), OfferMade)  # expiry is no refusal


def test_only_the_recipient_answers() -> None:
    state = given(*owns(0, 3))
    state = then(state, when(state, SELL_BALTIC))
    refused(state, c.AcceptTrade(offer_id=1), "NOT_YOUR_OFFER", 0)  # its proposer
    refused(state, c.AcceptTrade(offer_id=9), "NO_SUCH_OFFER", 1)
    # a third seat is told what it would be told of no offer at all: the offer is private
    refused(state, c.AcceptTrade(offer_id=1), "NO_SUCH_OFFER", 2)
    refused(state, c.WithdrawTrade(offer_id=1), "NO_SUCH_OFFER", 2)


def test_a_stale_offer_cannot_be_accepted() -> None:
    state = given(*owns(0, 3))
    state = then(state, when(state, c.ProposeTrade(to_seat=1, give=Bundle(lots=[3]), get=Bundle(money=1500))))
    state = then(state, [money(1, -100)])  # the recipient no longer has the 1500
    refused(state, c.AcceptTrade(offer_id=1), "OFFER_STALE", 1)
