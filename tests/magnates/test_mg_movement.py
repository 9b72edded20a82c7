"""Piece moves by the Blue value: Queen/Rook/Bishop exactly N steps in a line with billiard
bounces (every wall and corner), crossing but not stopping on the perimeter, blocked by any
piece; the Knight's one or two L-jumps with the middle landing anywhere; no legal end, no move."""

from __future__ import annotations

import pytest
from mg_helpers import cell, clear_pieces, king_at, of, put

from magnates import board
from magnates import commands as c
from magnates import events as e
from magnates.game import GAME
from magnates.rules.movement import piece_ends
from magnates.state import State
from tablehall_boards.jumps import knight_double_targets, knight_jumps
from tablehall_rules.testing import Table


def moving(blue: int, pieces: dict[str, str], enemy: dict[str, str] | None = None) -> Table[State]:
    """Seat 0 to move a piece by `blue`; only the given pieces on the board; Kings out of the way
    (a3 and c10)."""
    table = Table(GAME)
    state = table.state
    clear_pieces(state)
    king_at(state, 0, 2)
    king_at(state, 1, 11)
    for kind, at in pieces.items():
        put(state, 0, kind, at)
    for kind, at in (enemy or {}).items():
        put(state, 1, kind, at)
    state.phase, state.white, state.blue = "move", 1, blue
    return table


def ends(state: State, kind: str) -> set[str]:
    return {board.name(c_) for c_ in piece_ends(state, 0, kind)}


@pytest.mark.parametrize(
    ("start", "end", "wall"),
    [("c5", "b5", "west"), ("h5", "i5", "east"), ("e8", "e9", "north"), ("e3", "e2", "south")],
)
def test_a_rook_comes_straight_back_off_every_wall(start: str, end: str, wall: str) -> None:
    state = moving(3, {"rook": start}).state
    assert end in ends(state, "rook")


@pytest.mark.parametrize(
    ("start", "end"), [("c3", "b2"), ("c8", "b9"), ("h8", "i9"), ("h3", "i2")], ids=["a1", "a10", "j10", "j1"]
)
def test_a_diagonal_into_every_corner_comes_back_along_itself(start: str, end: str) -> None:
    state = moving(3, {"bishop": start}).state
    assert end in ends(state, "bishop")


@pytest.mark.parametrize(
    ("start", "end", "wall"),
    [("c5", "b8", "west"), ("e8", "h9", "north"), ("h5", "i2", "east"), ("e3", "b2", "south")],
)
def test_a_diagonal_reflects_off_every_wall_at_the_angle_it_came(start: str, end: str, wall: str) -> None:
    state = moving(3, {"bishop": start}).state
    assert end in ends(state, "bishop")


def test_the_queen_moves_along_lines_and_diagonals_with_bounces() -> None:
    state = moving(3, {"queen": "c5"}).state
    assert {"b5", "b8", "f5", "f8", "c8", "c2", "f2"} <= ends(state, "queen")


def test_a_line_piece_moves_exactly_the_blue_value() -> None:
    state = moving(2, {"rook": "e5"}).state
    assert ends(state, "rook") == {"c5", "g5", "e7", "e3"}


def test_the_perimeter_is_crossed_but_never_a_stop() -> None:
    table = moving(2, {"queen": "c5"})
    state = table.state
    assert "a5" not in ends(state, "queen")
    table.refused(c.MovePiece(piece="queen", to=cell("a5")), "CANNOT_MOVE_THERE")
    assert "b5" in ends(moving(3, {"queen": "c5"}).state, "queen")


def test_any_piece_on_the_way_blocks_the_line() -> None:
    table = moving(3, {"rook": "c5"}, enemy={"knight": "d5"})
    state = table.state
    assert "f5" not in ends(state, "rook")
    table = moving(3, {"rook": "c5", "bishop": "d5"})
    state = table.state
    assert "f5" not in ends(state, "rook")


def test_a_king_on_the_perimeter_blocks_a_bounce_through_its_cell() -> None:
    state = moving(3, {"rook": "c5"}).state
    assert "b5" in ends(state, "rook")
    king_at(state, 1, 4)  # a5, not lone (seat 1 has a piece)
    put(state, 1, "knight", "h8")
    assert "b5" not in ends(state, "rook")


def test_a_line_may_end_on_an_enemy_piece_but_not_on_an_own_one() -> None:
    assert "e7" in ends(moving(2, {"rook": "e5"}, enemy={"knight": "e7"}).state, "rook")
    assert "e7" not in ends(moving(2, {"rook": "e5", "knight": "e7"}).state, "rook")


def test_a_move_that_comes_back_to_its_start_is_no_move() -> None:
    state = moving(4, {"rook": "c5"}).state  # west: b5 a5 b5 c5
    assert "c5" not in ends(state, "rook")


def test_a_knight_jumps_once_on_an_odd_value() -> None:
    state = moving(3, {"knight": "e5"}).state
    expected = {board.name(x) for x in knight_jumps(board.grid(), cell("e5"))}
    assert ends(state, "knight") == expected


