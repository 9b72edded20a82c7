"""The evolver: applies one event to the state, in place, and returns it.

Total and deterministic: no draws, no clock. `evolve(None, GameStarted)`
creates the state; every other event needs one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from puzzipolia import events as ev
from puzzipolia.board import board
from puzzipolia.cards import card
from puzzipolia.state import (
    BANKRUPT,
    LEFT,
    PERSONAL_KINDS,
    Auction,
    Debt,
    Offer,
    Player,
    State,
    Vote,
    pair_key,
)
from tablehall_rules import AfkLadder, PendingDecision
from tablehall_rules.table import evolve_table

PAIR_WAIT_MS = 30_000


def _create(e: ev.GameStarted) -> State:
    geometry = board(e.board)
    players = [Player(seat=s.seat, name=s.name, is_bot=s.is_bot, money=e.start_money) for s in e.seats]
    seats = [s.seat for s in e.seats]
    return State(
        board=e.board,
        start_money=e.start_money,
        clock_ms=e.clock_ms,
        round_limit=e.round_limit,
        players=players,
        seat_index={s: i for i, s in enumerate(seats)},
        owners=[-1] * geometry.size,
        houses=[0] * geometry.size,
        mortgaged=[False] * geometry.size,
        decks={k: list(v) for k, v in e.decks.items()},
        order_groups=[seats],
        phase="order",
        phase_at_ms=e.at_ms,
        afk=AfkLadder.for_seats(max(seats) + 1, bots=[s.seat for s in e.seats if s.is_bot]),
    )


def _open_turn_clock(s: State, at_ms: int) -> None:
    s.phase_at_ms = at_ms
    s.turn_seq += 1


def _street_dealt(s: State, e: ev.StreetDealt) -> None:
    s.owners[e.square] = e.seat


def _order_rolled(s: State, e: ev.OrderRolled) -> None:
    s.order_rolls[e.seat] = e.dice[0] + e.dice[1]
    waiting = [seat for g in s.order_groups if len(g) > 1 for seat in g]
    if all(seat in s.order_rolls for seat in waiting):
        _split_order_groups(s)


def _split_order_groups(s: State) -> None:
    """Higher rolls go first; equal rolls stay together and roll again among themselves."""
    groups: list[list[int]] = []
    for g in s.order_groups:
        if len(g) == 1:
            groups.append(g)
            continue
        for total in sorted({s.order_rolls[seat] for seat in g}, reverse=True):
            groups.append([seat for seat in g if s.order_rolls[seat] == total])
    s.order_groups = groups
    s.order_rolls = {}
    s.order_stage += 1


def _order_decided(s: State, e: ev.OrderDecided) -> None:
    s.order = list(e.order)
    s.order_groups = [[seat] for seat in e.order]


def _turn_started(s: State, e: ev.TurnStarted) -> None:
    s.active = e.seat
    s.round = e.round
    s.phase = "roll"
    s.doubles = 0
    s.roll_again = False
    s.dice = []
    s.buy_square = -1
    _open_turn_clock(s, e.at_ms)


def _dice_rolled(s: State, e: ev.DiceRolled) -> None:
    p = s.player(e.seat)
    s.dice = list(e.dice)
    doubles = e.dice[0] == e.dice[1]
    if p.in_jail:
        s.roll_again = False
    else:
        s.doubles = s.doubles + 1 if doubles else 0
        s.roll_again = doubles
    s.phase = "moving"


def _moved(s: State, e: ev.Moved) -> None:
    s.player(e.seat).position = e.to_square


def _salary(s: State, e: ev.SalaryPaid) -> None:
    s.player(e.seat).money += e.amount


def _find(s: State, e: ev.FindPaid) -> None:
    s.player(e.seat).money += e.amount


def _phase_changed(s: State, e: ev.PhaseChanged) -> None:
    s.phase = e.phase
    _open_turn_clock(s, e.at_ms)


def _sent_to_jail(s: State, e: ev.SentToJail) -> None:
    p = s.player(e.seat)
    p.position = s.geometry.jail
    p.in_jail = True
    p.jail_tries = 0
    s.roll_again = False
    s.doubles = 0
    s.phase = "end"
    _open_turn_clock(s, e.at_ms)


def _jail_roll_failed(s: State, e: ev.JailRollFailed) -> None:
    s.player(e.seat).jail_tries = e.tries


def _left_jail(s: State, e: ev.LeftJail) -> None:
    p = s.player(e.seat)
    p.in_jail = False
    p.jail_tries = 0
    p.money -= e.fine
    if e.card:
        p.jail_cards.remove(e.card)
        s.decks[card(e.card).deck].append(e.card)
    if e.how in ("fine", "card"):
        s.phase = "roll"
        _open_turn_clock(s, e.at_ms)


def _purchase_offered(s: State, e: ev.PurchaseOffered) -> None:
    s.phase = "buy"
    s.buy_square = e.square
    _open_turn_clock(s, e.at_ms)


def _lot_bought(s: State, e: ev.LotBought) -> None:
    s.player(e.seat).money -= e.price
    s.owners[e.square] = e.seat
    s.buy_square = -1
    s.phase = "moving"


def _purchase_declined(s: State, e: ev.PurchaseDeclined) -> None:
    s.buy_square = -1


def _auction_opened(s: State, e: ev.AuctionOpened) -> None:
    s.auction = Auction(id=e.auction_id, square=e.square, bidders=list(e.bidders), clock_at_ms=e.at_ms)
    s.next_auction_id = e.auction_id + 1
    s.phase = "auction"


def _bid_placed(s: State, e: ev.BidPlaced) -> None:
    a = s.auction
    assert a is not None
    a.high_bid = e.amount
    a.high_bidder = e.seat
    a.bids += 1
    a.clock_at_ms = e.at_ms


def _auction_passed(s: State, e: ev.AuctionPassed) -> None:
    a = s.auction
    assert a is not None
    a.bidders.remove(e.seat)


def _auction_closed(s: State, e: ev.AuctionClosed) -> None:
    if e.winner is not None:
        s.player(e.winner).money -= e.price
        s.owners[e.square] = e.winner
    s.auction = None
    s.phase = "moving"


def _card_drawn(s: State, e: ev.CardDrawn) -> None:
    deck = s.decks[e.deck]
    deck.remove(e.card)
    c = card(e.card)
    if c.is_kept:
        s.player(e.seat).jail_cards.append(e.card)
    else:
        deck.append(e.card)
    if c.kind == "sixty_seven":
        s.phase = "card67"
        _open_turn_clock(s, e.at_ms)


def _choice67(s: State, e: ev.Choice67Made) -> None:
    s.phase = "moving"


def _money_transferred(s: State, e: ev.MoneyTransferred) -> None:
    if e.payer is not None:
        s.player(e.payer).money -= e.amount
    if e.payee is not None:
        s.player(e.payee).money += e.amount


def _debt_opened(s: State, e: ev.DebtOpened) -> None:
    s.debts.append(
        Debt(
            id=e.debt_id,
            debtor=e.debtor,
            creditor=e.creditor,
            amount=e.amount,
            reason=e.reason,
            square=e.square,
            card=e.card,
            at_ms=e.at_ms,
        )
    )
    s.next_debt_id = e.debt_id + 1


def _debts_changed(s: State, debtor: int, at_ms: int) -> None:
    """The debtor's next debt gets a fresh clock; the turn clock restarts when the last one closes."""
    for d in s.debts:
        if d.debtor == debtor:
            d.at_ms = at_ms
            break
    if not s.debts:
        _open_turn_clock(s, at_ms)


