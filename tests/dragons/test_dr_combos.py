"""Straights and fours of a kind: points by direction, what counts as own, which windows score."""

from __future__ import annotations

from dr_helpers import BLACK, BLUE, RED, cell, of, put, put_domino, put_line, scene, table

from dragons import commands as c
from dragons.events import DiePlaced
from dragons.state import State
from tablehall_rules.testing import Table


def _placed(t: Table[State], face: int, x: int, y: int, seat: int = RED) -> DiePlaced:
    """The die placed by `seat` on (x, y), tried on the scene (which stays as it is)."""
    placed: DiePlaced
    (placed,) = of(scene(t).play(c.PlaceDie(face=face, cell=cell(x, y)), seat=seat), DiePlaced)
    return placed


def test_an_orthogonal_straight_scores_9_a_diagonal_3() -> None:
    t = table(red=(5, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [3, 1, 4, 2])
    placed = _placed(t, 5, 4, 3)
    assert [(x.kind, x.points) for x in placed.combos] == [("straight_line", 9)]
    t = table(red=(6, 1, 1))
    put_line(t, RED, (0, 2), (1, 1), [2, 5, 4, 3])
    put(t, 4, 5, RED, 1)  # a side contact for the 6 on (4, 6)
    placed = _placed(t, 6, 4, 6)
    assert [(x.kind, x.points) for x in placed.combos] == [("straight_diagonal", 3)]


def test_a_four_of_a_kind_scores_15_in_a_line_5_on_a_diagonal() -> None:
    t = table(red=(4, 1, 1))
    put_line(t, RED, (0, 4), (0, 1), [4, 4, 4])
    assert [(x.kind, x.points) for x in _placed(t, 4, 0, 7).combos] == [("four_line", 15)]
    t = table(red=(2, 1, 1))
    put_line(t, RED, (-3, 2), (1, -1), [2, 2, 2])  # (-3,2) (-2,1) (-1,0)
    put(t, -1, -1, RED, 5)
    assert [(x.kind, x.points) for x in _placed(t, 2, 0, -1).combos] == [("four_diagonal", 5)]


def test_not_a_straight_without_the_right_numbers_or_with_a_gap() -> None:
    t = table(red=(6, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [1, 2, 3, 4])
    assert _placed(t, 6, 4, 3).combos == []  # 1 2 3 4 6
    t = table(red=(5, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [1, 2, 3])
    put(t, 4, 2, RED, 4)
    assert _placed(t, 5, 4, 3).combos == []  # a gap at (3, 3)


def test_black_dice_count_for_both_the_opponents_dice_break_a_line() -> None:
    t = table(red=(5, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [1, 2, 3])
    put(t, 3, 3, BLACK, 4)
    assert [x.points for x in _placed(t, 5, 4, 3).combos] == [9]
    t.state.owner[cell(3, 3)] = BLUE
    put(t, 4, 4, RED, 2)
    assert _placed(t, 5, 4, 3).combos == []
    t = table(blue=(5, 1), active=BLUE)
    put_line(t, BLUE, (0, -3), (1, 0), [1, 2, 3])
    put(t, 3, -3, BLACK, 4)
    assert [x.points for x in _placed(t, 5, 4, -3, seat=BLUE).combos] == [9]


def test_domino_halves_count_as_own_dice_in_a_line() -> None:
    t = table(red=(5, 1, 1))
    put_domino(t, RED, (1, 3), (2, 3), (2, 3))
    put(t, 0, 3, RED, 1)
    put(t, 3, 3, RED, 4)
    assert [x.kind for x in _placed(t, 5, 4, 3).combos] == ["straight_line"]


def test_a_combination_scores_only_through_the_placed_die() -> None:
    t = table(red=(1, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [1, 2, 3, 4, 5])  # an old straight
    put(t, 0, 4, RED, 6)
    assert _placed(t, 1, 1, 4).combos == []


def test_a_longer_line_scores_every_window_through_the_placed_die() -> None:
    t = table(red=(3, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [3, 3])
    put_line(t, RED, (3, 3), (1, 0), [3, 3, 3])
    # 3 3 _ 3 3 3: the placed 3 at (2, 3) is in three windows of four equal numbers
    placed = _placed(t, 3, 2, 3)
    assert [(x.kind, x.points) for x in placed.combos] == [("four_line", 15)] * 3
    t.play(c.PlaceDie(face=3, cell=cell(2, 3)))
    assert t.state.player(RED).score == 45


def test_several_combinations_of_one_move_all_score() -> None:
    t = table(red=(5, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [1, 2, 3, 4])  # row
    put_line(t, RED, (4, -1), (0, 1), [5, 5, 5])  # column (4,-1)..(4,1), then (4,2) free
    put(t, 4, 2, RED, 5)
    # the 5 on (4, 3): a straight in the row and four 5s in the column
    kinds = sorted(x.kind for x in _placed(t, 5, 4, 3).combos)
    assert kinds == ["four_line", "straight_line"]


def test_three_equal_and_one_other_is_no_four_of_a_kind() -> None:
    t = table(red=(4, 1, 1))
    put_line(t, RED, (0, 4), (0, 1), [4, 5, 4])
    assert _placed(t, 4, 0, 7).combos == []
