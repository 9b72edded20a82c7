"""Buying at the price or declining into an auction open to all (15 s / 8 s, step 10, last bid wins)."""

from __future__ import annotations

from pz_helpers import at, deadline, given, kinds, money, of, refused, then, when

from puzzipolia import commands as c
from puzzipolia.events import AuctionClosed, AuctionOpened, LotBought, PurchaseOffered
from puzzipolia.game import GAME
from puzzipolia.state import State


def on_baltic() -> State:
    state = given()
    return then(state, when(state, c.Roll(), dice=[1, 2]))


def test_landing_on_an_unowned_lot_offers_it_at_its_price() -> None:
    state = given()
    events = when(state, c.Roll(), dice=[1, 2])
    assert of(events, PurchaseOffered)[0].square == 3
    state = then(state, events)
    events = when(state, c.Buy())
    assert of(events, LotBought)[0].price == 60
    state = then(state, events)
    assert state.owners[3] == 0 and state.player(0).money == 1440 and state.phase == "end"


def test_buying_needs_the_money() -> None:
    state = given(money(0, -1460))
    state = then(state, when(state, c.Roll(), dice=[1, 2]))
    refused(state, c.Buy(), "NOT_ENOUGH_MONEY")


def test_a_declined_lot_goes_to_an_auction_open_to_all() -> None:
    state = on_baltic()
    events = when(state, c.DeclineBuy(), now=2_000)
    assert kinds(events) == ["PurchaseDeclined", "AuctionOpened"]
    assert of(events, AuctionOpened)[0].bidders == [0, 1, 2]
    state = then(state, events)
    clocks = {d.seat: (d.clock, d.opened_at_ms, d.clock_ms) for d in GAME.pending(state)}
    assert clocks == {s: ("auction", 2_000, 15_000) for s in (0, 1, 2)}


def test_bids_start_at_10_and_rise_by_at_least_10_and_the_clock_becomes_8_s() -> None:
    state = then(on_baltic(), when(on_baltic(), c.DeclineBuy(), now=2_000))
    refused(state, c.Bid(amount=5), "BID_TOO_LOW", 1)
    state = then(state, when(state, c.Bid(amount=10), 1, now=3_000))
    refused(state, c.Bid(amount=15), "BID_TOO_LOW", 2)
    refused(state, c.Bid(amount=20), "ALREADY_HIGHEST", 1)
    refused(state, c.Bid(amount=2000), "NOT_ENOUGH_MONEY", 2)
    state = then(state, when(state, c.Bid(amount=20), 2, now=4_000))
    decisions = GAME.pending(state)
    assert {d.seat for d in decisions} == {0, 1}
    assert all((d.opened_at_ms, d.clock_ms) == (4_000, 8_000) for d in decisions)
    refused(state, c.Bid(amount=30), "AUCTION_CLOCK_OUT", 1, now=12_001)


def test_the_clock_closes_the_auction_and_the_last_bid_wins() -> None:
    state = then(on_baltic(), when(on_baltic(), c.DeclineBuy(), now=2_000))
    state = then(state, when(state, c.Bid(amount=40), 1, now=3_000))
    refused(state, c.CloseAuction(), "CLOCK_DRIVEN_ONLY", 0, now=20_000)
    assert deadline(state, 0) == 11_000  # the match refuses its default move before
    events = when(state, c.CloseAuction(), 0, now=11_000, timeout=True)
    assert of(events, AuctionClosed)[0] == AuctionClosed(square=3, winner=1, price=40, at_ms=11_000)
    state = then(state, events)
    assert state.owners[3] == 1 and state.player(1).money == 1460
    assert state.phase == "end" and state.auction is None


def test_when_everybody_else_passes_the_last_bid_wins_at_once() -> None:
    state = then(on_baltic(), when(on_baltic(), c.DeclineBuy()))
    state = then(state, when(state, c.Bid(amount=10), 0))
    state = then(state, when(state, c.PassAuction(), 1))
    events = when(state, c.PassAuction(), 2)
    assert of(events, AuctionClosed)[0].winner == 0
    assert then(state, events).owners[3] == 0


def test_an_auction_without_bids_leaves_the_lot_unowned() -> None:
    state = then(on_baltic(), when(on_baltic(), c.DeclineBuy()))
    for seat in (0, 1):
        state = then(state, when(state, c.PassAuction(), seat))
    events = when(state, c.PassAuction(), 2)
    assert of(events, AuctionClosed)[0].winner is None
    assert then(state, events).owners[3] == -1


def test_a_seat_out_of_the_auction_cannot_bid() -> None:
    state = then(on_baltic(), when(on_baltic(), c.DeclineBuy()))
    state = then(state, when(state, c.PassAuction(), 1))
    refused(state, c.Bid(amount=10), "NOT_BIDDING", 1)


def test_an_afk_bidder_passes_after_two_seconds() -> None:
    from puzzipolia.events import ClockExpired

    state = given(ClockExpired(seat=2, kind="roll", key="turn:0"))  # a missed personal clock: AFK
    state = then(state, when(state, c.Roll(), dice=[1, 2]))
    state = then(state, when(state, c.DeclineBuy(), now=2_000))
    afk = next(d for d in GAME.pending(state) if d.seat == 2)
    assert (afk.kind, afk.clock_ms) == ("auction_pass", 2_000)
    assert GAME.default_command(state, afk) == c.PassAuction()
    events = when(state, c.PassAuction(), 2, now=4_000, timeout=True)
    assert "AuctionPassed" in kinds(events)


def test_trading_and_building_wait_for_the_auction() -> None:
    state = then(on_baltic(), when(on_baltic(), c.DeclineBuy()))
    from puzzipolia.state import Bundle

    refused(state, c.ProposeTrade(to_seat=1, give=Bundle(money=10), get=Bundle(money=5)), "AUCTION_RUNNING")
    assert at(0, 3) is not None
