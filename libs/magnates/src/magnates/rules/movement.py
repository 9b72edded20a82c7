"""Where a piece may end its move by the Blue value.

Queen (8 lines), Rook (4 orthogonal), Bishop (4 diagonal): exactly the Blue value along a line,
bouncing off the 10×10 edge (`tablehall_boards.billiard`); every passed cell must be empty (the
mover's own start counts as empty); the end may be an empty field cell or an enemy piece (a
duel), or a perimeter cell only where a lone enemy King stands (a duel). Knight: one L-jump on an
odd value, two on an even one, the middle landing anywhere (`tablehall_boards.jumps`). A move
that ends on its start is no move.
"""

from __future__ import annotations

from magnates import board
from magnates.state import State
from tablehall_boards.billiard import billiard_ends
from tablehall_boards.grid import Direction
from tablehall_boards.jumps import knight_double_targets, knight_jumps

ORTHOGONAL: tuple[Direction, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL: tuple[Direction, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
LINES: dict[str, tuple[Direction, ...]] = {
    "queen": ORTHOGONAL + DIAGONAL,
    "rook": ORTHOGONAL,
    "bishop": DIAGONAL,
}


def occupied(state: State) -> set[int]:
    """Cells with any piece or King on them."""
    cells = {c for p in state.players for c in p.pieces.values()}
    cells |= {board.cell_of_position(p.king) for p in state.players if p.alive and p.king >= 0}
    return cells


def lone_enemy_king(state: State, seat: int, cell: int) -> int | None:
    """The lone enemy King on `cell` a piece of `seat` may attack (the first after `seat` in turn
    order when two stand there), or None."""
    n = len(state.players)
    kings = state.kings_at(cell)
    for step in range(1, n):
        other = (seat + step) % n
        if other in kings and state.is_lone(other):
            return other
    return None


class _Board:
    """What one seat's moves are judged against, read once from a state: who stands where."""

    __slots__ = ("full", "owners", "seat", "state")

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.full = occupied(state)
        # the owner of the non-king piece on each occupied field cell
        self.owners = {cell: p.seat for p in state.players for cell in p.pieces.values()}

    def may_end(self, start: int, cell: int) -> bool:
        if cell == start:
            return False
        if board.is_perimeter(cell):
            return lone_enemy_king(self.state, self.seat, cell) is not None
        owner = self.owners.get(cell)
        return owner is None or owner != self.seat

    def raw_ends(self, kind: str, start: int, blue: int) -> list[int]:
        """Geometric ends: lines whose passed cells are empty (the mover's start counts as
        empty); knight jumps (the middle landing anywhere)."""
        if kind == "knight":
            if blue % 2:
                return sorted(set(knight_jumps(board.grid(), start)))
            return sorted(knight_double_targets(board.grid(), start))
        full = self.full
        ends = billiard_ends(board.grid(), start, LINES[kind], blue, lambda c: c == start or c not in full)
        return sorted(set(ends.values()))

    def ends(self, kind: str) -> list[int]:
        start = self.state.players[self.seat].pieces.get(kind)
        blue = self.state.blue
        if start is None or blue < 1:
            return []
        return [c for c in self.raw_ends(kind, start, blue) if self.may_end(start, c)]


def piece_ends(state: State, seat: int, kind: str) -> list[int]:
    return _Board(state, seat).ends(kind)


def movable(state: State, seat: int) -> dict[str, list[int]]:
    """Per piece on the board, its end cells (pieces without any are left out)."""
    judged = _Board(state, seat)
    out: dict[str, list[int]] = {}
    for kind in state.players[seat].pieces:
        ends = judged.ends(kind)
        if ends:
            out[kind] = ends
    return out