def test_a_knight_jumps_twice_on_an_even_value_landing_between_on_the_perimeter() -> None:
    state = moving(2, {"knight": "b2"}).state
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
    ).state
    targets = knight_double_targets(board.grid(), cell("e5"))
    expected = {board.name(t) for t in targets if not board.is_perimeter(t) and t != cell("e5")}
    assert ends(state, "knight") == expected


def test_a_piece_without_a_legal_end_is_not_offered_and_cannot_be_moved() -> None:
    table = moving(1, {"rook": "b2", "knight": "c2", "bishop": "b3"})  # the rook boxed in: a2/b1 perimeter
    offered = {m.piece for m in table.legal() if isinstance(m, c.MovePiece)}
    assert "rook" not in offered and c.PassMove() in table.legal()
    table.refused(c.MovePiece(piece="rook", to=cell("b3")), "CANNOT_MOVE_THERE")


def test_with_no_movable_piece_the_turn_passes_after_the_king() -> None:
    table = Table(GAME)
    state = table.state
    clear_pieces(state, 0)
    state.players[0].cash = 0
    king_at(state, 0, 5)
    table.play(c.Roll(), dice=(4, 3))  # a10 Bank: 600 buys no piece
    assert table.state.turn == 1 and table.state.phase == "roll"


def test_passing_ends_the_turn() -> None:
    table = moving(2, {"rook": "e5"})
    events = table.play(c.PassMove())
    assert table.state.turn == 1 and table.state.phase == "roll"
    assert not of(events, e.PieceMoved)


def test_a_quiet_move_lands_the_piece() -> None:
    table = moving(2, {"rook": "e5"})
    table.play(c.MovePiece(piece="rook", to=cell("c5")))
    assert table.state.players[0].pieces["rook"] == cell("c5") and table.state.turn == 1


# ---- bounces and double jumps played as commands: the end the rules give is where the piece lands


@pytest.mark.parametrize(
    ("kind", "start", "blue", "end", "wall"),
    [
        ("rook", "c5", 3, "b5", "west"),  # b5 a5 | b5
        ("rook", "h5", 3, "i5", "east"),  # i5 j5 | i5
        ("rook", "e8", 3, "e9", "north"),  # e9 e10 | e9
        ("rook", "e3", 3, "e2", "south"),  # e2 e1 | e2
        ("bishop", "c5", 3, "b8", "west"),  # b6 a7 | b8
        ("bishop", "e8", 3, "h9", "north"),  # f9 g10 | h9
        ("bishop", "h5", 3, "i2", "east"),  # i4 j3 | i2
        ("bishop", "e3", 3, "b2", "south"),  # d2 c1 | b2
        ("queen", "c3", 3, "b2", "corner a1"),  # b2 a1 | b2
        ("queen", "c8", 3, "b9", "corner a10"),  # b9 a10 | b9
        ("queen", "h8", 3, "i9", "corner j10"),  # i9 j10 | i9
        ("queen", "h3", 3, "i2", "corner j1"),  # i2 j1 | i2
        ("bishop", "c4", 5, "d3", "west then south"),  # b3 a2 | b1 | c2 d3: two bounces in one move
    ],
)
def test_a_bounced_move_is_played_and_the_piece_lands_where_the_billiard_rule_says(
    kind: str, start: str, blue: int, end: str, wall: str
) -> None:
    table = moving(blue, {kind: start})
    state = table.state
    king_at(state, 0, 7)  # the Kings out of every path here: a8 and d10
    king_at(state, 1, 12)
    events = table.play(c.MovePiece(piece=kind, to=cell(end)))
    (moved,) = of(events, e.PieceMoved)
    assert (moved.start, moved.to) == (cell(start), cell(end))
    assert table.state.players[0].pieces[kind] == cell(end)


def test_a_bishop_s_ends_are_exactly_its_four_bounced_diagonals() -> None:
    state = moving(3, {"bishop": "c5"}).state
    king_at(state, 0, 7)
    king_at(state, 1, 12)
    # NE d6 e7 f8; NW b6 a7 | b8; SE d4 e3 f2; SW b4 a3 | b2
    assert ends(state, "bishop") == {"f8", "b8", "f2", "b2"}


@pytest.mark.parametrize("start", ["b2", "b9", "i9", "i2"], ids=["a1", "a10", "j10", "j1"])
def test_a_knight_s_double_jump_through_a_perimeter_cell_is_played_in_every_corner(start: str) -> None:
    targets = knight_double_targets(board.grid(), cell(start))
    through_edge = sorted(
        end
        for end, middles in targets.items()
        if all(board.is_perimeter(m) for m in middles) and not board.is_perimeter(end) and end != cell(start)
    )
    assert through_edge, f"{start} has double jumps whose every middle is on the perimeter"
    table = moving(4, {"knight": start})
    state = table.state
    king_at(state, 0, 7)
    king_at(state, 1, 12)
    assert set(through_edge) <= set(piece_ends(state, 0, "knight"))
    table.play(c.MovePiece(piece="knight", to=through_edge[0]))
    assert table.state.players[0].pieces["knight"] == through_edge[0]
