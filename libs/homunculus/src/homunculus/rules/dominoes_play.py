"""Placing a domino: two side-adjacent empty cells (no piece, no tile); on a mine it explodes.

The tile `low`-`high` from the hand goes `low` on `cells[0]`, `high` on `cells[1]`. If either
cell holds a mine (anyone's, hidden or not), the mine and the tile explode together. Otherwise,
when a half touches by side a half with the same number on any other tile (linking, «Сцепка»),
the turn continues (one more action, or end the turn).
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.board import grid
from homunculus.commands import PlaceDomino
from homunculus.flow import Flow
from homunculus.rules.turn import end_turn
from homunculus.state import CONTINUE, State
from tablehall_boards.dominoes import MAX_PIPS, tile
from tablehall_rules import illegal, invalid


def is_free(state: State, cell: int) -> bool:
    return cell not in state.pieces and state.domino_at(cell) is None


def free_cells(state: State) -> set[int]:
    """Every cell `is_free` holds for, at once (no piece, no tile)."""
    taken = set(state.pieces) | {x for d in state.dominoes for x in d.cells}
    return {cell for cell in range(len(grid())) if cell not in taken}


def check_place(state: State, player: int, cmd: PlaceDomino) -> None:
    if not 0 <= cmd.low <= cmd.high <= MAX_PIPS:
        raise invalid(
            "NO_SUCH_TILE", "A tile is low-high with 0 ≤ low ≤ high ≤ 6.", "Кость: 0 ≤ меньшее ≤ большее ≤ 6."
        )
    if tile(cmd.low, cmd.high) not in state.domino_hands[player]:
        raise illegal("TILE_NOT_IN_HAND", "You have no such tile.", "У вас нет такой кости.")
    g = grid()
    if len(cmd.cells) != 2 or not all(0 <= c < len(g) for c in cmd.cells):
        raise invalid("BAD_CELLS", "A tile takes two cells of the board.", "Кость занимает две клетки доски.")
    a, b = cmd.cells
    if b not in g.neighbours4(a):
        raise illegal("CELLS_NOT_ADJACENT", "The two cells must touch by a side.", "Клетки должны быть соседними.")
    if not (is_free(state, a) and is_free(state, b)):
        raise illegal("CELLS_NOT_EMPTY", "Both cells must be empty.", "Обе клетки должны быть пустыми.")


def links(state: State, domino_id: int) -> bool:
    """A half of the tile touches by side a half with the same number on another tile."""
    g = grid()
    placed = next(d for d in state.dominoes if d.id == domino_id)
    for cell in placed.cells:
        pips = placed.pips_at(cell)
        for n in g.neighbours4(cell):
            other = state.domino_at(n)
            if other is not None and other.id != domino_id and other.pips_at(n) == pips:
                return True
    return False


def place(flow: Flow, player: int, cmd: PlaceDomino) -> None:
    s = flow.state
    did = s.next_domino_id
    a, b = cmd.cells
    flow.emit(e.DominoPlaced(player, did, cmd.low, cmd.high, a, b))
    mined = [c for c in (a, b) if flow.state.mine_at(c) is not None]
    if mined:
        for c in mined:
            mine = flow.state.mine_at(c)
            assert mine is not None
            flow.emit(e.MineExploded(c, mine.owner))
        flow.emit(e.DominoRemoved(did, "mine"))
        end_turn(flow)
        return
    if links(flow.state, did):
        flow.emit(e.PhaseSet(CONTINUE, flow.now_ms))
        return
    end_turn(flow)
