"""Houses and hotels: a whole set, nothing mortgaged in it, built and sold evenly.
The fifth building on a street is a hotel; the bank never runs out."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.events import BuildingBuilt, BuildingSold
from puzzipolia.flow import Flow
from puzzipolia.rules.guards import require_money, require_no_auction, require_no_own_debts, require_own_lot
from puzzipolia.state import State
from tablehall_rules import illegal

HOTEL = 5


def build_problem(st: State, seat: int, index: int) -> tuple[str, str, str] | None:
    """Why `seat` cannot build on `index` now (reason, en, ru), or None."""
    sq = st.geometry.squares[index]
    if sq.kind != "street":
        return ("NOT_A_STREET", "Only streets take buildings.", "Строить можно только на улицах.")
    group = st.geometry.groups[sq.group]
    if any(st.owners[g] != seat for g in group):
        return ("SET_INCOMPLETE", "You need the whole colour set.", "Нужен весь цветной набор.")
    if any(st.mortgaged[g] for g in group):
        return ("SET_MORTGAGED", "A lot of this set is mortgaged.", "В наборе есть заложенный участок.")
    if st.houses[index] >= HOTEL:
        return ("HOTEL_BUILT", "This street already has a hotel.", "На этой улице уже отель.")
    if st.houses[index] > min(st.houses[g] for g in group):
        return ("BUILD_EVENLY", "Build evenly across the set.", "Строй ровно по всему набору.")
    return None


def sell_problem(st: State, index: int) -> tuple[str, str, str] | None:
    sq = st.geometry.squares[index]
    if st.houses[index] == 0:
        return ("NO_BUILDING", "There is nothing to sell here.", "Здесь нечего продавать.")
    if st.houses[index] < max(st.houses[g] for g in st.geometry.groups[sq.group]):
        return ("SELL_EVENLY", "Sell evenly across the set.", "Продавай ровно по всему набору.")
    return None


def build(f: Flow, cmd: c.Build, seat: int) -> None:
    st = f.state
    require_own_lot(st, seat, cmd.square)
    require_no_auction(st)
    require_no_own_debts(st, seat)
    problem = build_problem(st, seat, cmd.square)
    if problem:
        raise illegal(*problem)
    cost = st.geometry.squares[cmd.square].house_cost
    require_money(st, seat, cost)
    f.emit(BuildingBuilt(seat=seat, square=cmd.square, cost=cost))


def sell_building(f: Flow, cmd: c.SellBuilding, seat: int) -> None:
    st = f.state
    require_own_lot(st, seat, cmd.square)
    problem = sell_problem(st, cmd.square)
    if problem:
        raise illegal(*problem)
    refund = st.geometry.squares[cmd.square].house_cost // 2
    f.emit(BuildingSold(seat=seat, square=cmd.square, refund=refund))
