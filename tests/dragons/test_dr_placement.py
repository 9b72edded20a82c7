"""Placement rules 1–4: side contact, corner contact with a combination, black dice common,
sixes anywhere on the own half."""

from __future__ import annotations

from dr_helpers import BLACK, BLUE, RED, cell, of, put, put_domino, put_line, refused, table, then, when

from dragons import commands as c
from dragons.events import DiePlaced, TurnStarted


def test_rule_1_a_die_touching_an_own_die_by_a_side_is_placed() -> None:
    st = table(red=(2, 3, 4))
    put(st, 3, 3, RED, 1)
    events = when(st, c.PlaceDie(face=2, cell=cell(4, 3)))
    assert of(events, DiePlaced)[0].cell == cell(4, 3)
    assert of(events, TurnStarted)[0].seat == BLUE
    st = then(st, events)
    assert st.rolled[RED] == [3, 4] and st.player(RED).dice_left == 59


def test_a_die_touching_nothing_of_its_own_is_refused() -> None:
    st = table(red=(2, 3, 4))
    put(st, 3, 3, RED, 1)
    put(st, 6, 3, BLUE, 1)
    refused(st, c.PlaceDie(face=2, cell=cell(8, 3)), "NOT_TOUCHING")
    refused(st, c.PlaceDie(face=2, cell=cell(7, 3)), "NOT_TOUCHING")  # touching only the opponent


def test_rule_2_a_corner_only_contact_needs_a_scoring_combination() -> None:
    st = table(red=(5, 3, 4))
    put(st, 3, 3, RED, 1)
    refused(st, c.PlaceDie(face=5, cell=cell(4, 4)), "CORNER_NEEDS_COMBINATION")
    # a diagonal 1-2-3-4 ending next to the cell: the 5 on the corner makes a diagonal straight
    put_line(st, RED, (0, 0), (1, 1), [1, 2, 3, 4])
    st.owner[cell(3, 3)] = RED
    events = when(st, c.PlaceDie(face=5, cell=cell(4, 4)))
    (placed,) = of(events, DiePlaced)
    assert [x.kind for x in placed.combos] == ["straight_diagonal"]
    assert then(st, events).player(RED).score == 3


def test_rule_3_black_dice_are_common_supports() -> None:
    st = table(blue=(4, 5), active=BLUE)
    put(st, 2, -3, BLACK, 3)
    assert of(when(st, c.PlaceDie(face=4, cell=cell(3, -3)), seat=BLUE), DiePlaced)
    st = table(red=(4, 1, 1))
    put(st, 2, 3, BLACK, 3)
    assert of(when(st, c.PlaceDie(face=4, cell=cell(2, 4))), DiePlaced)


def test_own_domino_halves_support_a_placement_the_opponents_do_not() -> None:
    st = table(red=(4, 1, 1))
    put_domino(st, RED, (2, 3), (3, 3), (1, 2))
    put_domino(st, BLUE, (2, 6), (3, 6), (1, 3))
    assert of(when(st, c.PlaceDie(face=4, cell=cell(4, 3))), DiePlaced)
    refused(st, c.PlaceDie(face=4, cell=cell(4, 6)), "NOT_TOUCHING")


def test_rule_4_a_six_goes_anywhere_free_on_the_own_half() -> None:
    st = table(red=(6, 1, 1))
    assert of(when(st, c.PlaceDie(face=6, cell=cell(-7, 6))), DiePlaced)
    refused(st, c.PlaceDie(face=6, cell=cell(-7, 0)), "NOT_TOUCHING")  # the border row: rules 1–3
    refused(st, c.PlaceDie(face=6, cell=cell(-7, -6)), "NOT_TOUCHING")  # the opponent's half
    put(st, -6, 0, RED, 2)
    assert of(when(st, c.PlaceDie(face=6, cell=cell(-7, 0))), DiePlaced)
    refused(st, c.PlaceDie(face=1, cell=cell(-7, 6)), "NOT_TOUCHING")  # not a six


def test_a_die_goes_on_a_free_cell_and_only_a_rolled_number() -> None:
    st = table(red=(2, 3, 4))
    put(st, 3, 3, RED, 1)
    put(st, 4, 3, BLUE, 1)
    refused(st, c.PlaceDie(face=2, cell=cell(4, 3)), "CELL_TAKEN")
    refused(st, c.PlaceDie(face=6, cell=cell(3, 4)), "NOT_ROLLED")
    refused(st, c.PlaceDie(face=2, cell=cell(3, 4)), "NOT_YOUR_TURN", seat=BLUE)
    refused(st, c.PlaceDie(face=2, cell=999), "BAD_CELL")