def _debt_paid(s: State, e: ev.DebtPaid) -> None:
    s.player(e.debtor).money -= e.amount
    if e.creditor is not None:
        s.player(e.creditor).money += e.amount
    s.debts = [d for d in s.debts if d.id != e.debt_id]
    _debts_changed(s, e.debtor, e.at_ms)


def _assets_liquidated(s: State, e: ev.AssetsLiquidated) -> None:
    p = s.player(e.seat)
    for step in e.steps:
        p.money += step.amount
        if step.action == "sell":
            s.houses[step.square] -= 1
        else:
            s.mortgaged[step.square] = True


def _eliminated(s: State, e: ev.PlayerEliminated) -> None:
    p = s.player(e.seat)
    for sq in e.lots:
        s.houses[sq] = 0
        if e.creditor is None:
            s.owners[sq] = -1
            s.mortgaged[sq] = False
        else:
            s.owners[sq] = e.creditor
    if e.creditor is None or e.cards_to_decks:
        for cid in e.cards:
            s.decks[card(cid).deck].append(cid)
    if e.creditor is not None:
        heir = s.player(e.creditor)
        heir.money += e.money
        if not e.cards_to_decks:
            heir.jail_cards.extend(e.cards)
    p.money = 0
    p.jail_cards = []
    p.in_jail = False
    p.status = BANKRUPT if e.reason == "bankrupt" else LEFT
    s.eliminated.append(e.seat)
    had_debts = bool(s.debts)
    s.debts = [d for d in s.debts if d.debtor != e.seat and d.creditor != e.seat]
    if had_debts and not s.debts:
        _open_turn_clock(s, e.at_ms)
    s.offers = [o for o in s.offers if e.seat not in (o.proposer, o.recipient)]
    a = s.auction
    if a is not None:
        if e.seat in a.bidders:
            a.bidders.remove(e.seat)
        if a.high_bidder == e.seat:
            # the leaver's bid goes with them; bidding reopens on a fresh clock
            a.high_bidder = None
            a.high_bid = 0
            a.bids = 0
            a.clock_at_ms = e.at_ms
    v = s.vote
    if v is not None and e.seat in v.voters:
        v.voters.remove(e.seat)
        if e.seat in v.yes:
            v.yes.remove(e.seat)
    if s.order_rolls.pop(e.seat, None) is not None or any(e.seat in g for g in s.order_groups):
        s.order_groups = [[x for x in g if x != e.seat] for g in s.order_groups]
        s.order_groups = [g for g in s.order_groups if g]
        if s.phase == "order":
            waiting = [x for g in s.order_groups if len(g) > 1 for x in g]
            if waiting and all(x in s.order_rolls for x in waiting):
                _split_order_groups(s)


