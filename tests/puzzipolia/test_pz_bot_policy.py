"""The bot plays by the seed's «Боты»: it buys, trades, builds and mortgages, proposes a trade
for its set once every three rounds, and makes and takes deals by one valuation (both sides
better off by their own reckoning). It never leaves the game and never mortgages at random."""

from __future__ import annotations

import random

import pytest
from pz_helpers import at, given, money, owns, started, then, when

from puzzipolia import bot, valuation
from puzzipolia import commands as c
from puzzipolia.events import Event, OfferMade, TurnStarted
from puzzipolia.legal import legal_commands
from puzzipolia.state import Bundle, State
from puzzipolia.view import view
from tablehall_rules import Viewer


def choice(state: State, seat: int = 0) -> c.Command:
    return bot.choose(view(state, Viewer.of_seat(seat)), legal_commands(state, seat), random.Random(1))


def bots(*setup: Event, players: int = 3) -> State:
    return given(*setup, table=started(players, bots=tuple(range(players))))


def test_it_buys_a_lot_it_can_afford() -> None:
    state = bots(at(0, 0))
    state = then(state, when(state, c.Roll(), dice=[1, 2]))  # Baltic Avenue, 60
    assert state.phase == "buy" and choice(state) == c.Buy()


def test_it_builds_evenly_on_a_whole_set() -> None:
    state = bots(*owns(0, 1, 3))
    assert choice(state) == c.Build(square=1)
    state = then(state, when(state, c.Build(square=1)))
    assert choice(state) == c.Build(square=3)


def test_short_of_cash_it_mortgages_a_lot_outside_its_set_to_build() -> None:
    state = bots(*owns(0, 1, 3, 5), money(0, -1400))  # 100 in cash; a house costs 50, Reading mortgages for 100
    assert choice(state) == c.Mortgage(square=5)
    state = then(state, when(state, c.Mortgage(square=5)))
    assert choice(state) == c.Build(square=1)


def test_it_never_mortgages_at_random_or_leaves() -> None:
    state = bots(*owns(0, 5, 12))  # nothing to build, plenty of cash
    assert choice(state) == c.Roll()
    with pytest.raises(bot.NoMove):  # only ⚑ and ■ are left to it: a bot is never asked then
        bot.choose(view(state, Viewer.of_seat(1)), [c.ProposeEnd(), c.Leave()], random.Random(1))
    assert bot.choose(
        view(state, Viewer.of_seat(1)), [c.Mortgage(square=5), c.DeclineTrade(offer_id=1), c.Leave()], random.Random(1)
    ) == c.DeclineTrade(offer_id=1)


def _set_owner_at_round(round_: int) -> State:
    # seat 0 owns two oranges, seat 1 the third: a deal completes seat 0's set
    return bots(*owns(0, 16, 18), *owns(1, 19), TurnStarted(seat=0, round=round_))


@pytest.mark.parametrize("round_", [3, 6, 9])
def test_it_proposes_a_trade_for_its_set_every_three_rounds(round_: int) -> None:
    offer = choice(_set_owner_at_round(round_))
    assert isinstance(offer, c.ProposeTrade)
    assert (offer.to_seat, offer.get.lots) == (1, [19]) and offer.give.money > 200  # more than New York's price


@pytest.mark.parametrize("round_", [1, 2, 4, 5, 7])
def test_it_proposes_no_trade_in_other_rounds(round_: int) -> None:
    assert choice(_set_owner_at_round(round_)) == c.Roll()


def test_its_offer_leaves_both_better_off_and_the_partner_bot_accepts_it() -> None:
    state = _set_owner_at_round(3)
    offer = choice(state)
    assert isinstance(offer, c.ProposeTrade)
    deal = valuation.Deal(0, 1, valuation.Side(tuple(offer.give.lots), offer.give.money), valuation.Side((19,)))
    mine, theirs = valuation.gains(valuation.Board(view(state, Viewer.of_seat(0))), deal)
    assert mine >= valuation.MARGIN and theirs >= valuation.MARGIN
    state = then(state, when(state, offer))
    (made,) = state.offers
    assert choice(state, 1) == c.AcceptTrade(offer_id=made.id)


def test_it_declines_an_offer_that_leaves_it_worse_off() -> None:
    state = bots(*owns(0, 16, 18), *owns(1, 19))
    cheap = c.ProposeTrade(to_seat=1, give=Bundle(money=150), get=Bundle(lots=[19]))
    state = then(state, when(state, cheap))
    assert OfferMade in {type(e) for e in when(bots(*owns(0, 16, 18), *owns(1, 19)), cheap)}
    assert choice(state, 1) == c.DeclineTrade(offer_id=state.offers[0].id)


def test_during_an_auction_it_declines_an_offer_instead_of_leaving() -> None:
    """The high bidder with an offer to answer: DeclineTrade is legal then, and the bot takes it."""
    state = bots(*owns(0, 16, 18), *owns(1, 19), at(2, 0), players=3)
    state = then(state, when(state, c.ProposeTrade(to_seat=1, give=Bundle(money=150), get=Bundle(lots=[19]))))
    state = then(state, when(state, c.Roll(), dice=[1, 2]))  # seat 0 lands on Baltic
    state = then(state, when(state, c.DeclineBuy()))
    state = then(state, when(state, c.Bid(amount=10), 1))
    assert state.auction is not None and state.auction.high_bidder == 1
    legal = legal_commands(state, 1)
    offer_id = state.offers[0].id
    assert c.DeclineTrade(offer_id=offer_id) in legal and c.AcceptTrade(offer_id=offer_id) not in legal
    assert c.WithdrawTrade(offer_id=offer_id) in legal_commands(state, 0)
    assert choice(state, 1) == c.DeclineTrade(offer_id=offer_id)


def test_the_random_player_of_a_bot_seat_never_leaves_while_it_has_anything_else_to_do() -> None:
    """The easy bot's noise and the random level use the game's random player: never ⚑ unforced."""
    from puzzipolia.game import GAME

    state = bots(*owns(0, 5))
    seen = view(state, Viewer.of_seat(0))
    for seed in range(300):
        rng = random.Random(seed)
        assert GAME.random_policy(seen, [c.Mortgage(square=5), c.Leave()], rng) == c.Mortgage(square=5)
        assert GAME.random_policy(seen, [c.DeclineTrade(offer_id=1), c.ProposeEnd(), c.Leave()], rng) == c.DeclineTrade(
            offer_id=1
        )
        assert GAME.random_policy(seen, [c.Surrender(), c.Leave()], rng) == c.Surrender()
