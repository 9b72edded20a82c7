"""Гомункул's own move generation (`homunculus.board.moves_of`: the game's pawn rules per arm,
its blocking policy) agrees with python-chess where the rules coincide with standard chess.

The sub-board is the 8×8 square at an arm's edge (for the south arm files d–k × ranks 1–8),
white the player on that arm, black the player on the opposite arm, no tiles, no mines, no other
pieces. There Гомункул is standard chess without castling and en passant, kings capturable
(pseudo-legal moves), except where its rules differ on purpose, which the positions avoid or the
comparison leaves out: a pawn promotes to a queen only (python-chess's under-promotions are left
out), and the black army's pawns come from the far edge of the cross, so they stand only on
ranks 3–6 of the window (elsewhere their double step and promotion rows are not chess's). Moves
leaving the window are Гомункул's alone (the cross goes on beyond it) and are not compared; a
straight line between two cells of the square stays in it, so every compared move has the same
path in both games. The boards library checks the shared generator alone the same way
(tests/boards/test_boards_pychess.py); this checks what the game builds on it.
"""

from __future__ import annotations

import chess
import pytest
from boards.boards_oracle import Window, oracle_moves
from hm_helpers import fresh
from hypothesis import given, settings
from hypothesis import strategies as st

from homunculus.board import moves_of
from homunculus.state import State
from tablehall_boards import Kind, Piece, cross

# per arm: the south-west corner of the 8×8 square at its edge (window turn = the arm)
CORNERS = {0: (3, 0), 1: (0, 3), 2: (3, 6), 3: (6, 3)}
PIECES = [chess.Piece(t, colour) for t in chess.PIECE_TYPES for colour in chess.COLORS]
_windows: dict[int, Window] = {}


def window(arm: int) -> Window:
    if arm not in _windows:
        x0, y0 = CORNERS[arm]
        _windows[arm] = Window(cross.grid(), x0, y0, arm)
    return _windows[arm]


def coincides(piece: chess.Piece, square: int) -> bool:
    """Where this piece's rules are the same in both games."""
    if piece.piece_type != chess.PAWN:
        return True
    rank = chess.square_rank(square)
    return 1 <= rank <= 6 if piece.color == chess.WHITE else 2 <= rank <= 5


@st.composite
def boards(draw: st.DrawFn) -> chess.Board:
    board = chess.Board(None)
    squares = draw(st.lists(st.sampled_from(chess.SQUARES), unique=True, max_size=36))
    for square in squares:
        piece = draw(st.sampled_from(PIECES))
        if coincides(piece, square):
            board.set_piece_at(square, piece)
    board.turn = draw(st.booleans())
    return board


def table(board: chess.Board, arm: int) -> tuple[State, int]:
    """A four-player table (no teams) with the position on the window of `arm`: white is the
    player on `arm`, black the one opposite; returns the state and the player to move."""
    s = fresh(4)
    w = window(arm)
    white, black = arm, (arm + 2) % 4  # four players play arms 0..3 in order
    s.pieces = {
        w.cells[sq]: Piece(Kind(p.piece_type), white if p.color == chess.WHITE else black)
        for sq, p in board.piece_map().items()
    }
    s.mines, s.dominoes = [], []
    return s, white if board.turn == chess.WHITE else black


def ours(board: chess.Board, arm: int) -> set[tuple[tuple[int, int, int | None], bool]]:
    s, player = table(board, arm)
    w = window(arm)
    inside = set(w.cells)
    return {
        ((w.square_of[m.origin], w.square_of[m.target], int(m.promotion) if m.promotion else None), m.capture)
        for m in moves_of(s, player)
        if m.target in inside
    }


def theirs(board: chess.Board) -> set[tuple[tuple[int, int, int | None], bool]]:
    return {(key, capture) for key, capture in oracle_moves(board) if key[2] in (None, chess.QUEEN)}


def check(board: chess.Board, arm: int) -> None:
    assert ours(board, arm) == theirs(board), f"arm {arm}: {board.fen()}"


@settings(max_examples=150, deadline=None)
@given(board=boards(), arm=st.integers(0, 3))
def test_random_positions_have_python_chess_moves(board: chess.Board, arm: int) -> None:
    check(board, arm)


POSITIONS = [
    "r1bqkb1r/8/2n2n2/pppppppp/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",  # the armies, black pawns pushed
    "4k3/1P4P1/8/3pp3/2P2P2/8/8/R3K2R w - - 0 1",  # promotions (to a queen), no castling
    "8/8/3q4/2pP4/8/5N2/1B6/K6k b - - 0 1",  # no en passant on d5
]


@pytest.mark.parametrize("fen", POSITIONS)
@pytest.mark.parametrize("arm", [0, 1, 2, 3])
def test_chosen_positions_have_python_chess_moves_on_every_arm(fen: str, arm: int) -> None:
    board = chess.Board(fen)
    assert ours(board, arm), "the position has moves"
    check(board, arm)


def test_a_queen_only_promotion_and_the_moves_beyond_the_window_are_gameplay_not_chess() -> None:
    """The two differences the comparison leaves out are real (so leaving them out hides nothing else)."""
    board = chess.Board("4k3/1P6/8/8/8/8/8/R3K3 w - - 0 1")
    s, player = table(board, 0)
    promotions = {m.promotion for m in moves_of(s, player) if m.origin == window(0).cells[chess.B7]}
    assert promotions == {Kind.QUEEN}
    beyond = [m for m in moves_of(s, player) if m.target not in set(window(0).cells)]
    assert beyond and all(s.pieces[m.origin].kind == Kind.ROOK for m in beyond)


@pytest.mark.slow
@settings(max_examples=4000, deadline=None)
@given(board=boards(), arm=st.integers(0, 3))
def test_many_more_random_positions_have_python_chess_moves(board: chess.Board, arm: int) -> None:
    check(board, arm)
