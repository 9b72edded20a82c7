"""Piece moves by the Blue value: Queen/Rook/Bishop exactly N steps in a line with billiard
bounces (every wall and corner), crossing but not stopping on the perimeter, blocked by any
piece; the Knight's one or two L-jumps with the middle landing anywhere; no legal end, no move."""

from __future__ import annotations

import pytest
from mg_helpers import cell, clear_pieces, given, king_at, legal, put, refused, when

from magnates import board
from magnates import commands as c
from magnates import events as e
from magnates.rules.movement import piece_ends
from magnates.state import State
from tablehall_boards.jumps import knight_double_targets, knight_jumps


def moving(blue: int, pieces: dict[str, str], enemy: dict[str, str] | None = None) -> State:
    """Seat 0 to move a piece by `blue`; only the given pieces on the board; Kings out of the way
    (a3 and c10)."""
    state = given()
    clear_pieces(state)
    king_at(state, 0, 2)
    king_at(state, 1, 11)
    for kind, at in pieces.items():
        put(state, 0, kind, at)
    for kind, at in (enemy or {}).items():
        put(state, 1, kind, at)
    state.phase, state.white, state.blue = "move", 1, blue
    return state


def ends(state: State, kind: str) -> set[str]:
    return {board.name(c_) for c_ in piece_ends(state, 0, kind)}


@pytest.mark.parametrize(
    ("start", "end", "wall"),
    [("c5", "b5", "west"), ("h5", "i5", "east"), ("e8", "e9", "north"), ("e3", "e2", "south")],
)
def test_a_rook_comes_straight_back_off_every_wall(start: str, end: str, wall: str) -> None:
    state = moving(3, {"rook": start})
    assert end in ends(state, "rook")


@pytest.mark.parametrize(
    ("start", "end"), [("c3", "b2"), ("c8", "b9"), ("h8", "i9"), ("h3", "i2")], ids=["a1", "a10", "j10", "j1"]
)
def test_a_diagonal_into_every_corner_comes_back_along_itself(start: str, end: str) -> None:
    state = moving(3, {"bishop": start})
    assert end in ends(state, "bishop")


@pytest.mark.parametrize(
    ("start", "end", "wall"),
    [("c5", "b8", "west"), ("e8", "h9", "north"), ("h5", "i2", "east"), ("e3", "b2", "south")],
)
def test_a_diagonal_reflects_off_every_wall_at_the_angle_it_came(start: str, end: str, wall: str) -> None:
    state = moving(3, {"bishop": start})
    assert end in ends(state, "bishop")


def test_the_queen_moves_along_lines_and_diagonals_with_bounces() -> None:
    state = moving(3, {"queen": "c5"})
    assert {"b5", "b8", "f5", "f8", "c8", "c2", "f2"} <= ends(state, "queen")


def test_a_line_piece_moves_exactly_the_blue_value() -> None:
    state = moving(2, {"rook": "e5"})
    assert ends(state, "rook") == {"c5", "g5", "e7", "e3"}


def test_the_perimeter_is_crossed_but_never_a_stop() -> None:
    state = moving(2, {"queen": "c5"})
    assert "a5" not in ends(state, "queen")
    refused(state, c.MovePiece(piece="queen", to=cell("a5")), "CANNOT_MOVE_THERE")
    assert "b5" in ends(moving(3, {"queen": "c5"}), "queen")


def test_any_piece_on_the_way_blocks_the_line() -> None:
    state = moving(3, {"rook": "c5"}, enemy={"knight": "d5"})
    assert "f5" not in ends(state, "rook")
    state = moving(3, {"rook": "c5", "bishop": "d5"})
    assert "f5" not in ends(state, "rook")


def test_a_king_on_the_perimeter_blocks_a_bounce_through_its_cell() -> None:
    state = moving(3, {"rook": "c5"})
    assert "b5" in ends(state, "rook")
    king_at(state, 1, 4)  # a5, not lone (seat 1 has a piece)
    put(state, 1, "knight", "h8")
    assert "b5" not in ends(state, "rook")


def test_a_line_may_end_on_an_enemy_piece_but_not_on_an_own_one() -> None:
    assert "e7" in ends(moving(2, {"rook": "e5"}, enemy={"knight": "e7"}), "rook")
    assert "e7" not in ends(moving(2, {"rook": "e5", "knight": "e7"}), "rook")


def test_a_move_that_comes_back_to_its_start_is_no_move() -> None:
    state = moving(4, {"rook": "c5"})  # west: b5 a5 b5 c5
    assert "c5" not in ends(state, "rook")


def test_a_knight_jumps_once_on_an_odd_value() -> None:
    state = moving(3, {"knight": "e5"})
    expected = {board.name(x) for x in knight_jumps(board.grid(), cell("e5"))}
    assert ends(state, "knight") == expected


def test_a_knight_jumps_twice_on_an_even_value_landing_between_on_the_perimeter() -> None:
    state = moving(2, {"knight": "b2"})
    targets = knight_double_targets(board.grid(), cell("b2"))
    via_perimeter_only = [
        end
        for end, middles in targets.items()
        if all(board.is_perimeter(m) for m in middles) and not board.is_perimeter(end)
    ]
    assert via_perimeter_only, "b2 has double jumps whose middles are all on the perimeter"
    found = piece_ends(state, 0, "knight")
    assert all(end in found for end in via_perimeter_only)
    assert cell("b2") not in found  # there and back is no move


def test_a_knight_s_middle_landing_may_be_occupied() -> None:
    state = moving(
        2,
        {"knight": "e5"},
        enemy={
            k: board.name(m)
            for k, m in zip(("queen", "rook", "bishop"), knight_jumps(board.grid(), cell("e5"))[:3], strict=True)
        },
    )
    targets = knight_double_targets(board.grid(), cell("e5"))
    expected = {board.name(t) for t in targets if not board.is_perimeter(t) and t != cell("e5")}
    assert ends(state, "knight") == expected


def test_a_piece_without_a_legal_end_is_not_offered_and_cannot_be_moved() -> None:
    state = moving(1, {"rook": "b2", "knight": "c2", "bishop": "b3"})  # the rook boxed in: a2/b1 perimeter
    offered = {m.piece for m in legal(state) if isinstance(m, c.MovePiece)}
    assert "rook" not in offered and c.PassMove() in legal(state)
    refused(state, c.MovePiece(piece="rook", to=cell("b3")), "CANNOT_MOVE_THERE")


def test_with_no_movable_piece_the_turn_passes_after_the_king() -> None:
    state = given()
    clear_pieces(state, 0)
    state.players[0].cash = 0
    king_at(state, 0, 5)
    then = when(state, c.Roll(), dice=[4, 3])  # a10 Bank: 600 buys no piece
    assert then.state.turn == 1 and then.state.phase == "roll"


def test_passing_ends_the_turn() -> None:
    state = moving(2, {"rook": "e5"})
    then = when(state, c.PassMove())
    assert then.state.turn == 1 and then.state.phase == "roll"
    assert not then.of(e.PieceMoved)


def test_a_quiet_move_lands_the_piece() -> None:
    state = moving(2, {"rook": "e5"})
    then = when(state, c.MovePiece(piece="rook", to=cell("c5")))
    assert then.state.players[0].pieces["rook"] == cell("c5") and then.state.turn == 1
