"""Chance and Community Chest: draw the top card and carry out what it says."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.cards import card
from puzzipolia.errors import invalid
from puzzipolia.events import CardDrawn, Choice67Made, MoneyTransferred, NothingHappened, SentToJail
from puzzipolia.flow import Flow
from puzzipolia.rules.debts import open_debt
from puzzipolia.rules.guards import require_active
from puzzipolia.rules.movement import land, move_back, move_by, move_to
from puzzipolia.rules.turn import continue_turn

SIXTY_SEVEN_CHOICES = (6, 7)


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


def choose_67(f: Flow, cmd: c.Choose67, seat: int) -> None:
    require_active(f.state, seat, "card67")
    if cmd.steps not in SIXTY_SEVEN_CHOICES:
        raise invalid("BAD_CHOICE", "67! moves 6 or 7 squares.", "67! — это 6 или 7 полей.")
    f.emit(Choice67Made(seat=seat, steps=cmd.steps))
    move_by(f, seat, cmd.steps, "choice")
    land(f, seat)
    continue_turn(f)
