"""Placement rules 1–4: side contact, corner contact with a combination, black dice common,
sixes anywhere on the own half."""

from __future__ import annotations

from dr_helpers import BLACK, BLUE, RED, cell, of, put, put_domino, put_line, scene, table

from dragons import commands as c
from dragons.events import DiePlaced, TurnStarted


def test_rule_1_a_die_touching_an_own_die_by_a_side_is_placed() -> None:
    t = table(red=(2, 3, 4))
    put(t, 3, 3, RED, 1)
    events = t.play(c.PlaceDie(face=2, cell=cell(4, 3)))
    assert of(events, DiePlaced)[0].cell == cell(4, 3)
    assert of(events, TurnStarted)[0].seat == BLUE
    assert t.state.rolled[RED] == [3, 4] and t.state.player(RED).dice_left == 59


def test_a_die_touching_nothing_of_its_own_is_refused() -> None:
    t = table(red=(2, 3, 4))
    put(t, 3, 3, RED, 1)
    put(t, 6, 3, BLUE, 1)
    t.refused(c.PlaceDie(face=2, cell=cell(8, 3)), "NOT_TOUCHING")
    t.refused(c.PlaceDie(face=2, cell=cell(7, 3)), "NOT_TOUCHING")  # touching only the opponent


def test_rule_2_a_corner_only_contact_needs_a_scoring_combination() -> None:
    t = table(red=(5, 3, 4))
    put(t, 3, 3, RED, 1)
    t.refused(c.PlaceDie(face=5, cell=cell(4, 4)), "CORNER_NEEDS_COMBINATION")
    # a diagonal 1-2-3-4 ending next to the cell: the 5 on the corner makes a diagonal straight
    put_line(t, RED, (0, 0), (1, 1), [1, 2, 3, 4])
    t.state.owner[cell(3, 3)] = RED
    events = t.play(c.PlaceDie(face=5, cell=cell(4, 4)))
    (placed,) = of(events, DiePlaced)
    assert [x.kind for x in placed.combos] == ["straight_diagonal"]
    assert t.state.player(RED).score == 3


def test_rule_3_black_dice_are_common_supports() -> None:
    t = table(blue=(4, 5), active=BLUE)
    put(t, 2, -3, BLACK, 3)
    assert of(scene(t).play(c.PlaceDie(face=4, cell=cell(3, -3)), seat=BLUE), DiePlaced)
    t = table(red=(4, 1, 1))
    put(t, 2, 3, BLACK, 3)
    assert of(scene(t).play(c.PlaceDie(face=4, cell=cell(2, 4))), DiePlaced)


def test_own_domino_halves_support_a_placement_the_opponents_do_not() -> None:
    t = table(red=(4, 1, 1))
    put_domino(t, RED, (2, 3), (3, 3), (1, 2))
    put_domino(t, BLUE, (2, 6), (3, 6), (1, 3))
    assert of(scene(t).play(c.PlaceDie(face=4, cell=cell(4, 3))), DiePlaced)
    t.refused(c.PlaceDie(face=4, cell=cell(4, 6)), "NOT_TOUCHING")


def test_rule_4_a_six_goes_anywhere_free_on_the_own_half() -> None:
    t = table(red=(6, 1, 1))
    assert of(scene(t).play(c.PlaceDie(face=6, cell=cell(-7, 6))), DiePlaced)
    t.refused(c.PlaceDie(face=6, cell=cell(-7, 0)), "NOT_TOUCHING")  # the border row: rules 1–3
    t.refused(c.PlaceDie(face=6, cell=cell(-7, -6)), "NOT_TOUCHING")  # the opponent's half
    put(t, -6, 0, RED, 2)
    assert of(scene(t).play(c.PlaceDie(face=6, cell=cell(-7, 0))), DiePlaced)
    t.refused(c.PlaceDie(face=1, cell=cell(-7, 6)), "NOT_TOUCHING")  # not a six


def test_a_die_goes_on_a_free_cell_and_only_a_rolled_number() -> None:
    t = table(red=(2, 3, 4))
    put(t, 3, 3, RED, 1)
    put(t, 4, 3, BLUE, 1)
    t.refused(c.PlaceDie(face=2, cell=cell(4, 3)), "CELL_TAKEN")
    t.refused(c.PlaceDie(face=6, cell=cell(3, 4)), "NOT_ROLLED")
    t.refused(c.PlaceDie(face=2, cell=cell(3, 4)), "NOT_YOUR_TURN", seat=BLUE)
    t.refused(c.PlaceDie(face=2, cell=999), "BAD_CELL")
