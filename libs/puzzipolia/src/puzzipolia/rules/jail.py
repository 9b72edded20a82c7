"""Jail: leaving by the fine before the roll, by a card, or by doubles;
after three failed tries the fine is owed and the token moves."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.board import JAIL_FINE
from puzzipolia.events import DiceRolled, JailRollFailed, LeftJail, PhaseChanged
from puzzipolia.flow import Flow
from puzzipolia.rules.debts import open_debt
from puzzipolia.rules.guards import require_active, require_money, require_no_debts
from puzzipolia.rules.landing import land
from puzzipolia.rules.movement import move_by
from tablehall_rules import illegal

MAX_JAIL_TRIES = 3


def _require_in_jail(f: Flow, seat: int) -> None:
    require_active(f.state, seat, "roll")
    require_no_debts(f.state)
    if not f.state.player(seat).in_jail:
        raise illegal("NOT_IN_JAIL", "You are not in jail.", "Ты не в тюрьме.")


def pay_jail_fine(f: Flow, cmd: c.PayJailFine, seat: int) -> None:
    _require_in_jail(f, seat)
    require_money(f.state, seat, JAIL_FINE)
    f.emit(LeftJail(seat=seat, how="fine", fine=JAIL_FINE))


def use_jail_card(f: Flow, cmd: c.UseJailCard, seat: int) -> None:
    _require_in_jail(f, seat)
    cards = f.state.player(seat).jail_cards
    if not cards:
        raise illegal("NO_JAIL_CARD", "You hold no get-out-of-jail card.", "У тебя нет карточки выхода из тюрьмы.")
    f.emit(LeftJail(seat=seat, how="card", card=cards[0]))


def roll_in_jail(f: Flow, seat: int, dice: list[int]) -> None:
    f.emit(DiceRolled(seat=seat, dice=dice))
    total = dice[0] + dice[1]
    if dice[0] == dice[1]:
        f.emit(LeftJail(seat=seat, how="doubles"))
    else:
        tries = f.state.player(seat).jail_tries + 1
        f.emit(JailRollFailed(seat=seat, tries=tries))
        if tries < MAX_JAIL_TRIES:
            f.emit(PhaseChanged(seat=seat, phase="end"))
            return
        f.emit(LeftJail(seat=seat, how="three_tries"))
        open_debt(f, seat, None, JAIL_FINE, "jail_fine")
    move_by(f, seat, total, "roll")
    land(f, seat)
