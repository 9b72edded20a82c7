"""The King's stops: walking the track (Banks pay for passing), then the cell's effect.

Bank +600 (and +300 for each Bank passed); an unowned perimeter Company may be bought, an enemy
one fines the King; Инвестиции offers an upgrade; Арбитраж rolls the White die (1–2 pay 300,
3–4 nothing, 5–6 may buy an enemy Company); Субсидии pays 100 per own Company (at least 200);
Санкции takes as much. The Bank and the four special cells are «Магазины фигур». A lone enemy
King where the King stops may be attacked.
"""

from __future__ import annotations

from magnates import board, tables
from magnates import events as e
from magnates.flow import Flow
from magnates.rules.money import charge
from magnates.rules.worth import fine
from magnates.state import BANK, Stop


def king_arrives(flow: Flow, seat: int, steps: int) -> Stop | None:
    """Moves the King and resolves the stop; the stop's options (None if the player is out)."""
    start = flow.state.players[seat].king
    walk = board.track().advance(start, steps)
    flow.emit(e.KingMoved(seat, start, walk.end))
    for position in walk.passed:
        if position in (0, 9, 18, 27):
            flow.emit(e.Paid(BANK, seat, tables.BANK_PASS, "bank_pass", board.cell_of_position(position)))
    cell = board.cell_of_position(walk.end)
    square = board.square(cell)
    state = flow.state
    own = len(state.owned_by(seat))
    stop = Stop(cell, by_king=True, shop=square.is_shop, attack=True)
    if square.kind == "bank":
        flow.emit(e.Paid(BANK, seat, tables.BANK_STOP, "bank_stop", cell))
    elif square.kind == "company":
        owner = state.owner[cell]
        if owner == BANK:
            stop = Stop(cell, by_king=True, company=True, attack=True)
        elif owner != seat and not charge(flow, seat, owner, fine(state, cell), "fine", cell):
            return None
    elif square.kind == "investment":
        stop = Stop(cell, by_king=True, upgrade=True, shop=True, attack=True)
    elif square.kind == "arbitrage":
        value = flow.die()
        flow.emit(e.ArbitrageRolled(seat, value))
        if value <= 2 and not charge(flow, seat, BANK, tables.ARBITRAGE_PENALTY, "arbitrage", cell):
            return None
        stop = Stop(cell, by_king=True, arbitrage=value >= 5, shop=True, attack=True)
    elif square.kind == "subsidy":
        flow.emit(e.Paid(BANK, seat, max(tables.AT_LEAST, tables.PER_COMPANY * own), "subsidy", cell))
    elif square.kind == "sanction":
        amount = max(tables.AT_LEAST, tables.PER_COMPANY * own)
        if not charge(flow, seat, BANK, amount, "sanction", cell):
            return None
    return stop