def _built(s: State, e: ev.BuildingBuilt) -> None:
    s.player(e.seat).money -= e.cost
    s.houses[e.square] += 1


def _sold(s: State, e: ev.BuildingSold) -> None:
    s.player(e.seat).money += e.refund
    s.houses[e.square] -= 1


def _mortgaged(s: State, e: ev.LotMortgaged) -> None:
    s.player(e.seat).money += e.amount
    s.mortgaged[e.square] = True


def _redeemed(s: State, e: ev.LotRedeemed) -> None:
    s.player(e.seat).money -= e.amount
    s.mortgaged[e.square] = False


def _offer_made(s: State, e: ev.OfferMade) -> None:
    s.offers.append(
        Offer(id=e.offer_id, proposer=e.proposer, recipient=e.recipient, give=e.give, get=e.get, at_ms=e.at_ms)
    )
    s.next_offer_id = e.offer_id + 1
    p = s.player(e.proposer)
    if p.offers_round != s.round:
        p.offers_round = s.round
        p.offers_made = 0
    p.offers_made += 1


def _take_offer(s: State, offer_id: int) -> Offer:
    offer = next(o for o in s.offers if o.id == offer_id)
    s.offers.remove(offer)
    return offer


def _offer_accepted(s: State, e: ev.OfferAccepted) -> None:
    o = _take_offer(s, e.offer_id)
    a, b = s.player(o.proposer), s.player(o.recipient)
    for giver, taker, bundle in ((a, b, o.give), (b, a, o.get)):
        giver.money -= bundle.money
        taker.money += bundle.money
        for sq in bundle.lots:
            s.owners[sq] = taker.seat
        for cid in bundle.cards:
            giver.jail_cards.remove(cid)
            taker.jail_cards.append(cid)


def _offer_declined(s: State, e: ev.OfferDeclined) -> None:
    o = _take_offer(s, e.offer_id)
    s.pair_waits[pair_key(o.proposer, o.recipient)] = e.at_ms + PAIR_WAIT_MS


def _offer_gone(s: State, e: ev.OfferExpired | ev.OfferWithdrawn) -> None:
    _take_offer(s, e.offer_id)


def _vote_opened(s: State, e: ev.VoteOpened) -> None:
    s.vote = Vote(id=e.vote_id, proposer=e.proposer, voters=list(e.voters), yes=[], at_ms=e.at_ms)
    s.next_vote_id = e.vote_id + 1


def _vote_answered(s: State, e: ev.VoteAnswered) -> None:
    if s.vote is not None and e.yes:
        s.vote.yes.append(e.seat)


def _vote_over(s: State, e: ev.VoteCancelled | ev.VoteFailed) -> None:
    v = s.vote
    assert v is not None
    s.vote_fail_at_ms = e.at_ms
    s.vote_fail_proposer = -1 if v.proposer is None else v.proposer
    s.vote = None


def _vote_passed(s: State, e: ev.VotePassed) -> None:
    s.vote = None


def _clock_expired(s: State, e: ev.ClockExpired) -> None:
    """The default move that follows carries the change; a missed personal decision is an AFK strike."""
    s.afk.timed_out(PendingDecision(e.key, e.seat, e.kind, "decision", 0, 0), counts=e.kind in PERSONAL_KINDS)


