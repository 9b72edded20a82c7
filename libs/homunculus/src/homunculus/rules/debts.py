"""Debts (долги): a payment the player cannot make is collected by the game itself.

In this order, until the debt is covered: buildings are demolished at half their cost (the lot
with the most buildings first, one level at a time; a hotel goes down to 4 houses when the
bank has them, else the whole lot's buildings go at once), then lots are mortgaged from the
cheapest to the dearest, then pieces are sold from the cheapest to the dearest (pawn 2,
knight/bishop 5, rook 8, queen 15; lowest cell first among equals). The king is never sold.
What is still missing is forgiven (прощается) and the game goes on for the player. The creditor
(a player, or the bank) gets what was paid.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.flow import Flow
from homunculus.ring.board import HOTEL, half_up, square, squares
from tablehall_boards import Kind

SALE_PRICE = {Kind.PAWN: 2, Kind.KNIGHT: 5, Kind.BISHOP: 5, Kind.ROOK: 8, Kind.QUEEN: 15}


def pay(flow: Flow, payer: int, amount: int, to: int | None, reason: str) -> int:
    """`payer` owes `amount` (to player `to`, or the bank): collect, pay, forgive the rest.
    The amount actually paid."""
    if amount <= 0:
        return 0
    if flow.state.gold[payer] < amount:
        collect(flow, payer, amount)
    paid = min(amount, max(0, flow.state.gold[payer]))
    if paid:
        flow.emit(e.GoldPaid(payer, -paid, reason))
        if to is not None:
            flow.emit(e.GoldPaid(to, paid, reason))
    if paid < amount:
        flow.emit(e.DebtForgiven(payer, amount - paid))
    return paid


def collect(flow: Flow, seat: int, amount: int) -> None:
    """Raise gold for a debt of `amount` in the written order, stopping once it is covered."""
    while flow.state.gold[seat] < amount and _demolish_one(flow, seat):
        pass
    for sq in mortgage_order(flow, seat):
        if flow.state.gold[seat] >= amount:
            return
        flow.emit(e.LotMortgaged(seat, sq, square(sq).mortgage))
    for cell, kind in sale_order(flow, seat):
        if flow.state.gold[seat] >= amount:
            return
        flow.emit(e.PieceSold(seat, cell, kind, SALE_PRICE[kind], "debt"))


def _demolish_one(flow: Flow, seat: int) -> bool:
    r = flow.state.ring
    built = [sq for sq in range(len(r.owners)) if r.owners[sq] == seat and r.buildings[sq] > 0]
    if not built:
        return False
    sq = max(built, key=lambda i: (r.buildings[i], -i))
    refund = half_up(square(sq).house_cost, 2)
    if r.buildings[sq] == HOTEL and r.houses_bank < HOTEL - 1:
        flow.emit(e.BuildingDemolished(seat, sq, HOTEL, refund * HOTEL))
    else:
        flow.emit(e.BuildingDemolished(seat, sq, 1, refund))
    return True


def mortgage_order(flow: Flow, seat: int) -> list[int]:
    """The player's unmortgaged lots, cheapest first (then by square)."""
    r = flow.state.ring
    lots = [sq.index for sq in squares() if r.owners[sq.index] == seat and not r.mortgaged[sq.index]]
    return sorted(lots, key=lambda i: (square(i).price, i))


def sale_order(flow: Flow, seat: int) -> list[tuple[int, Kind]]:
    """The player's pieces but the king, cheapest first (then by cell)."""
    own = [(cell, p.kind) for cell, p in flow.state.pieces.items() if p.side == seat and p.kind in SALE_PRICE]
    return sorted(own, key=lambda ck: (SALE_PRICE[ck[1]], ck[0]))
