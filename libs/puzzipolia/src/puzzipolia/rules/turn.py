"""The turn: the order roll, rolling and moving, doubles, ending the turn, rounds."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.events import DiceRolled, OrderDecided, OrderRolled, PhaseChanged, SentToJail, TurnStarted
from puzzipolia.flow import Flow
from puzzipolia.rules.end import end_game
from puzzipolia.rules.guards import require_active, require_no_debts
from puzzipolia.rules.jail import roll_in_jail
from puzzipolia.rules.landing import land
from puzzipolia.rules.movement import move_by
from puzzipolia.state import State
from tablehall_rules import illegal

DOUBLES_TO_JAIL = 3
WAITING_PHASES = frozenset({"buy", "auction", "card67", "over"})


def seats_to_roll_for_order(st: State) -> list[int]:
    if st.phase != "order":
        return []
    return [seat for g in st.order_groups if len(g) > 1 for seat in g if seat not in st.order_rolls]


def roll_for_order(f: Flow, cmd: c.RollForOrder, seat: int) -> None:
    if seat not in seats_to_roll_for_order(f.state):
        raise illegal("NO_ORDER_ROLL", "You have no order roll to make.", "Тебе не нужно бросать за очерёдность.")
    f.emit(OrderRolled(seat=seat, dice=f.roll_dice()))


def roll_order_for_all(f: Flow) -> None:
    """Big tables: the order is rolled for everybody at once, ties re-rolled among themselves."""
    while waiting := seats_to_roll_for_order(f.state):
        for seat in waiting:
            f.emit(OrderRolled(seat=seat, dice=f.roll_dice()))


def finish_order_if_decided(f: Flow) -> None:
    st = f.state
    if st.phase == "order" and all(len(g) == 1 for g in st.order_groups):
        order = [g[0] for g in st.order_groups]
        f.emit(OrderDecided(order=order))
        f.emit(TurnStarted(seat=order[0], round=1))


def roll(f: Flow, cmd: c.Roll, seat: int) -> None:
    st = f.state
    require_active(st, seat, "roll")
    require_no_debts(st)
    dice = f.roll_dice()
    if st.player(seat).in_jail:
        roll_in_jail(f, seat, dice)
    else:
        f.emit(DiceRolled(seat=seat, dice=dice))
        if f.state.doubles == DOUBLES_TO_JAIL:
            f.emit(SentToJail(seat=seat, reason="three_doubles"))
            return
        move_by(f, seat, dice[0] + dice[1], "roll")
        land(f, seat)
    continue_turn(f)


def continue_turn(f: Flow) -> None:
    """After a move settles: roll again after doubles, otherwise wait for the end of the turn."""
    st = f.state
    if st.phase in WAITING_PHASES or st.phase == "end" or not st.player(st.active).is_playing:
        return
    again = st.roll_again and not st.player(st.active).in_jail
    f.emit(PhaseChanged(seat=st.active, phase="roll" if again else "end"))


def end_turn(f: Flow, cmd: c.EndTurn, seat: int) -> None:
    require_active(f.state, seat, "end")
    require_no_debts(f.state)
    advance_turn(f)


def advance_turn(f: Flow) -> None:
    """The next live seat in order; passing the end of the order starts a new round."""
    st = f.state
    order = st.order
    at = order.index(st.active)
    for step in range(1, len(order) + 1):
        seat = order[(at + step) % len(order)]
        if st.player(seat).is_playing:
            new_round = st.round + (1 if at + step >= len(order) else 0)
            if st.round_limit and new_round > st.round_limit:
                end_game(f, "round_limit")
            else:
                f.emit(TurnStarted(seat=seat, round=new_round))
            return