def _back_from_afk(s: State, e: ev.BackFromAfk) -> None:
    s.afk.acted(e.seat)


def _afk_changed(s: State, e: ev.AfkChanged) -> None:
    """An old stream's AFK mark (`events.RETIRED_EVENTS`): going AFK the ladder knows already
    from the event before it; coming back is the ladder's `acted`."""
    if e.afk:
        s.afk.afk[e.seat] = True
    else:
        s.afk.acted(e.seat)


def _table_event(s: State, e: ev.ControllerChanged | ev.PresenceChanged) -> None:
    if isinstance(e, ev.PresenceChanged):
        evolve_table(s.afk, e)
        return
    # Пузиполия's rule (as its streams hold it): a hand-over leaves the AFK mark as it is, so a bot
    # playing for an away player keeps the 2-s clocks until the seat acts (the ladder would clear it)
    afk, strikes = s.afk.afk[e.seat], s.afk.strikes[e.seat]
    evolve_table(s.afk, e)
    s.afk.afk[e.seat], s.afk.strikes[e.seat] = afk, strikes
    if not e.by_bot:
        s.player(e.seat).is_bot = False  # a bot's seat a person took over is a person's seat from now on


def _no_change(s: State, e: Any) -> None:
    """A journal fact with no effect on the state."""


def _game_ended(s: State, e: ev.GameEnded) -> None:
    s.phase = "over"
    s.end_reason = e.reason
    s.places = [list(p) for p in e.places]
    s.scores = dict(e.scores)
    s.auction = None
    s.vote = None
    s.offers = []


_HANDLERS: dict[type[Any], Callable[[State, Any], None]] = {
    ev.StreetDealt: _street_dealt,
    ev.OrderRolled: _order_rolled,
    ev.OrderDecided: _order_decided,
    ev.TurnStarted: _turn_started,
    ev.DiceRolled: _dice_rolled,
    ev.Moved: _moved,
    ev.SalaryPaid: _salary,
    ev.FindPaid: _find,
    ev.PhaseChanged: _phase_changed,
    ev.NoRent: _no_change,
    ev.SentToJail: _sent_to_jail,
    ev.JailRollFailed: _jail_roll_failed,
    ev.LeftJail: _left_jail,
    ev.PurchaseOffered: _purchase_offered,
    ev.LotBought: _lot_bought,
    ev.PurchaseDeclined: _purchase_declined,
    ev.AuctionOpened: _auction_opened,
    ev.BidPlaced: _bid_placed,
    ev.AuctionPassed: _auction_passed,
    ev.AuctionClosed: _auction_closed,
    ev.CardDrawn: _card_drawn,
    ev.CardDiceRolled: _no_change,
    ev.Choice67Made: _choice67,
    ev.MoneyTransferred: _money_transferred,
    ev.NothingHappened: _no_change,
    ev.DebtOpened: _debt_opened,
    ev.DebtPaid: _debt_paid,
    ev.AssetsLiquidated: _assets_liquidated,
    ev.PlayerEliminated: _eliminated,
    ev.BuildingBuilt: _built,
    ev.BuildingSold: _sold,
    ev.LotMortgaged: _mortgaged,
    ev.LotRedeemed: _redeemed,
    ev.OfferMade: _offer_made,
    ev.OfferAccepted: _offer_accepted,
    ev.OfferDeclined: _offer_declined,
    ev.OfferExpired: _offer_gone,
    ev.OfferWithdrawn: _offer_gone,
    ev.VoteOpened: _vote_opened,
    ev.VoteAnswered: _vote_answered,
    ev.VoteCancelled: _vote_over,
    ev.VoteFailed: _vote_over,
    ev.VotePassed: _vote_passed,
    ev.ClockExpired: _clock_expired,
    ev.BackFromAfk: _back_from_afk,
    ev.AfkChanged: _afk_changed,
    ev.PresenceChanged: _table_event,
    ev.ControllerChanged: _table_event,
    ev.GameEnded: _game_ended,
}


def evolve(state: State | None, event: Any) -> State:
    """Apply `event` to `state` in place and return it (a new state for GameStarted)."""
    if type(event) is ev.GameStarted:  # an isinstance that fails costs 0.3 µs an event (a struct's metaclass)
        created = _create(event)
        created.last_at_ms = event.at_ms
        return created
    if state is None:
        raise ValueError(f"{type(event).__name__} before GameStarted")
    _HANDLERS[type(event)](state, event)
    state.last_at_ms = event.at_ms
    return state
