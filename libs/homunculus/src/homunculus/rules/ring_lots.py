"""Lots on the ring: buying, the auction, rent, building, mortgages, trades, and the bank
taking back an eliminated player's lots.

- **Buy** (купить) the free lot at its price, or **decline** (`DeclineLot`): it goes to
  **auction** (аукцион). Every live player bids, the lander too; each bid is higher than the
  last (and at most the bidder's gold); a pass is final. A bidder whose gold is not above the
  high bid (no gold at all at the opening) has nothing to choose: the engine passes it at once
  (`BidPassed(reason="gold")`), so the table never waits on its clock. The last one left with
  the high bid buys at it; when everybody passes without a bid the lot stays with the bank.
- **Rent** (аренда): a lot of an enemy; an ally (or the player itself) takes none, a mortgaged
  lot none. Streets: the bare rent, doubled when the owner holds the whole district; with
  buildings the rent of 1-4 houses or the hotel. Gates: 3/5/10/20 by the owner's gates.
  Utilities: the dice sum, ×3 when the owner holds both.
- **Building** (застройка): on a street of a district the player holds whole, none of it
  mortgaged, evenly (never ahead of another lot of the district), while the bank has a house
  (32) or, on 4 houses, a hotel (12; the 4 houses go back to the bank).
- **Mortgage** (залог): half the classic price, scaled; none while the district has buildings.
  **Redeem** (выкуп): the mortgage + 10 % (rounded up).
- **Trade** (сделка): once per turn the turn player may offer any live player lots and gold for
  lots and gold; no lot of a district with buildings; the offered player accepts or declines
  out of turn, the offer lapses with the turn.
"""

from __future__ import annotations

from homunculus import commands as c
from homunculus import events as e
from homunculus.flow import Flow
from homunculus.ring import board as rb
from homunculus.ring.state import AUCTION, Offer
from homunculus.state import State
from tablehall_rules import illegal, invalid

# --- rent ------------------------------------------------------------------------------------


def holds_district(state: State, owner: int, index: int) -> bool:
    return all(state.ring.owners[i] == owner for i in rb.district(rb.square(index).group))


def rent_due(state: State, payer: int, index: int) -> int:
    r = state.ring
    owner = r.owners[index]
    if owner < 0 or r.mortgaged[index] or state.allied(payer, owner):
        return 0
    sq = rb.square(index)
    if sq.kind == "street":
        level = r.buildings[index]
        if level:
            return sq.rents[level]
        return sq.rents[0] * (2 if holds_district(state, owner, index) else 1)
    held = sum(1 for i in rb.district(sq.group) if r.owners[i] == owner)
    if sq.kind == "gates":
        return rb.GATE_RENTS[held - 1]
    return sum(r.dice) * rb.UTILITY_FACTORS[held - 1]


# --- buying and the auction ------------------------------------------------------------------


def buy(flow: Flow, seat: int) -> None:
    """The lander buys the lot it stands on (the ring then goes on: `ring_roll`)."""
    index = flow.state.ring.buy_square
    flow.emit(e.LotBought(seat, index, rb.square(index).price))


def check_buy(state: State, seat: int) -> None:
    if state.gold[seat] < rb.square(state.ring.buy_square).price:
        raise illegal("NOT_ENOUGH_GOLD", "Not enough gold.", "Не хватает золота.")


def start_auction(flow: Flow, index: int) -> bool:
    """The lot goes to auction; True when it closed at once (the ring goes on)."""
    flow.emit(e.AuctionOpened(index, flow.state.live_players(), flow.now_ms))
    flow.emit(e.PhaseSet(AUCTION, flow.now_ms))
    return settle_auction(flow)  # those without a coin pass at once; nobody left: the bank keeps it


