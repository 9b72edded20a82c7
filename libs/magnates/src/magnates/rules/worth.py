"""What things are worth: fines, Company values, a player's net worth (pure reads of the state,
used by payments, by the end and by the view)."""

from __future__ import annotations

from magnates import board, tables
from magnates.state import BANK, State


def is_full_group(state: State, cell: int) -> bool:
    group = board.square(cell).group
    owner = state.owner[cell]
    return owner != BANK and all(state.owner[c] == owner for c in board.group_cells(group))


def fine(state: State, cell: int) -> int:
    """20 % of the price, ×2 for a whole sector/quarter/Сити, ×2.5/×5/×7.5 at levels 1/2/3
    (rounded to the nearest whole, halves up)."""
    price = board.square(cell).price
    group = 2 if is_full_group(state, cell) else 1
    tenths = tables.LEVEL_FACTOR_TENTHS[state.level[cell]]
    scaled = price * tables.FINE_PERCENT * group * tenths  # in 1/1000 of the money unit
    return (scaled + 500) // 1000


def company_value(state: State, cell: int) -> int:
    """The price plus the upgrades paid into it."""
    return board.square(cell).price + state.level[cell] * board.upgrade_cost(cell)


def net_worth(state: State, seat: int) -> int:
    """Cash + Companies' prices + their upgrades + the prices of the pieces on the board."""
    player = state.players[seat]
    if not player.alive:
        return 0
    companies = sum(company_value(state, c) for c in state.owned_by(seat))
    pieces = sum(tables.PIECE_PRICE[k] for k in player.pieces)
    return player.cash + companies + pieces
