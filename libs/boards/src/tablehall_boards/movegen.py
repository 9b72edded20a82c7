"""Chess move generation, once, for any grid, piece set and blocking policy.

`MoveGenerator(grid, pawns)` precomputes, per cell, the rays of every slider, the targets of
every leaper and the pawn steps of every side; `moves(placement, side, blocking)` then lists the
pseudo-legal moves of one side. There is no castling, no en passant and no check: in these games
a king is taken like any piece, so pseudo-legal moves are the moves.

The piece set is data (`Movement` per `Kind`): `STANDARD_PIECES` moves as in chess. A game with
another set passes its own table (a kind missing from the table does not move).

What a piece may do at each cell comes from the `Blocking` policy (see `blocking`): sliders walk
each ray, stopping at `EMPTY` cells and going on, stopping on `CAPTURE` cells and ending there,
going on through `PASS` cells without stopping, and ending before `BLOCKED` cells. Leapers may
land on `EMPTY` and `CAPTURE` cells. Pawns follow their side's `PawnRules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from tablehall_boards.blocking import Blocking, Verdict
from tablehall_boards.grid import DIAGONAL, KING_STEPS, KNIGHT_JUMPS, ORTHOGONAL, Cell, Direction, Grid
from tablehall_boards.pawns import PawnRules
from tablehall_boards.pieces import Kind, Piece

_EMPTY = Verdict.EMPTY
_CAPTURE = Verdict.CAPTURE
_PASS = Verdict.PASS


class Move(msgspec.Struct, frozen=True, array_like=True):
    """A move of the piece on `origin` to `target`; `capture` when it takes there."""

    origin: Cell
    target: Cell
    capture: bool = False
    promotion: Kind | None = None


class Movement(msgspec.Struct, frozen=True):
    """How a kind moves: any distance along `slides`, one jump of `leaps`, or as a pawn."""

    slides: tuple[Direction, ...] = ()
    leaps: tuple[Direction, ...] = ()
    pawn: bool = False


STANDARD_PIECES: Mapping[Kind, Movement] = {
    Kind.PAWN: Movement(pawn=True),
    Kind.KNIGHT: Movement(leaps=KNIGHT_JUMPS),
    Kind.BISHOP: Movement(slides=DIAGONAL),
    Kind.ROOK: Movement(slides=ORTHOGONAL),
    Kind.QUEEN: Movement(slides=ORTHOGONAL + DIAGONAL),
    Kind.KING: Movement(leaps=KING_STEPS),
}


class _PawnTable:
    """One side's pawn targets per cell: (forward, double step or None, capture targets, promotes)."""

    __slots__ = ("promotions", "steps")

    def __init__(self, grid: Grid, rules: PawnRules) -> None:
        forward = grid.steps(rules.forward)
        left, right = (grid.steps(d) for d in rules.capture_directions)
        steps: list[tuple[Cell | None, Cell | None, tuple[Cell, ...]]] = []
        for cell in grid:
            one = forward[cell]
            two = forward[one] if one is not None and cell in rules.double_step_from else None
            takes = tuple(t for t in (left[cell], right[cell]) if t is not None)
            steps.append((one, two, takes))
        self.steps = steps
        self.promotions: list[tuple[Kind, ...]] = [
            rules.promotions if cell in rules.promotion_cells else () for cell in grid
        ]