def check_bid(state: State, seat: int, command: c.Bid | c.PassBid) -> None:
    a = state.ring.auction
    if a is None:
        raise illegal("NO_AUCTION", "No auction is running.", "Аукциона нет.")
    if seat not in a.bidders:
        raise illegal("NOT_BIDDING", "You are out of this auction.", "Вы вышли из этого аукциона.")
    if seat == a.high_bidder:
        raise illegal("ALREADY_HIGHEST", "Yours is the highest bid.", "Ваша ставка и так старшая.")
    if isinstance(command, c.Bid):
        if command.amount <= a.high_bid:
            raise illegal("BID_TOO_LOW", f"Bid more than {a.high_bid}.", f"Ставка должна быть больше {a.high_bid}.")
        if command.amount > state.gold[seat]:
            raise illegal("NOT_ENOUGH_GOLD", "Not enough gold.", "Не хватает золота.")


def bid(flow: Flow, seat: int, command: c.Bid | c.PassBid) -> bool:
    """A bid or a pass; True when the auction closed (the ring goes on)."""
    if isinstance(command, c.Bid):
        flow.emit(e.BidPlaced(seat, command.amount, flow.now_ms))
    else:
        flow.emit(e.BidPassed(seat))
    return settle_auction(flow)


def cannot_outbid(state: State) -> list[int]:
    """The bidders of the running auction (the high one aside) whose gold is not above the
    high bid: a pass is all they could send."""
    a = state.ring.auction
    if a is None:
        return []
    return [p for p in a.bidders if p != a.high_bidder and state.gold[p] <= a.high_bid]


def settle_auction(flow: Flow) -> bool:
    """Pass the bidders who cannot outbid (the engine does it for them, with a journal line),
    then close the auction once one bidder is left with the high bid, or nobody is left.
    True when it closed now: the turn player's ring part then goes on (`ring_roll`)."""
    for seat in cannot_outbid(flow.state):
        flow.emit(e.BidPassed(seat, "gold"))
    a = flow.state.ring.auction
    if a is None:
        return False
    left = [p for p in a.bidders if p != a.high_bidder]
    if left:
        return False
    flow.emit(e.AuctionClosed(a.square, a.high_bidder, a.high_bid if a.high_bidder >= 0 else 0))
    return True


# --- building and mortgages ------------------------------------------------------------------


def _own_lot(state: State, seat: int, index: int) -> rb.Square:
    if not 0 <= index < rb.SIZE or not rb.square(index).ownable:
        raise invalid("NO_SUCH_LOT", "No such lot on the ring.", "На кольце нет такого участка.")
    if state.ring.owners[index] != seat:
        raise illegal("NOT_YOUR_LOT", "That lot is not yours.", "Это не ваш участок.")
    return rb.square(index)


def district_built(state: State, index: int) -> bool:
    return any(state.ring.buildings[i] for i in rb.district(rb.square(index).group))


def check_build(state: State, seat: int, index: int) -> int:
    """The cost of building on `index` now, or the refusal."""
    sq = _own_lot(state, seat, index)
    r = state.ring
    if sq.kind != "street" or not holds_district(state, seat, index):
        raise illegal(
            "NO_WHOLE_DISTRICT", "Build only on a whole district of yours.", "Строить можно только на целом районе."
        )
    group = rb.district(sq.group)
    if any(r.mortgaged[i] for i in group):
        raise illegal("DISTRICT_MORTGAGED", "A lot of the district is mortgaged.", "В районе есть заложенный участок.")
    level = r.buildings[index]
    if level >= rb.HOTEL:
        raise illegal("HOTEL_BUILT", "The lot has its hotel.", "На участке уже отель.")
    if level > min(r.buildings[i] for i in group):
        raise illegal("BUILD_EVENLY", "Build evenly across the district.", "Стройте равномерно по району.")
    if (level == rb.HOTEL - 1 and r.hotels_bank < 1) or (level < rb.HOTEL - 1 and r.houses_bank < 1):
        raise illegal("BANK_EMPTY", "The bank has no building left.", "В банке не осталось построек.")
    if state.gold[seat] < sq.house_cost:
        raise illegal("NOT_ENOUGH_GOLD", "Not enough gold.", "Не хватает золота.")
    return sq.house_cost


