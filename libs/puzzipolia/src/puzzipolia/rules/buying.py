"""Buying at the price, or declining into an auction open to every player."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.events import (
    AuctionClosed,
    AuctionOpened,
    AuctionPassed,
    BidPlaced,
    LotBought,
    PurchaseDeclined,
)
from puzzipolia.flow import Flow
from puzzipolia.rules.guards import require_active, require_money, require_no_debts
from puzzipolia.rules.turn import continue_turn
from puzzipolia.state import Auction, State
from tablehall_rules import illegal, invalid

FIRST_BID_MS = 15_000
NEXT_BID_MS = 8_000
MIN_STEP = 10


def buy(f: Flow, cmd: c.Buy, seat: int) -> None:
    st = f.state
    require_active(st, seat, "buy")
    require_no_debts(st)
    price = st.geometry.squares[st.buy_square].price
    require_money(st, seat, price)
    f.emit(LotBought(seat=seat, square=st.buy_square, price=price))
    continue_turn(f)


def decline_buy(f: Flow, cmd: c.DeclineBuy, seat: int) -> None:
    st = f.state
    require_active(st, seat, "buy")
    require_no_debts(st)
    square = st.buy_square
    f.emit(PurchaseDeclined(seat=seat, square=square))
    bidders = [s for s in st.order if st.player(s).is_playing]
    f.emit(AuctionOpened(auction_id=st.next_auction_id, square=square, bidders=bidders))


def auction_clock_ms(a: Auction) -> int:
    return NEXT_BID_MS if a.bids else FIRST_BID_MS


def min_bid(a: Auction) -> int:
    return a.high_bid + MIN_STEP


def _auction_for(st: State, seat: int) -> Auction:
    a = st.auction
    if a is None:
        raise illegal("NO_AUCTION", "No auction is running.", "Аукциона нет.")
    if seat not in a.bidders:
        raise illegal("NOT_BIDDING", "You are out of this auction.", "Ты не участвуешь в этом аукционе.")
    return a


def bid(f: Flow, cmd: c.Bid, seat: int) -> None:
    st = f.state
    a = _auction_for(st, seat)
    if cmd.amount <= 0:
        raise invalid("BAD_AMOUNT", "A bid is a positive amount.", "Ставка — положительная сумма.")
    if a.high_bidder == seat:
        raise illegal("ALREADY_HIGHEST", "Your bid is already the highest.", "Твоя ставка и так старшая.")
    if f.now_ms > a.clock_at_ms + auction_clock_ms(a):
        raise illegal("AUCTION_CLOCK_OUT", "The auction clock has run out.", "Время аукциона вышло.")
    if cmd.amount < min_bid(a):
        raise illegal(
            "BID_TOO_LOW",
            f"The lowest bid now is {min_bid(a)}.",
            f"Минимальная ставка сейчас — {min_bid(a)}.",
        )
    require_money(st, seat, cmd.amount)
    f.emit(BidPlaced(seat=seat, amount=cmd.amount))


def pass_auction(f: Flow, cmd: c.PassAuction, seat: int) -> None:
    a = _auction_for(f.state, seat)
    if a.high_bidder == seat:
        raise illegal("ALREADY_HIGHEST", "Your bid is the highest.", "Твоя ставка старшая.")
    f.emit(AuctionPassed(seat=seat))
    close_if_settled(f)


def close_if_settled(f: Flow) -> None:
    """Once nobody but the high bidder is left, the last bid wins at once."""
    a = f.state.auction
    if a is not None and all(s == a.high_bidder for s in a.bidders):
        close_auction_now(f)


def close_auction(f: Flow, cmd: c.CloseAuction, seat: int) -> None:
    if f.state.auction is None:
        raise illegal("NO_AUCTION", "No auction is running.", "Аукциона нет.")
    close_auction_now(f)


def close_auction_now(f: Flow) -> None:
    a = f.state.auction
    assert a is not None
    f.emit(AuctionClosed(square=a.square, winner=a.high_bidder, price=a.high_bid))
    continue_turn(f)
