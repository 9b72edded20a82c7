"""Mortgages: half the price when the set has no buildings; redeemed at half plus 10 %."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.events import LotMortgaged, LotRedeemed
from puzzipolia.flow import Flow
from puzzipolia.rules.guards import require_money, require_no_auction, require_no_own_debts, require_own_lot
from puzzipolia.state import State
from tablehall_rules import illegal


def mortgage_problem(st: State, index: int) -> tuple[str, str, str] | None:
    if st.mortgaged[index]:
        return ("ALREADY_MORTGAGED", "This lot is already mortgaged.", "Участок уже заложен.")
    if any(st.houses[g] for g in st.geometry.group_of(index)):
        return (
            "SET_HAS_BUILDINGS",
            "Sell the buildings of this set first.",
            "Сначала продай постройки набора.",
        )
    return None


def mortgage(f: Flow, cmd: c.Mortgage, seat: int) -> None:
    st = f.state
    require_own_lot(st, seat, cmd.square)
    problem = mortgage_problem(st, cmd.square)
    if problem:
        raise illegal(*problem)
    f.emit(LotMortgaged(seat=seat, square=cmd.square, amount=st.geometry.squares[cmd.square].mortgage_value))


def unmortgage(f: Flow, cmd: c.Unmortgage, seat: int) -> None:
    st = f.state
    require_own_lot(st, seat, cmd.square)
    require_no_auction(st)
    require_no_own_debts(st, seat)
    if not st.mortgaged[cmd.square]:
        raise illegal("NOT_MORTGAGED", "This lot is not mortgaged.", "Участок не заложен.")
    cost = st.geometry.squares[cmd.square].redeem_cost
    require_money(st, seat, cost)
    f.emit(LotRedeemed(seat=seat, square=cmd.square, amount=cost))
