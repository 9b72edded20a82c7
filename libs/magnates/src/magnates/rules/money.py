"""Money: payments that may force a debt liquidation (what things are worth: `rules.worth`).

A payment the player cannot make from cash sells, in this order, until the cash covers it:
upgrades at half their cost (cheapest first, one level at a time), Companies to the bank at half
price (cheapest first), pieces at half price (cheapest first; never the King). Still short, the
player pays what it has and is eliminated (its Companies return to the bank).
"""

from __future__ import annotations

from magnates import board, tables
from magnates import events as e
from magnates.flow import Flow
from magnates.rules.elimination import eliminate
from magnates.state import BANK


def charge(flow: Flow, payer: int, payee: int, amount: int, reason: str, cell: int = -1) -> bool:
    """A payment the player must make; False when it could not and is out."""
    if amount <= 0:
        return True
    liquidate(flow, payer, amount)
    cash = flow.state.players[payer].cash
    if cash >= amount:
        flow.emit(e.Paid(payer, payee, amount, reason, cell))
        return True
    if cash > 0:
        flow.emit(e.Paid(payer, payee, cash, reason, cell))
    eliminate(flow, payer, "debt")
    return False


def liquidate(flow: Flow, seat: int, amount: int) -> None:
    """Sell until the cash covers `amount` or nothing is left to sell."""

    def short() -> bool:
        return flow.state.players[seat].cash < amount

    while short():
        upgraded = [c for c in flow.state.owned_by(seat) if flow.state.level[c] > 0]
        if not upgraded:
            break
        cell = min(upgraded, key=lambda c: (board.upgrade_cost(c), c))
        level = flow.state.level[cell] - 1
        flow.emit(e.CompanyChanged(cell, seat, level, "upgrade_sold"))
        flow.emit(e.Paid(BANK, seat, board.upgrade_cost(cell) // 2, "debt", cell))
    while short():
        owned = flow.state.owned_by(seat)
        if not owned:
            break
        cell = min(owned, key=lambda c: (board.square(c).price, c))
        flow.emit(e.CompanyChanged(cell, BANK, 0, "sold"))
        flow.emit(e.Paid(BANK, seat, board.square(cell).price // 2, "debt", cell))
    while short():
        pieces = flow.state.players[seat].pieces
        kind = next((k for k in tables.SELL_ORDER if k in pieces), None)
        if kind is None:
            break
        flow.emit(e.PieceLost(seat, kind, "sold"))
        flow.emit(e.Paid(BANK, seat, tables.PIECE_PRICE[kind] // 2, "debt"))
