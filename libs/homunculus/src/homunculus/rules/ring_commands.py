"""The ring's commands, decisions and descriptors, kept out of the turn's own modules.

Turn player, ring phases: `dungeon` (RollDice / PayFine / UsePass), `buy` (BuyLot /
DeclineLot). Turn player, `action` / `continue` (before the action, like the shop): Build,
Mortgage, Redeem, OfferTrade (once a turn). Out of turn: Bid / PassBid by every bidder of the
running auction, AnswerTrade by the offered player.

Clocks: the ring phases use the turn's clock (default DeclineLot, RollDice); each bidder has
its own bid clock (15 s, restarted by every bid; default PassBid); the offered player the
turn clock (default: decline). A ring decision ended by the clock is no strike: a clocked turn
counts once, by its action.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import msgspec

from homunculus import commands as c
from homunculus import events as e
from homunculus.flow import Flow
from homunculus.ring import board as rb
from homunculus.ring.state import AUCTION, BUY, DUNGEON
from homunculus.rules import ring_lots as lots
from homunculus.rules.ring_roll import dungeon_roll, leave_dungeon, ring_goes_on
from homunculus.rules.turn import wrong_phase
from homunculus.state import ACTION, CONTINUE, State
from tablehall_rules import Choice, IntRange, LegalMove, PendingDecision, Rule, RuleError, illegal
from tablehall_rules.legal import move as describe

BID_CLOCK_MS = 15_000
RING_PHASES = (BUY, AUCTION, DUNGEON)
TURN_TYPES = (c.RollDice, c.PayFine, c.UsePass, c.BuyLot, c.DeclineLot, c.Build, c.Mortgage, c.Redeem, c.OfferTrade)
OUT_OF_TURN_TYPES = (c.Bid, c.PassBid, c.AnswerTrade)


def check_turn(state: State, seat: int, cmd: msgspec.Struct) -> None:
    """Raise the refusal of a ring command of the turn player."""
    phase = state.phase
    r = state.ring
    if isinstance(cmd, c.RollDice | c.PayFine | c.UsePass):
        if phase != DUNGEON:
            raise wrong_phase(phase)
        if isinstance(cmd, c.PayFine) and state.gold[seat] < rb.DUNGEON_FINE:
            raise illegal("NOT_ENOUGH_GOLD", "Not enough gold.", "Не хватает золота.")
        if isinstance(cmd, c.UsePass) and not r.passes[seat]:
            raise illegal("NO_PASS", "You hold no pass card.", "У вас нет пропуска.")
    elif isinstance(cmd, c.BuyLot | c.DeclineLot):
        if phase != BUY:
            raise wrong_phase(phase)
        if isinstance(cmd, c.BuyLot):
            lots.check_buy(state, seat)
    else:
        if phase not in (ACTION, CONTINUE):
            raise wrong_phase(phase)
        if isinstance(cmd, c.Build):
            lots.check_build(state, seat, cmd.square)
        elif isinstance(cmd, c.Mortgage):
            lots.check_mortgage(state, seat, cmd.square)
        elif isinstance(cmd, c.Redeem):
            lots.check_redeem(state, seat, cmd.square)
        elif isinstance(cmd, c.OfferTrade):
            lots.check_offer(state, seat, cmd)


def apply_turn(flow: Flow, seat: int, cmd: msgspec.Struct) -> None:
    s = flow.state
    if isinstance(cmd, c.RollDice):
        dungeon_roll(flow, seat)
    elif isinstance(cmd, c.PayFine):
        leave_dungeon(flow, seat, "fine")
    elif isinstance(cmd, c.UsePass):
        leave_dungeon(flow, seat, "pass")
    elif isinstance(cmd, c.BuyLot):
        lots.buy(flow, seat)
        ring_goes_on(flow, seat)
    elif isinstance(cmd, c.DeclineLot):
        if lots.start_auction(flow, s.ring.buy_square):
            ring_goes_on(flow, s.turn)
    elif isinstance(cmd, c.Build):
        flow.emit(e.BuildingBuilt(seat, cmd.square, lots.check_build(s, seat, cmd.square)))
    elif isinstance(cmd, c.Mortgage):
        flow.emit(e.LotMortgaged(seat, cmd.square, lots.check_mortgage(s, seat, cmd.square)))
    elif isinstance(cmd, c.Redeem):
        flow.emit(e.LotRedeemed(seat, cmd.square, lots.check_redeem(s, seat, cmd.square)))
    elif isinstance(cmd, c.OfferTrade):
        flow.emit(
            e.TradeOffered(
                seat, cmd.to, list(cmd.give_lots), list(cmd.get_lots), cmd.give_gold, cmd.get_gold, flow.now_ms
            )
        )


def check_out_of_turn(state: State, seat: int, cmd: msgspec.Struct) -> None:
    if isinstance(cmd, c.Bid | c.PassBid):
        lots.check_bid(state, seat, cmd)
    elif isinstance(cmd, c.AnswerTrade):
        lots.check_answer(state, seat, cmd)


def apply_out_of_turn(flow: Flow, seat: int, cmd: msgspec.Struct) -> None:
    if isinstance(cmd, c.Bid | c.PassBid):
        if lots.bid(flow, seat, cmd):
            ring_goes_on(flow, flow.state.turn)
    elif isinstance(cmd, c.AnswerTrade):
        flow.emit(e.TradeAnswered(cmd.accept))


# --- decisions -------------------------------------------------------------------------------


def ring_pending(state: State) -> list[PendingDecision]:
    out: list[PendingDecision] = []
    a = state.ring.auction
    if a is not None:
        for p in a.bidders:
            if p != a.high_bidder and state.alive[p]:
                out.append(
                    PendingDecision(
                        key=f"bid:{state.decision_no}:{a.bids}:{len(a.bidders)}:{p}",
                        seat=p,
                        kind="bid",
                        clock="bid",
                        opened_at_ms=a.at_ms,
                        clock_ms=state.afk.clock_ms(p, BID_CLOCK_MS),
                    )
                )
    o = state.ring.offer
    if o is not None and state.alive[o.to]:
        out.append(
            PendingDecision(
                key=f"trade:{o.no}:{o.to}",
                seat=o.to,
                kind="trade",
                clock="trade",
                opened_at_ms=o.at_ms,
                clock_ms=state.afk.clock_ms(o.to, state.clock_ms),
            )
        )
    return out


def ring_default(state: State, decision: PendingDecision) -> msgspec.Struct | None:
    """The safe move of a ring decision (None: not a ring decision)."""
    if decision.kind == "bid":
        return c.PassBid()
    if decision.kind == "trade":
        return c.AnswerTrade(False)
    if decision.kind == BUY:
        return c.DeclineLot()
    if decision.kind == DUNGEON:
        return c.RollDice()
    return None


# --- descriptors -----------------------------------------------------------------------------


def _ok(check: Callable[[], object]) -> bool:
    try:
        check()
    except RuleError:
        return False
    return True


def ring_legal(state: State, seat: int) -> list[LegalMove]:
    out: list[LegalMove] = []
    r = state.ring
    if seat == state.turn:
        phase = state.phase
        if phase == DUNGEON:
            out.append(LegalMove(c.RollDice()))
            if state.gold[seat] >= rb.DUNGEON_FINE:
                out.append(LegalMove(c.PayFine()))
            if r.passes[seat]:
                out.append(LegalMove(c.UsePass()))
        elif phase == BUY:
            if _ok(lambda: lots.check_buy(state, seat)):
                out.append(LegalMove(c.BuyLot()))
            out.append(LegalMove(c.DeclineLot()))
        elif phase in (ACTION, CONTINUE):
            out += _estate_moves(state, seat)
    a = r.auction
    if a is not None and seat in a.bidders and seat != a.high_bidder:
        if state.gold[seat] > a.high_bid:
            out.append(describe(c.Bid(0), amount=IntRange(a.high_bid + 1, state.gold[seat])))
        out.append(LegalMove(c.PassBid()))
    o = r.offer
    if o is not None and o.to == seat:
        if _ok(lambda: lots.check_trade(state, o)):
            out.append(LegalMove(c.AnswerTrade(True)))
        out.append(LegalMove(c.AnswerTrade(False)))
    return out


def _lot_ok(check: Callable[[State, int, int], int], state: State, seat: int, index: int) -> bool:
    try:
        check(state, seat, index)
    except RuleError:
        return False
    return True


def _estate_moves(state: State, seat: int) -> list[LegalMove]:
    out: list[LegalMove] = []
    r = state.ring
    mine = [i for i in range(rb.SIZE) if r.owners[i] == seat]
    # the lots each check could accept: the others it refuses at once (a cheaper question)
    maybe = {
        c.Build: [i for i in mine if rb.square(i).kind == "street" and not r.mortgaged[i]],
        c.Mortgage: [i for i in mine if not r.mortgaged[i]],
        c.Redeem: [i for i in mine if r.mortgaged[i]],
    }
    for cls, check in ((c.Build, lots.check_build), (c.Mortgage, lots.check_mortgage), (c.Redeem, lots.check_redeem)):
        ok = [i for i in maybe[cls] if _lot_ok(check, state, seat, i)]
        if ok:
            out.append(describe(cls(0), square=Choice(ok)))
    if not state.ring.offered:
        tradable = _tradable(state)
        for other in state.live_players():
            if other == seat:
                continue
            example = _example_offer(state, seat, other, tradable)
            if example is None:
                continue
            template = c.OfferTrade(other, [], [])
            out.append(
                describe(
                    template,
                    give_lots=Rule("trade_lots", [example.give_lots]),
                    get_lots=Rule("trade_lots", [example.get_lots]),
                    give_gold=Rule("trade_gold", [example.give_gold]),
                    get_gold=Rule("trade_gold", [example.get_gold]),
                )
            )
    return out


@cache
def _ownable() -> tuple[int, ...]:
    return tuple(i for i in range(rb.SIZE) if rb.square(i).ownable)


def _tradable(state: State) -> list[int]:
    """The ownable lots whose district has no buildings (those a trade may pass on)."""
    if not any(state.ring.buildings):  # nothing built anywhere (most of a game): every one
        return list(_ownable())
    return [i for i in _ownable() if not lots.district_built(state, i)]


def _example_offer(state: State, seat: int, other: int, free: list[int]) -> c.OfferTrade | None:
    """One offer the engine accepts now: a lot of the other's for its price, else one's own
    lot for its price, else 1 gold as a gift (when there is gold); `free`: the `_tradable` lots."""
    theirs = [i for i in free if state.ring.owners[i] == other]
    mine = [i for i in free if state.ring.owners[i] == seat]
    if theirs and state.gold[seat] >= 1:
        return c.OfferTrade(other, [], [theirs[0]], give_gold=min(state.gold[seat], rb.square(theirs[0]).price))
    if mine:
        return c.OfferTrade(other, [mine[0]], [], get_gold=min(state.gold[other], rb.square(mine[0]).price))
    if state.gold[seat] >= 1:
        return c.OfferTrade(other, [], [], give_gold=1)
    if state.gold[other] >= 1:
        return c.OfferTrade(other, [], [], get_gold=1)
    return None
