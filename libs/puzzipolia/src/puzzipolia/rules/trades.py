"""Trades: lots, money and cards between two players, any time but an auction.

Limits: both sides give something; no lot from a set with buildings; an offer
lives 1 minute; one open offer per proposer; 5 offers per round per proposer;
at most three unanswered offers to one person; 30 s for a pair after a refusal.
"""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.events import OfferAccepted, OfferDeclined, OfferExpired, OfferMade, OfferWithdrawn
from puzzipolia.flow import Flow
from puzzipolia.rules.guards import require_no_auction
from puzzipolia.state import Bundle, Offer, State, pair_key
from tablehall_rules import illegal, invalid

OFFER_LIFE_MS = 60_000
OFFERS_PER_ROUND = 5
UNANSWERED_PER_RECIPIENT = 3

Problem = tuple[str, str, str]


def bundle_problem(st: State, seat: int, bundle: Bundle) -> Problem | None:
    """Whether `seat` can hand over `bundle` now."""
    if bundle.money < 0:
        return (
            "BAD_AMOUNT",
            "Money in a trade cannot be negative.",
            "Сумма в обмене не может быть отрицательной.",
        )
    if len(set(bundle.lots)) != len(bundle.lots):
        return ("DUPLICATE_LOT", "A lot is named twice.", "Участок указан дважды.")
    geometry = st.geometry
    for index in bundle.lots:
        if not 0 <= index < geometry.size or st.owners[index] != seat:
            return (
                "LOT_NOT_OWNED",
                "A lot in the offer is not owned by its giver.",
                "Участок в обмене не принадлежит отдающему.",
            )
        if any(st.houses[g] for g in geometry.group_of(index)):
            return (
                "SET_HAS_BUILDINGS",
                "A lot from a set with buildings cannot be traded.",
                "Участок из набора с домами не меняется.",
            )
    held = list(st.player(seat).jail_cards)
    for cid in bundle.cards:
        if cid not in held:
            return (
                "CARD_NOT_HELD",
                "A card in the offer is not held by its giver.",
                "Карточки в обмене нет у отдающего.",
            )
        held.remove(cid)
    if st.player(seat).money < bundle.money:
        return (
            "NOT_ENOUGH_MONEY",
            "The giver lacks the money of the offer.",
            "У отдающего не хватает денег на обмен.",
        )
    return None


def propose_problem(st: State, seat: int, to_seat: int, now_ms: int) -> Problem | None:
    """Whether `seat` may open an offer to `to_seat` now (limits only, not contents)."""
    if st.auction is not None:
        return ("AUCTION_RUNNING", "No trades during an auction.", "Во время аукциона обмены запрещены.")
    if to_seat == seat or not st.has_seat(to_seat) or not st.player(to_seat).is_playing:
        return (
            "BAD_PARTNER",
            "Trade with another player still in the game.",
            "Меняться можно с другим игроком в игре.",
        )
    if any(o.proposer == seat for o in st.offers):
        return ("ONE_OPEN_OFFER", "You already have an open offer.", "У тебя уже есть открытое предложение.")
    p = st.player(seat)
    if p.offers_round == st.round and p.offers_made >= OFFERS_PER_ROUND:
        return ("ROUND_OFFER_LIMIT", "Five offers per round at most.", "Не больше пяти предложений за круг.")
    if sum(1 for o in st.offers if o.recipient == to_seat) >= UNANSWERED_PER_RECIPIENT:
        return (
            "RECIPIENT_BUSY",
            "That player has three unanswered offers.",
            "У этого игрока три предложения без ответа.",
        )
    if now_ms < st.pair_waits.get(pair_key(seat, to_seat), 0):
        return ("PAIR_WAIT", "Wait 30 s after a refusal.", "После отказа эта пара ждёт 30 с.")
    return None


def propose_trade(f: Flow, cmd: c.ProposeTrade, seat: int) -> None:
    st = f.state
    if not st.has_seat(cmd.to_seat):
        raise invalid("NO_SUCH_SEAT", "There is no such seat.", "Такого места нет.")
    problem = propose_problem(st, seat, cmd.to_seat, f.now_ms)
    if problem:
        raise illegal(*problem)
    if cmd.give.is_empty or cmd.get.is_empty:
        raise illegal("ONE_SIDED_TRADE", "Both sides must give something.", "Отдавать что-то должны обе стороны.")
    problem = bundle_problem(st, seat, cmd.give) or _receivable_problem(st, cmd.to_seat, cmd.get)
    if problem:
        raise illegal(*problem)
    f.emit(OfferMade(offer_id=st.next_offer_id, proposer=seat, recipient=cmd.to_seat, give=cmd.give, get=cmd.get))


def _receivable_problem(st: State, seat: int, bundle: Bundle) -> Problem | None:
    """The recipient's side is checked except for money, which must be there on acceptance."""
    return bundle_problem(st, seat, Bundle(lots=bundle.lots, money=0, cards=bundle.cards)) or (
        ("BAD_AMOUNT", "Money in a trade cannot be negative.", "Сумма в обмене не может быть отрицательной.")
        if bundle.money < 0
        else None
    )


def _offer(st: State, offer_id: int, seat: int) -> Offer:
    """The open offer with this id that `seat` is a party to: to anybody else an
    offer between two others does not exist (its existence is private)."""
    for o in st.offers:
        if o.id == offer_id and seat in (o.proposer, o.recipient):
            return o
    raise illegal("NO_SUCH_OFFER", "There is no such open offer.", "Такого открытого предложения нет.")


def _offer_to(st: State, offer_id: int, seat: int) -> Offer:
    o = _offer(st, offer_id, seat)
    if o.recipient != seat:
        raise illegal("NOT_YOUR_OFFER", "This offer is not addressed to you.", "Это предложение не тебе.")
    return o


def accept_trade(f: Flow, cmd: c.AcceptTrade, seat: int) -> None:
    st = f.state
    require_no_auction(st)
    o = _offer_to(st, cmd.offer_id, seat)
    problem = bundle_problem(st, o.proposer, o.give) or bundle_problem(st, seat, o.get)
    if problem:
        raise illegal("OFFER_STALE", f"The offer no longer holds: {problem[1]}", f"Предложение устарело: {problem[2]}")
    f.emit(OfferAccepted(offer_id=o.id))


def decline_trade(f: Flow, cmd: c.DeclineTrade, seat: int, *, expired: bool = False) -> None:
    o = _offer_to(f.state, cmd.offer_id, seat)
    f.emit(OfferExpired(offer_id=o.id) if expired else OfferDeclined(offer_id=o.id))


def withdraw_trade(f: Flow, cmd: c.WithdrawTrade, seat: int) -> None:
    o = _offer(f.state, cmd.offer_id, seat)
    if o.proposer != seat:
        raise illegal(
            "NOT_YOUR_OFFER",
            "Only its proposer withdraws an offer.",
            "Отозвать предложение может только автор.",
        )
    f.emit(OfferWithdrawn(offer_id=o.id))
