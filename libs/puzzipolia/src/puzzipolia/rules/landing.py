"""What a square does when a token lands on it; a card square draws a card, and a card that
moves the token lands it again (the one recursion of the rules, kept in one module)."""

from __future__ import annotations

from puzzipolia.cards import card
from puzzipolia.events import (
    CardDiceRolled,
    CardDrawn,
    FindPaid,
    MoneyTransferred,
    NoRent,
    NothingHappened,
    PurchaseOffered,
    SentToJail,
)
from puzzipolia.flow import Flow
from puzzipolia.rules.debts import open_debt
from puzzipolia.rules.movement import move_back, move_to
from puzzipolia.rules.rent import rent_due


def land(f: Flow, seat: int, mode: str = "normal") -> None:
    """Resolve the square under the token. `mode` carries a card's rent rule."""
    st = f.state
    index = st.player(seat).position
    sq = st.geometry.squares[index]
    kind = sq.kind
    if kind == "go_to_jail":
        f.emit(SentToJail(seat=seat, reason="square"))
    elif kind == "tax":
        open_debt(f, seat, None, sq.amount, "tax", square=index)
    elif kind == "find":
        f.emit(FindPaid(seat=seat, square=index, amount=sq.amount))
    elif kind in ("chance", "chest"):
        draw_card(f, seat, kind)
    elif sq.is_ownable:
        _land_on_lot(f, seat, index, mode)


def _land_on_lot(f: Flow, seat: int, index: int, mode: str) -> None:
    st = f.state
    owner = st.owners[index]
    if owner < 0:
        f.emit(PurchaseOffered(seat=seat, square=index))
        return
    if owner == seat:
        return
    if st.mortgaged[index]:
        f.emit(NoRent(seat=seat, square=index, why="mortgaged"))
        return
    dice_total = sum(st.dice)
    if mode == "ten":
        dice = f.roll_dice()
        f.emit(CardDiceRolled(seat=seat, dice=dice))
        dice_total = sum(dice)
    open_debt(f, seat, owner, rent_due(st, index, dice_total, mode), "rent", square=index)


def draw_card(f: Flow, seat: int, deck: str) -> None:
    st = f.state
    card_id = st.decks[deck][0]
    f.emit(CardDrawn(seat=seat, deck=deck, card=card_id))
    k = card(card_id)
    geometry = st.geometry
    if k.kind == "advance":
        move_to(f, seat, geometry.by_key[k.target], "card")
        land(f, seat)
    elif k.kind == "nearest_transport":
        move_to(f, seat, geometry.nearest(st.player(seat).position, "transport"), "card")
        land(f, seat, "double")
    elif k.kind == "nearest_utility":
        move_to(f, seat, geometry.nearest(st.player(seat).position, "utility"), "card")
        land(f, seat, "ten")
    elif k.kind == "back":
        move_back(f, seat, k.steps)
        land(f, seat)
    elif k.kind == "jail":
        f.emit(SentToJail(seat=seat, reason="card"))
    elif k.kind == "money":
        f.emit(MoneyTransferred(payer=None, payee=seat, amount=k.amount, reason="card", card=card_id))
    elif k.kind == "fine":
        open_debt(f, seat, None, k.amount, "card", card=card_id)
    elif k.kind == "repairs":
        _repairs(f, seat, card_id, k.house, k.hotel)
    elif k.kind == "pay_each":
        others = [s for s in st.live_seats() if s != seat]
        for other in others:
            open_debt(f, seat, other, k.amount, "card", card=card_id)
        if not others:
            f.emit(NothingHappened(seat=seat, why="no_other_players"))
    elif k.kind == "collect_each":
        _collect_from_each(f, seat, card_id, k.amount)
    # "jail_free" is kept by the drawer (evolve); "sixty_seven" opens the choice (evolve)


def _repairs(f: Flow, seat: int, card_id: str, per_house: int, per_hotel: int) -> None:
    st = f.state
    total = 0
    for index in st.lots_of(seat):
        n = st.houses[index]
        total += per_hotel if n == 5 else n * per_house
    if total:
        open_debt(f, seat, None, total, "card", card=card_id)
    else:
        f.emit(NothingHappened(seat=seat, why="no_buildings"))


def _collect_from_each(f: Flow, seat: int, card_id: str, amount: int) -> None:
    """Every other player owes the drawer; at a big table all who can pay at once."""
    st = f.state
    others = [s for s in st.live_seats() if s != seat]
    if not others:
        f.emit(NothingHappened(seat=seat, why="no_other_players"))
    for other in others:
        if st.is_big_table and st.player(other).money >= amount:
            f.emit(MoneyTransferred(payer=other, payee=seat, amount=amount, reason="card", card=card_id))
        else:
            open_debt(f, other, seat, amount, "card", card=card_id)
