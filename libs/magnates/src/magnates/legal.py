"""The seat's legal moves as descriptors: per piece its end cells for the Blue value (a Choice),
the stop's purchase options, the pass."""

from __future__ import annotations

from magnates import commands as c
from magnates.rules import movement
from magnates.rules.options import arbitrage_cells, effective, office_choices, shop_pieces, upgrade_cells
from magnates.state import State
from tablehall_rules import Choice, LegalMove
from tablehall_rules.legal import move


def legal_moves(state: State, seat: int, now_ms: int) -> list[LegalMove]:
    if state.phase == "over" or seat != state.turn:
        return []
    phase = state.phase
    if phase == "roll":
        return [LegalMove(c.Roll())]
    if phase == "move":
        out = [
            move(c.MovePiece(piece=kind, to=ends[0]), to=Choice(ends))
            for kind, ends in movement.movable(state, seat).items()
        ]
        return [*out, LegalMove(c.PassMove())]
    if phase == "fine":
        return [LegalMove(c.PayFine()), LegalMove(c.Raid())]
    assert state.stop is not None
    stop = effective(state, seat, state.stop)
    moves: list[LegalMove] = []
    if stop.company:
        moves.append(LegalMove(c.BuyCompany()))
    if stop.upgrade:
        cells = upgrade_cells(state, seat)
        moves.append(move(c.Upgrade(cell=cells[0]), cell=Choice(cells)))
    if stop.arbitrage:
        cells = arbitrage_cells(state, seat)
        moves.append(move(c.ArbitrageBuy(cell=cells[0]), cell=Choice(cells)))
    if stop.shop:
        offices = office_choices(state, seat)
        for kind in shop_pieces(state, seat):
            moves.append(move(c.BuyPiece(piece=kind, office=offices[0]), office=Choice(offices)))
    if stop.attack:
        moves.append(LegalMove(c.AttackKing()))
    moves.append(LegalMove(c.EndStop()))
    return moves