def check_mortgage(state: State, seat: int, index: int) -> int:
    sq = _own_lot(state, seat, index)
    if state.ring.mortgaged[index]:
        raise illegal("MORTGAGED", "The lot is mortgaged already.", "Участок уже заложен.")
    if district_built(state, index):
        raise illegal("DISTRICT_BUILT", "The district has buildings.", "В районе есть постройки.")
    return sq.mortgage


def check_redeem(state: State, seat: int, index: int) -> int:
    sq = _own_lot(state, seat, index)
    if not state.ring.mortgaged[index]:
        raise illegal("NOT_MORTGAGED", "The lot is not mortgaged.", "Участок не заложен.")
    if state.gold[seat] < sq.redeem_cost:
        raise illegal("NOT_ENOUGH_GOLD", "Not enough gold.", "Не хватает золота.")
    return sq.redeem_cost


# --- trades ----------------------------------------------------------------------------------


def check_offer(state: State, seat: int, cmd: c.OfferTrade) -> None:
    if state.ring.offered:
        raise illegal("ALREADY_OFFERED", "One trade offer per turn.", "Одна сделка за ход.")
    if not 0 <= cmd.to < state.players or cmd.to == seat or not state.alive[cmd.to]:
        raise illegal("NO_SUCH_PLAYER", "Offer to another player in the game.", "Предложите другому игроку в игре.")
    if not (cmd.give_lots or cmd.get_lots or cmd.give_gold or cmd.get_gold):
        raise invalid("EMPTY_TRADE", "The offer gives and asks nothing.", "Предложение пустое.")
    check_trade(state, Offer(seat, cmd.to, list(cmd.give_lots), list(cmd.get_lots), cmd.give_gold, cmd.get_gold))


def check_trade(state: State, o: Offer) -> None:
    """The offer can be carried out now (its parties still hold what it moves)."""
    if o.give_gold < 0 or o.get_gold < 0:
        raise invalid("BAD_AMOUNT", "Gold amounts are not negative.", "Суммы не бывают отрицательными.")
    lots = [*o.give_lots, *o.get_lots]
    if len(set(lots)) != len(lots):
        raise invalid("BAD_LOTS", "Each lot once.", "Каждый участок — один раз.")
    for index in o.give_lots:
        _own_lot(state, o.proposer, index)
    for index in o.get_lots:
        _own_lot(state, o.to, index)
    if any(district_built(state, i) for i in lots):
        raise illegal(
            "DISTRICT_BUILT", "No lots of districts with buildings.", "Участки районов с постройками не передаются."
        )
    if state.gold[o.proposer] < o.give_gold or state.gold[o.to] < o.get_gold:
        raise illegal("NOT_ENOUGH_GOLD", "Not enough gold for this trade.", "Не хватает золота для сделки.")


def check_answer(state: State, seat: int, cmd: c.AnswerTrade) -> None:
    o = state.ring.offer
    if o is None or o.to != seat:
        raise illegal("NO_OFFER", "No trade offer is open for you.", "Вам не предлагали сделку.")
    if cmd.accept:
        check_trade(state, o)


# --- elimination -----------------------------------------------------------------------------


def after_elimination(flow: Flow, seat: int) -> bool:
    """The bank takes the player's lots back; its offer lapses; it leaves a running auction
    (which closes unsold when it held the high bid or was the lander). True when the auction
    closed for a lander still in the game: its ring part goes on."""
    s = flow.state
    if seat in s.ring.owners or s.ring.passes[seat]:
        flow.emit(e.LotsReturned(seat))
    o = s.ring.offer
    if o is not None and seat in (o.proposer, o.to):
        flow.emit(e.TradeAnswered(False))
    a = s.ring.auction
    if a is None:
        return False
    if seat in (a.high_bidder, s.turn):
        flow.emit(e.AuctionClosed(a.square, -1, 0))
        return seat != s.turn
    if seat in a.bidders:
        flow.emit(e.BidPassed(seat, "out"))
        return settle_auction(flow)
    return False
