"""Chess moves of own dice (Шахматы): a die moves as the piece of its face.

1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king (`tablehall_boards` move generation on the
disk). Every occupied cell blocks a sliding piece; only the opponent's dice may be taken (not
its domino halves, not black dice, which are fixed for ever); an own die blocks. A pawn steps
one cell toward the opponent's half, takes one cell diagonally forward, and on the last cell of
its column becomes a 2, 3, 4 or 5. No castling. Domino halves and black dice never move.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dragons.board import FREE, NO_DOMINO, SIDES, other
from tablehall_boards import Kind, Move, MoveGenerator, Piece, Verdict, disk


@cache
def generator() -> MoveGenerator:
    return MoveGenerator(disk.grid(), {side: disk.pawn_rules(side) for side in SIDES})


class DiceBlocking:
    """Free cells are empty, the opponent's dice may be taken, everything else blocks."""

    __slots__ = ("_verdicts",)

    def __init__(self, owner: Sequence[int], domino: Sequence[int], side: int) -> None:
        enemy = other(side)
        self._verdicts = [
            Verdict.EMPTY if o == FREE else Verdict.CAPTURE if o == enemy and d == NO_DOMINO else Verdict.BLOCKED
            for o, d in zip(owner, domino, strict=True)
        ]

    def verdicts(self, piece: Piece) -> Sequence[Verdict]:
        return self._verdicts


def movable(owner: Sequence[int], domino: Sequence[int], side: int) -> list[int]:
    """Cells of the side's own dice (not domino halves): the pieces it may move."""
    return [c for c, (o, d) in enumerate(zip(owner, domino, strict=True)) if o == side and d == NO_DOMINO]


def moves_from(owner: Sequence[int], face: Sequence[int], domino: Sequence[int], side: int, origin: int) -> list[Move]:
    blocking = DiceBlocking(owner, domino, side)
    return generator().piece_moves(origin, Piece(Kind(face[origin]), side), blocking)


def all_moves(owner: Sequence[int], face: Sequence[int], domino: Sequence[int], side: int) -> list[Move]:
    blocking = DiceBlocking(owner, domino, side)
    g = generator()
    out: list[Move] = []
    for origin in movable(owner, domino, side):
        out.extend(g.piece_moves(origin, Piece(Kind(face[origin]), side), blocking))
    return out