class MoveGenerator:
    """Pseudo-legal chess moves on `grid`; build one per (grid, rules) and reuse it."""

    def __init__(
        self,
        grid: Grid,
        pawns: Mapping[int, PawnRules],
        pieces: Mapping[Kind, Movement] = STANDARD_PIECES,
    ) -> None:
        self.grid = grid
        self.pieces = dict(pieces)
        self._slides: dict[Kind, list[tuple[tuple[Cell, ...], ...]]] = {}
        self._leaps: dict[Kind, tuple[tuple[Cell, ...], ...]] = {}
        for kind, movement in self.pieces.items():
            if movement.slides:
                tables = [grid.rays(d) for d in movement.slides]
                self._slides[kind] = [tuple(t[cell] for t in tables if t[cell]) for cell in grid]
            if movement.leaps:
                self._leaps[kind] = grid.leaps(movement.leaps)
        self._pawns = {side: _PawnTable(grid, rules) for side, rules in pawns.items()}

    def piece_moves(self, origin: Cell, piece: Piece, blocking: Blocking) -> list[Move]:
        """The moves of `piece` standing on `origin`."""
        out: list[Move] = []
        self._add(out, origin, piece, blocking.verdicts(piece))
        return out

    def piece_targets(self, origin: Cell, piece: Piece, verdict: Sequence[int]) -> tuple[list[Cell], list[Cell]]:
        """Where `piece` on `origin` may go, as `piece_moves` finds it but without building the
        moves: (the targets reached without promoting, those where it promotes), each in
        generation order; `verdict` per cell as `Blocking.verdicts` gives it."""
        kind = piece.kind
        movement = self.pieces.get(kind)
        plain: list[Cell] = []
        if movement is None:
            return plain, []
        if movement.pawn:
            return self._pawn_targets(origin, piece.side, verdict)
        rays = self._slides.get(kind)
        if rays is not None:
            for ray in rays[origin]:
                for target in ray:
                    v = verdict[target]
                    if v == _EMPTY:
                        plain.append(target)
                    elif v == _CAPTURE:
                        plain.append(target)
                        break
                    elif v != _PASS:
                        break
        leaps = self._leaps.get(kind)
        if leaps is not None:
            plain += [target for target in leaps[origin] if verdict[target] == _EMPTY or verdict[target] == _CAPTURE]
        return plain, []

    def _pawn_targets(self, origin: Cell, side: int, verdict: Sequence[int]) -> tuple[list[Cell], list[Cell]]:
        table = self._pawns.get(side)
        if table is None:
            raise KeyError(f"no pawn rules for side {side}")
        one, two, takes = table.steps[origin]
        promotions = table.promotions
        plain: list[Cell] = []
        promoting: list[Cell] = []
        if one is not None and verdict[one] == _EMPTY:
            (promoting if promotions[one] else plain).append(one)
            if two is not None and verdict[two] == _EMPTY:
                (promoting if promotions[two] else plain).append(two)
        for target in takes:
            if verdict[target] == _CAPTURE:
                (promoting if promotions[target] else plain).append(target)
        return plain, promoting

    def moves(self, placement: Mapping[Cell, Piece], side: int, blocking: Blocking) -> list[Move]:
        """Every move of `side`'s pieces in `placement`, in cell order then generation order."""
        out: list[Move] = []
        for origin in sorted(placement):
            piece = placement[origin]
            if piece.side == side:
                self._add(out, origin, piece, blocking.verdicts(piece))
        return out

    def moves_of(self, pieces: Iterable[tuple[Cell, Piece]], blocking: Blocking) -> list[Move]:
        """The moves of the given pieces (in the order given)."""
        out: list[Move] = []
        for origin, piece in pieces:
            self._add(out, origin, piece, blocking.verdicts(piece))
        return out

    def _add(self, out: list[Move], origin: Cell, piece: Piece, verdict: Sequence[Verdict]) -> None:
        kind = piece.kind
        movement = self.pieces.get(kind)
        if movement is None:
            return
        if movement.pawn:
            self._add_pawn(out, origin, piece.side, verdict)
            return
        rays = self._slides.get(kind)
        if rays is not None:
            for ray in rays[origin]:
                for target in ray:
                    v = verdict[target]
                    if v == _EMPTY:
                        out.append(Move(origin, target))
                    elif v == _CAPTURE:
                        out.append(Move(origin, target, True))
                        break
                    elif v != _PASS:
                        break
        leaps = self._leaps.get(kind)
        if leaps is not None:
            for target in leaps[origin]:
                v = verdict[target]
                if v == _EMPTY:
                    out.append(Move(origin, target))
                elif v == _CAPTURE:
                    out.append(Move(origin, target, True))

    def _add_pawn(self, out: list[Move], origin: Cell, side: int, verdict: Sequence[Verdict]) -> None:
        table = self._pawns.get(side)
        if table is None:
            raise KeyError(f"no pawn rules for side {side}")
        one, two, takes = table.steps[origin]
        promotions = table.promotions
        if one is not None and verdict[one] == _EMPTY:
            _pawn_move(out, origin, one, False, promotions[one])
            if two is not None and verdict[two] == _EMPTY:
                _pawn_move(out, origin, two, False, promotions[two])
        for target in takes:
            if verdict[target] == _CAPTURE:
                _pawn_move(out, origin, target, True, promotions[target])


def _pawn_move(out: list[Move], origin: Cell, target: Cell, capture: bool, promotions: tuple[Kind, ...]) -> None:
    if promotions:
        out.extend(Move(origin, target, capture, kind) for kind in promotions)
    else:
        out.append(Move(origin, target, capture))
