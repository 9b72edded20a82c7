"""The cross, the move generator and Гомункул's blocking policy; piece tables.

Blocking (what a piece of player p may do at a cell, `tablehall_boards.blocking.Verdict`):
own and allied pieces `BLOCKED`; enemy pieces `CAPTURE`; an own or allied domino half `PASS`
(a bridge: sliders go through, nobody stops on it); an enemy domino half a wall, `BLOCKED`,
unless the piece's strength is at least the half's number, then `CAPTURE` (piercing); every
other cell `EMPTY`, hidden mines included (passing a mine is harmless). Knights and kings only
look at their target, so a knight jumps walls.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from homunculus.state import State
from tablehall_boards import Kind, Move, MoveGenerator, Piece, Verdict, cross
from tablehall_boards.grid import Grid
from tablehall_rules import IllegalCommand, illegal


def no_such_move() -> IllegalCommand:
    return illegal("NO_SUCH_MOVE", "That piece cannot move there.", "Эта фигура не может так пойти.")


# piercing strength (Пробитие)
STRENGTH: dict[Kind, int] = {
    Kind.PAWN: 1,
    Kind.KNIGHT: 3,
    Kind.BISHOP: 3,
    Kind.KING: 4,
    Kind.ROOK: 5,
    Kind.QUEEN: 9,
}
# gold for taking a piece (За взятие платят)
CAPTURE_GOLD: dict[Kind, int] = {
    Kind.PAWN: 1,
    Kind.KNIGHT: 2,
    Kind.BISHOP: 2,
    Kind.ROOK: 3,
    Kind.QUEEN: 5,
    Kind.KING: 5,
}
START_GOLD = 30
DOMINO_HAND_LIMIT = 4
START_DOMINOES = 3
MINES_BY_PLAYERS = {2: 6, 3: 7, 4: 8}


def grid() -> Grid:
    return cross.grid()


@cache
def generator(arms: tuple[int, ...]) -> MoveGenerator:
    """The move generator for players playing `arms` (player p's pawns go as arm `arms[p]`'s)."""
    return MoveGenerator(cross.grid(), {p: cross.pawn_rules(arm) for p, arm in enumerate(arms)})


class HomunculusBlocking:
    """The blocking policy of one position (see the module docstring)."""

    __slots__ = ("_cache", "_halves", "_state")

    def __init__(self, state: State) -> None:
        self._state = state
        self._halves = [(cell, d.owner, d.pips_at(cell)) for d in state.dominoes for cell in d.cells]
        self._cache: dict[tuple[int, int], list[Verdict]] = {}

    def _base(self, player: int) -> list[Verdict]:
        """Pieces only: own and allied blocked, enemies taken, every other cell empty."""
        state = self._state
        friends = {p for p in range(state.players) if state.allied(player, p)}
        row = [Verdict.EMPTY] * len(cross.grid())
        for cell, piece in state.pieces.items():
            row[cell] = Verdict.BLOCKED if piece.side in friends else Verdict.CAPTURE
        return row

    def verdicts(self, piece: Piece) -> Sequence[Verdict]:
        strength = STRENGTH[piece.kind]
        key = (piece.side, strength)
        found = self._cache.get(key)
        if found is None:
            base = self._cache.get((piece.side, -1))
            if base is None:
                base = self._cache[(piece.side, -1)] = self._base(piece.side)
            found = list(base)
            friends = self._state.team_of(piece.side)  # `allied`, asked once
            for cell, owner, pips in self._halves:
                if owner == piece.side or owner in friends:
                    found[cell] = Verdict.PASS
                else:
                    found[cell] = Verdict.CAPTURE if strength >= pips else Verdict.BLOCKED
            self._cache[key] = found
        return found


def piece_moves(state: State, origin: int) -> list[Move]:
    piece = state.pieces[origin]
    return generator(tuple(state.arms)).piece_moves(origin, piece, HomunculusBlocking(state))


def targets_of(state: State, player: int) -> set[int]:
    """Every cell a move of `player`'s pieces reaches (the targets of `moves_of`, no moves built)."""
    blocking = HomunculusBlocking(state)
    gen = generator(tuple(state.arms))
    out: set[int] = set()
    for origin, piece in state.pieces.items():
        if piece.side == player:
            plain, promoting = gen.piece_targets(origin, piece, blocking.verdicts(piece))
            out.update(plain)
            out.update(promoting)
    return out


def moves_of(state: State, player: int, kind: Kind | None = None) -> list[Move]:
    """Every move of `player`'s pieces (of `kind` only, when given), in cell order."""
    blocking = HomunculusBlocking(state)
    gen = generator(tuple(state.arms))
    pieces = [(c, p) for c, p in sorted(state.pieces.items()) if p.side == player and (kind is None or p.kind == kind)]
    return gen.moves_of(pieces, blocking)


def find_move(state: State, player: int, origin: int, target: int, kind: Kind | None = None) -> Move | None:
    piece = state.pieces.get(origin)
    if piece is None or piece.side != player or (kind is not None and piece.kind != kind):
        return None
    for move in piece_moves(state, origin):
        if move.target == target:
            return move
    return None
