"""Concrete commands a seat may submit now.

Parametric commands come as representative instances: `Bid` at the minimum
bid; `ProposeTrade` as one example offer per partner the limits allow (buy
their cheapest tradable lot at its price, or sell them yours); `Choose67`
with both 6 and 7. Clock-driven commands (CloseAuction, CloseVote) are never
listed: only a run-out clock sends them. During an auction an open offer can
still be declined or withdrawn (the engine accepts both then); accepting and
proposing wait for the auction's end.
"""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.board import JAIL_FINE
from puzzipolia.rules.building import build_problem, sell_problem
from puzzipolia.rules.buying import auction_clock_ms, min_bid
from puzzipolia.rules.debts import collect_plan
from puzzipolia.rules.mortgage import mortgage_problem
from puzzipolia.rules.trades import bundle_problem, propose_problem
from puzzipolia.rules.turn import seats_to_roll_for_order
from puzzipolia.rules.vote import propose_problem as vote_problem
from puzzipolia.state import Bundle, State


def legal_commands(st: State, seat: int, now_ms: int | None = None) -> list[c.Command]:
    if st.phase == "over" or not st.has_seat(seat) or not st.player(seat).is_playing:
        return []
    if now_ms is None:
        now_ms = st.last_at_ms
    out: list[c.Command] = []
    if st.phase == "order":
        if seat in seats_to_roll_for_order(st):
            out.append(c.RollForOrder())
    else:
        _turn(st, seat, out)
        _auction(st, seat, out, now_ms)
        _debts(st, seat, out)
        _property(st, seat, out)
        _trades(st, seat, out, now_ms)
    _vote(st, seat, out, now_ms)
    out.append(c.Leave())
    return out


def _turn(st: State, seat: int, out: list[c.Command]) -> None:
    if st.active != seat or st.debts:
        return
    p = st.player(seat)
    if st.phase == "roll":
        out.append(c.Roll())
        if p.in_jail:
            if p.money >= JAIL_FINE:
                out.append(c.PayJailFine())
            if p.jail_cards:
                out.append(c.UseJailCard())
    elif st.phase == "buy":
        if p.money >= st.geometry.squares[st.buy_square].price:
            out.append(c.Buy())
        out.append(c.DeclineBuy())
    elif st.phase == "card67":
        out.extend([c.Choose67(steps=6), c.Choose67(steps=7)])
    elif st.phase == "end":
        out.append(c.EndTurn())


def _auction(st: State, seat: int, out: list[c.Command], now_ms: int) -> None:
    a = st.auction
    if a is None or seat not in a.bidders or a.high_bidder == seat:
        return
    clock_open = now_ms <= a.clock_at_ms + auction_clock_ms(a)
    if clock_open and st.player(seat).money >= min_bid(a):
        out.append(c.Bid(amount=min_bid(a)))
    out.append(c.PassAuction())


def _debts(st: State, seat: int, out: list[c.Command]) -> None:
    debts = st.debts_of(seat)
    if not debts:
        return
    if st.player(seat).money >= debts[0].amount:
        out.append(c.PayDebt())
    if collect_plan(st, seat, debts[0].amount)[1]:
        out.append(c.CollectDebt())
    out.append(c.Surrender())


def _property(st: State, seat: int, out: list[c.Command]) -> None:
    p = st.player(seat)
    free_to_spend = st.auction is None and not st.debts_of(seat)
    geometry = st.geometry
    for index in st.lots_of(seat):
        sq = geometry.squares[index]
        if free_to_spend and p.money >= sq.house_cost and build_problem(st, seat, index) is None:
            out.append(c.Build(square=index))
        if sell_problem(st, index) is None:
            out.append(c.SellBuilding(square=index))
        if mortgage_problem(st, index) is None:
            out.append(c.Mortgage(square=index))
        elif st.mortgaged[index] and free_to_spend and p.money >= sq.redeem_cost:
            out.append(c.Unmortgage(square=index))


def _tradable(st: State, seat: int) -> list[int]:
    geometry = st.geometry
    lots = [i for i in st.lots_of(seat) if not any(st.houses[g] for g in geometry.group_of(i))]
    return sorted(lots, key=lambda i: (geometry.squares[i].price, i))


def _trades(st: State, seat: int, out: list[c.Command], now: int) -> None:
    # an open offer may be declined or withdrawn during an auction too; only accepting and proposing wait
    for o in st.offers:
        if o.recipient == seat:
            acceptable = st.auction is None
            if (
                acceptable
                and bundle_problem(st, o.proposer, o.give) is None
                and bundle_problem(st, seat, o.get) is None
            ):
                out.append(c.AcceptTrade(offer_id=o.id))
            out.append(c.DeclineTrade(offer_id=o.id))
        elif o.proposer == seat:
            out.append(c.WithdrawTrade(offer_id=o.id))
    if st.auction is not None:
        return
    mine = _tradable(st, seat)
    money = st.player(seat).money
    geometry = st.geometry
    for other in st.live_seats():
        if other == seat or propose_problem(st, seat, other, now) is not None:
            continue
        theirs = _tradable(st, other)
        if theirs and money >= geometry.squares[theirs[0]].price:
            lot = theirs[0]
            out.append(
                c.ProposeTrade(to_seat=other, give=Bundle(money=geometry.squares[lot].price), get=Bundle(lots=[lot]))
            )
        elif mine and st.player(other).money >= 10:
            lot = mine[0]
            price = min(geometry.squares[lot].price, st.player(other).money)
            out.append(c.ProposeTrade(to_seat=other, give=Bundle(lots=[lot]), get=Bundle(money=price)))


def _vote(st: State, seat: int, out: list[c.Command], now_ms: int) -> None:
    v = st.vote
    if v is not None and seat in v.voters and seat not in v.yes:
        out.extend([c.VoteEnd(yes=True), c.VoteEnd(yes=False)])
    elif v is None and vote_problem(st, seat, now_ms) is None:
        out.append(c.ProposeEnd())
