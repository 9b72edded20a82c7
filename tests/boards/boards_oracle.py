"""python-chess as an independent oracle for the shared move generator.

A `Window` puts standard chess on an 8×8 part of any grid (the chess board, the Гомункул cross,
the Драконы disk), turned so that white's pawns go in any of the four directions. Every cell
outside the window is a wall (`Verdict.BLOCKED`): then the rules coincide with standard chess
without castling and en passant, and the pseudo-legal move sets must be equal.
"""

from __future__ import annotations

from collections.abc import Iterator

import chess

from tablehall_boards import chess8, cross, disk
from tablehall_boards.blocking import OccupancyBlocking, Overlay, Verdict
from tablehall_boards.grid import Cell, Direction, Grid
from tablehall_boards.movegen import MoveGenerator
from tablehall_boards.pawns import PawnRules
from tablehall_boards.pieces import Kind, Piece

# white's forward direction for each turn of the window (as the Гомункул seats face)
TURNS: tuple[Direction, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
MoveKey = tuple[int, int, int | None]


class Window:
    def __init__(self, grid: Grid, x0: int, y0: int, turn: int) -> None:
        self.grid = grid
        self.x0, self.y0, self.turn = x0, y0, turn
        self.cells: list[Cell] = [grid.cell(*self._coord(sq)) for sq in chess.SQUARES]
        self.square_of = {cell: sq for sq, cell in enumerate(self.cells)}
        inside = set(self.cells)
        self.walls = {c: Verdict.BLOCKED for c in grid if c not in inside}

        def rules(side: int) -> PawnRules:
            start = 1 if side == chess8.WHITE else 6
            last = 7 if side == chess8.WHITE else 0
            fx, fy = TURNS[turn]
            return PawnRules(
                forward=(fx, fy) if side == chess8.WHITE else (-fx, -fy),
                double_step_from=frozenset(self.cells[chess.square(f, start)] for f in range(8)),
                promotion_cells=frozenset(self.cells[chess.square(f, last)] for f in range(8)),
                promotions=chess8.PROMOTIONS,
            )

        self.generator = MoveGenerator(grid, {chess8.WHITE: rules(chess8.WHITE), chess8.BLACK: rules(chess8.BLACK)})

    def __repr__(self) -> str:
        return f"Window({self.grid.name}, {self.x0}, {self.y0}, turn {self.turn})"

    def _coord(self, square: int) -> tuple[int, int]:
        f, r = chess.square_file(square), chess.square_rank(square)
        x0, y0 = self.x0, self.y0
        return [(x0 + f, y0 + r), (x0 + r, y0 + 7 - f), (x0 + 7 - f, y0 + 7 - r), (x0 + 7 - r, y0 + f)][self.turn]

    def placement(self, board: chess.Board) -> dict[Cell, Piece]:
        return {
            self.cells[sq]: Piece(Kind(p.piece_type), chess8.WHITE if p.color == chess.WHITE else chess8.BLACK)
            for sq, p in board.piece_map().items()
        }

    def our_moves(self, board: chess.Board) -> set[tuple[MoveKey, bool]]:
        placement = self.placement(board)
        blocking = Overlay(OccupancyBlocking(len(self.grid), placement), self.walls)
        side = chess8.WHITE if board.turn == chess.WHITE else chess8.BLACK
        return {
            (
                (self.square_of[m.origin], self.square_of[m.target], int(m.promotion) if m.promotion else None),
                m.capture,
            )
            for m in self.generator.moves(placement, side, blocking)
        }


def windows(grid: Grid) -> Iterator[tuple[int, int]]:
    """Every south-west corner of an 8×8 square lying wholly on `grid`."""
    for x0 in range(grid.min_x, grid.max_x - 6):
        for y0 in range(grid.min_y, grid.max_y - 6):
            if all(grid.has(x0 + dx, y0 + dy) for dx in range(8) for dy in range(8)):
                yield x0, y0


GRIDS: tuple[Grid, ...] = (chess8.grid(), cross.grid(), disk.grid())
ALL_WINDOWS: tuple[tuple[Grid, int, int], ...] = tuple((g, x0, y0) for g in GRIDS for x0, y0 in windows(g))


def oracle_moves(board: chess.Board) -> set[tuple[MoveKey, bool]]:
    """python-chess's pseudo-legal moves with castling and en passant switched off."""
    board.castling_rights = chess.BB_EMPTY
    board.ep_square = None
    return {((m.from_square, m.to_square, m.promotion), board.is_capture(m)) for m in board.pseudo_legal_moves}


def oracle_perft(board: chess.Board, depth: int) -> int:
    """Pseudo-legal perft by python-chess, no castling, no en passant, kings capturable."""
    board.castling_rights = chess.BB_EMPTY
    board.ep_square = None
    if depth == 0:
        return 1
    moves = list(board.pseudo_legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += oracle_perft(board, depth - 1)
        board.pop()
        board.castling_rights = chess.BB_EMPTY
        board.ep_square = None
    return total
