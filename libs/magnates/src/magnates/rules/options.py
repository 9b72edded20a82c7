"""What a stop still offers the player now: the rule's flags, narrowed to what its cash allows."""

from __future__ import annotations

from magnates import board, tables
from magnates.rules.movement import lone_enemy_king
from magnates.rules.worth import company_value
from magnates.state import BANK, State, Stop


def upgrade_cells(state: State, seat: int) -> list[int]:
    cash = state.players[seat].cash
    return [c for c in state.owned_by(seat) if state.level[c] < tables.MAX_LEVEL and board.upgrade_cost(c) <= cash]


def arbitrage_cells(state: State, seat: int) -> list[int]:
    cash = state.players[seat].cash
    return [c for c in board.company_cells() if state.owner[c] not in (BANK, seat) and company_value(state, c) <= cash]


def lost_pieces(state: State, seat: int) -> list[str]:
    player = state.players[seat]
    return [k for k in tables.PIECES if k not in player.pieces]


def shop_pieces(state: State, seat: int) -> list[str]:
    cash = state.players[seat].cash
    return [k for k in lost_pieces(state, seat) if tables.PIECE_PRICE[k] <= cash]


def office_choices(state: State, seat: int) -> list[int]:
    """Free own Offices; when none is free, every own Office (its occupant leaves the board)."""
    offices = list(board.offices(state.players[seat].corner))
    free = [c for c in offices if state.piece_at(c) is None]
    return free or offices


def can_buy_here(state: State, seat: int, stop: Stop) -> bool:
    return state.owner[stop.cell] == BANK and board.square(stop.cell).price <= state.players[seat].cash


def effective(state: State, seat: int, stop: Stop) -> Stop:
    """The stop with only the options the player can take now."""
    return Stop(
        cell=stop.cell,
        by_king=stop.by_king,
        company=stop.company and can_buy_here(state, seat, stop),
        upgrade=stop.upgrade and bool(upgrade_cells(state, seat)),
        arbitrage=stop.arbitrage and bool(arbitrage_cells(state, seat)),
        shop=stop.shop and bool(shop_pieces(state, seat)),
        attack=stop.attack and lone_enemy_king(state, seat, stop.cell) is not None,
    )
