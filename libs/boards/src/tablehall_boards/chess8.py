"""Standard chess on 8×8 as one more configuration of the shared move generator.

It exists to check the generator against an independent implementation (python-chess) where
the rules coincide: white is side 0 (pawns go north from rank 2), black side 1; promotion to
queen, rook, bishop or knight; no castling and no en passant (these games have neither), and
no check rules (a king is taken like a piece). `placement_from_fen` reads the board part and the
side to move of a FEN.
"""

from __future__ import annotations

from functools import cache

from tablehall_boards.grid import Cell, Grid, rectangle_grid
from tablehall_boards.movegen import MoveGenerator
from tablehall_boards.pawns import PawnRules, rows_pawn_rules
from tablehall_boards.pieces import Kind, Piece

WHITE = 0
BLACK = 1
PROMOTIONS: tuple[Kind, ...] = (Kind.QUEEN, Kind.ROOK, Kind.BISHOP, Kind.KNIGHT)


@cache
def grid() -> Grid:
    return rectangle_grid("chess-8x8", 8, 8)


def pawn_rules(side: int) -> PawnRules:
    forward = (0, 1) if side == WHITE else (0, -1)
    return rows_pawn_rules(grid(), forward, start_row=1, promotion_row=7, promotions=PROMOTIONS)


@cache
def generator() -> MoveGenerator:
    return MoveGenerator(grid(), {WHITE: pawn_rules(WHITE), BLACK: pawn_rules(BLACK)})


def placement_from_fen(fen: str) -> tuple[dict[Cell, Piece], int]:
    """The pieces and the side to move of a FEN (castling and en passant fields are ignored)."""
    fields = fen.split()
    rows = fields[0].split("/")
    if len(rows) != 8:
        raise ValueError(f"a FEN board has 8 rows: {fen!r}")
    g = grid()
    placed: dict[Cell, Piece] = {}
    for index, row in enumerate(rows):
        y = 7 - index
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
                continue
            if x > 7:
                raise ValueError(f"FEN row too long: {row!r}")
            placed[g.cell(x, y)] = Piece(Kind.from_letter(ch), WHITE if ch.isupper() else BLACK)
            x += 1
        if x != 8:
            raise ValueError(f"FEN row of {x} cells: {row!r}")
    turn = BLACK if len(fields) > 1 and fields[1] == "b" else WHITE
    return placed, turn
