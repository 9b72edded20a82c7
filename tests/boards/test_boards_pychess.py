"""The shared move generator agrees with python-chess wherever the rules coincide.

Random positions (hypothesis) on 8×8 windows of the chess board, the Гомункул cross and the
Драконы disk, turned every way (white's pawns going north, east, south or west), with every cell
outside the window a wall: the pseudo-legal move sets, promotions and capture flags must be
equal to python-chess's with castling rights cleared and no en passant square.
"""

from __future__ import annotations

import chess
import pytest
from boards.boards_oracle import ALL_WINDOWS, Window, oracle_moves, oracle_perft
from hypothesis import given, settings
from hypothesis import strategies as st

from tablehall_boards import chess8, perft

PIECES = [chess.Piece(t, c) for t in chess.PIECE_TYPES for c in chess.COLORS]
_windows: dict[tuple[str, int, int, int], Window] = {}


def window(index: int, turn: int) -> Window:
    grid, x0, y0 = ALL_WINDOWS[index]
    key = (grid.name, x0, y0, turn)
    if key not in _windows:
        _windows[key] = Window(grid, x0, y0, turn)
    return _windows[key]


@st.composite
def boards(draw: st.DrawFn) -> chess.Board:
    board = chess.Board(None)
    squares = draw(st.lists(st.sampled_from(chess.SQUARES), unique=True, max_size=40))
    for square in squares:
        piece = draw(st.sampled_from(PIECES))
        if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
            continue  # no pawn stands on its first or last rank in chess
        board.set_piece_at(square, piece)
    board.turn = draw(st.booleans())
    return board


def check(board: chess.Board, w: Window) -> None:
    expected = oracle_moves(board)
    assert w.our_moves(board) == expected, f"{w} {board.fen()}"


@settings(max_examples=400, deadline=None)
@given(board=boards(), index=st.integers(0, len(ALL_WINDOWS) - 1), turn=st.integers(0, 3))
def test_random_positions_on_any_window_have_python_chess_pseudo_legal_moves(
    board: chess.Board, index: int, turn: int
) -> None:
    check(board, window(index, turn))


@settings(max_examples=200, deadline=None)
@given(board=boards())
def test_random_positions_on_the_chess_board_have_python_chess_pseudo_legal_moves(board: chess.Board) -> None:
    w = window(0, 0)
    assert w.grid is chess8.grid()
    check(board, w)


def test_the_windows_cover_every_board() -> None:
    names = {grid.name for grid, _, _ in ALL_WINDOWS}
    assert names == {"chess-8x8", "homunculus-cross", "dragons-disk"}
    # the cross holds 13 whole 8×8 squares: 7 in the north–south band, 7 in the east–west, the centre in both
    assert sum(1 for grid, _, _ in ALL_WINDOWS if grid.name == "homunculus-cross") == 13


FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",  # "kiwipete", castling off
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w - - 1 8",
]


@pytest.mark.parametrize("fen", FENS)
def test_perft_to_depth_two_equals_python_chess_pseudo_legal_perft(fen: str) -> None:
    placement, turn = chess8.placement_from_fen(fen)
    order = (turn, 1 - turn)
    for depth in (1, 2):
        assert perft.perft(chess8.generator(), placement, order, depth) == oracle_perft(chess.Board(fen), depth)


@pytest.mark.slow
@pytest.mark.parametrize("fen", FENS)
def test_perft_to_depth_three_equals_python_chess_pseudo_legal_perft(fen: str) -> None:
    placement, turn = chess8.placement_from_fen(fen)
    assert perft.perft(chess8.generator(), placement, (turn, 1 - turn), 3) == oracle_perft(chess.Board(fen), 3)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(board=boards(), index=st.integers(0, len(ALL_WINDOWS) - 1), turn=st.integers(0, 3))
def test_many_more_random_positions_agree_with_python_chess(board: chess.Board, index: int, turn: int) -> None:
    check(board, window(index, turn))
