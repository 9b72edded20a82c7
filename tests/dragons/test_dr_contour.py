"""Contours: the engine judges the declared cycle; the black die is rolled and placed inside."""

from __future__ import annotations

import pytest
from dr_helpers import BLACK, BLUE, RED, cell, of, put, put_domino, scene, table

from dragons import commands as c
from dragons.board import side_neighbours
from dragons.events import BlackPlaced, ContourScored, DiePlaced, TurnStarted
from dragons.game import GAME
from dragons.legal import legal_moves
from dragons.rules.contour import enclosed, judge
from dragons.state import BLACK as BLACK_PHASE
from dragons.state import State
from tablehall_rules import IllegalCommand, Rule
from tablehall_rules.testing import Table

DIAMOND = [(0, 4), (1, 3), (0, 2), (-1, 3)]  # around (0, 3), diagonal links only
RING = [(2, 4), (3, 4), (4, 4), (4, 5), (4, 6), (3, 6), (2, 6), (2, 5)]  # around (3, 5)
# two loops crossing in the 2×2 square (0..1, 4..5): a figure-eight
EIGHT = [(0, 4), (1, 5), (2, 6), (1, 7), (0, 7), (-1, 6), (0, 5), (1, 4), (2, 3), (1, 2), (0, 2), (-1, 3)]


def cells(coords: list[tuple[int, int]]) -> list[int]:
    return [cell(x, y) for x, y in coords]


def board(coords: list[tuple[int, int]], faces: list[int] | None = None, seat: int = RED) -> Table[State]:
    t = table()
    for (x, y), f in zip(coords, faces or [1] * len(coords), strict=True):
        put(t, x, y, seat, f)
    return t


def judged(t: Table[State], coords: list[tuple[int, int]], moved: tuple[int, int] | None = None, seat: int = RED):  # type: ignore[no-untyped-def]
    st, new = t.state, {cell(*(moved or coords[0]))}
    return judge(cells(coords), st.owner, st.face, seat, new, st.black_left)


def reason(t: Table[State], coords: list[tuple[int, int]], **kw: object) -> str:
    with pytest.raises(IllegalCommand) as caught:
        judged(t, coords, **kw)  # type: ignore[arg-type]
    return caught.value.reason


def test_a_cycle_of_diagonal_links_encloses_its_centre_and_scores_its_sum() -> None:
    t = board(DIAMOND, [2, 3, 4, 5])
    j = judged(t, DIAMOND)
    assert j.points == 14 and j.inside_free == [cell(0, 3)]


def test_a_ring_scores_the_sum_of_its_dice_and_the_inside_may_hold_other_dice() -> None:
    t = board(RING, [1, 2, 3, 4, 5, 6, 1, 2])
    assert judged(t, RING).points == 24
    put(t, 3, 5, BLUE, 4)
    assert reason(t, RING) == "CONTOUR_NO_FREE_CELL"
    big = [(2, 4), (3, 4), (4, 4), (5, 4), (5, 5), (5, 6), (4, 6), (3, 6), (2, 6), (2, 5)]
    t = board(big)
    put(t, 3, 5, BLUE, 4)
    assert judged(t, big).inside_free == [cell(4, 5)]


def test_a_cycle_without_a_hole_is_refused() -> None:
    block = [(0, 4), (1, 4), (1, 5), (0, 5)]
    assert reason(board(block), block) == "CONTOUR_NO_FREE_CELL"


def test_a_figure_eight_is_refused() -> None:
    assert reason(board(EIGHT), EIGHT) == "CONTOUR_FIGURE_EIGHT"
    x = [(0, 4), (1, 5), (1, 4), (0, 5)]
    assert reason(board(x), x) == "CONTOUR_FIGURE_EIGHT"


# Pinched loops (ruling «Figure-eight»): no link crosses and no die repeats, but the cells inside
# fall into two regions that no side joins. Each is a figure-eight.
PINCH = [(1, 6), (0, 6), (0, 5), (0, 4), (1, 4), (2, 4), (2, 5), (3, 5), (3, 6), (3, 7), (2, 7), (1, 7)]
# (1, 5) and (2, 6) inside, touching only at a corner: the ring pinches at (2, 5) and (1, 6)
PEANUT = [(0, 5), (1, 6), (2, 5), (3, 6), (4, 5), (3, 4), (2, 4), (1, 4)]
# (1, 5) and (3, 5) inside, the contour passing between them at its waist (2, 4)-(2, 5)
GLASSES = [(-3, 5), (-2, 6), (-1, 5), (0, 5), (1, 5), (2, 6), (3, 5), (2, 4), (1, 4), (0, 4), (-1, 4), (-2, 4)]
# two lenses around (-2, 5) and (2, 5) joined by a bridge of dice with nothing inside it
DIAMONDS = [(4, 4), (5, 5), (6, 4), (5, 3), (4, 2), (3, 3)]
# two diamonds of diagonal links sharing the link (4, 4)-(5, 3): (5, 4) and (4, 3) meet at a corner


@pytest.mark.parametrize("shape", [PINCH, PEANUT, GLASSES, DIAMONDS], ids=["pinch", "peanut", "glasses", "diamonds"])
def test_a_pinched_loop_whose_inside_falls_in_two_regions_is_a_figure_eight(shape: list[tuple[int, int]]) -> None:
    inside = enclosed(cells(shape))
    assert len(inside) == 2 and not set(side_neighbours()[inside[0]]) & {inside[1]}  # two rooms, no side shared
    t = board(shape)
    for moved in shape:  # whichever die the move placed
        assert reason(t, shape, moved=moved) == "CONTOUR_FIGURE_EIGHT"


def test_a_loop_pinched_between_two_side_neighbours_is_one_region() -> None:
    waist = [(0, 5), (1, 6), (2, 6), (3, 5), (2, 4), (1, 4)]  # around (1, 5) and (2, 5), which share a side
    assert judged(board(waist), waist).inside_free == cells([(1, 5), (2, 5)])


def test_the_engine_never_offers_a_figure_eight_and_refuses_it_declared() -> None:
    t = table(red=(1, 2, 3))
    for x, y in DIAMONDS[1:]:
        put(t, x, y, RED, 1)
    target = cell(4, 4)
    offered = [
        sorted(x)
        for m in legal_moves(t.state, RED, 0)
        if isinstance(m.command, c.PlaceDie) and m.command.face == 1 and m.command.cell == target
        for p in m.params
        if p.field == "contour" and isinstance(p.domain, Rule)
        for x in p.domain.examples
        if x
    ]
    assert sorted(offered) == sorted([sorted(cells(DIAMONDS[:4])), sorted(cells([(4, 4), (5, 3), (4, 2), (3, 3)]))])
    t.refused(c.PlaceDie(face=1, cell=target, contour=cells(DIAMONDS)), "CONTOUR_FIGURE_EIGHT")


def test_a_black_die_inside_is_refused_a_black_die_on_the_cycle_counts() -> None:
    big = [(2, 4), (3, 4), (4, 4), (5, 4), (5, 5), (5, 6), (4, 6), (3, 6), (2, 6), (2, 5)]
    t = board(big)
    put(t, 3, 5, BLACK, 2)
    assert reason(t, big) == "CONTOUR_BLACK_INSIDE"
    t = board(RING)
    put(t, 4, 5, BLACK, 6)
    assert judged(t, RING).points == 7 + 6


def test_each_die_once_closed_own_new_and_black_dice_left() -> None:
    t = board(RING)
    assert reason(t, [*RING[:4], RING[2], *RING[4:]]) == "CONTOUR_REPEATS"
    assert reason(t, RING[:3] + RING[4:]) == "CONTOUR_NOT_CLOSED"
    assert reason(t, RING[:3]) == "CONTOUR_TOO_SHORT"
    t.state.owner[cell(*RING[3])] = BLUE
    assert reason(t, RING) == "CONTOUR_NOT_YOURS"
    t = board(RING)
    assert reason(t, RING, moved=(6, 6)) == "CONTOUR_NOT_NEW"
    t.state.black_left = 0
    assert reason(t, RING) == "NO_BLACK_DICE"


def test_a_blank_domino_half_is_in_a_contour_for_zero() -> None:
    t = board(RING[2:], [1] * 6)
    put_domino(t, RED, RING[0], RING[1], (0, 3))
    assert judged(t, RING, moved=RING[2]).points == 6 + 0 + 3


def test_enclosed_cells_of_a_diamond_and_a_ring() -> None:
    assert enclosed(cells(DIAMOND)) == [cell(0, 3)]
    assert enclosed(cells(RING)) == [cell(3, 5)]


def test_closing_a_contour_scores_rolls_the_black_die_and_the_seat_places_it_inside() -> None:
    t = table(red=(5, 1, 1))
    for (x, y), f in zip(RING[1:], [2, 3, 4, 5, 6, 1, 2], strict=True):
        put(t, x, y, RED, f)
    events = t.play(c.PlaceDie(face=5, cell=cell(2, 4), contour=cells(RING)), dice=(4,))
    (scored,) = of(events, ContourScored)
    assert scored.points == 5 + 23 and scored.black_face == 4 and scored.inside == [cell(3, 5)]
    assert not of(events, TurnStarted)
    st = t.state
    assert st.phase == BLACK_PHASE and st.black_left == 17 and st.player(RED).score == 28
    (decision,) = t.pending()
    assert decision.seat == RED and decision.kind == "black_die"
    assert GAME.default_command(st, decision) == c.PlaceBlack(cell=cell(3, 5))
    t.refused(c.PlaceBlack(cell=cell(6, 6)), "NOT_INSIDE")
    t.refused(c.PlaceBlack(cell=cell(3, 5)), "NO_BLACK_DIE", seat=BLUE)
    events = t.play(c.PlaceBlack(cell=cell(3, 5)))
    assert of(events, BlackPlaced)[0].face == 4
    assert of(events, TurnStarted)[0].seat == BLUE
    st = t.state
    assert st.owner[cell(3, 5)] == BLACK and st.face[cell(3, 5)] == 4


def test_an_invalid_declared_contour_refuses_the_whole_move() -> None:
    t = table(red=(5, 1, 1))
    for x, y in RING[1:]:
        put(t, x, y, RED, 1)
    put(t, 3, 5, BLACK, 1)
    t.refused(c.PlaceDie(face=5, cell=cell(2, 4), contour=cells(RING)), "CONTOUR_BLACK_INSIDE")


def test_a_corner_only_placement_is_allowed_by_the_contour_it_closes() -> None:
    t = table(red=(4, 1, 1))
    for x, y in DIAMOND[:2] + DIAMOND[3:]:
        put(t, x, y, RED, 2)
    target = cell(0, 2)
    t.refused(c.PlaceDie(face=4, cell=target), "CORNER_NEEDS_COMBINATION")
    events = scene(t).play(c.PlaceDie(face=4, cell=target, contour=cells(DIAMOND)), dice=(3,))
    assert of(events, DiePlaced) and of(events, ContourScored)[0].points == 10
    moves = legal_moves(t.state, RED, 0)
    firsts = [m.params[0].domain for m in moves if m.params]
    corner = [d for d in firsts if isinstance(d, Rule) and d.name == "corner:contour"]
    assert corner and target in corner[0].examples
    examples = [
        m.params[0].domain.examples
        for m in moves
        if isinstance(m.command, c.PlaceDie)
        and m.command.cell == target
        and m.params[0].field == "contour"
        and isinstance(m.params[0].domain, Rule)
    ]
    assert examples and sorted(examples[0][0]) == sorted(cells(DIAMOND))
    assert of(t.play(c.PlaceDie(face=4, cell=target, contour=examples[0][0]), dice=(3,)), ContourScored)


def test_once_the_18_black_dice_are_used_no_contour_scores_or_allows_a_corner() -> None:
    t = table(red=(4, 1, 1))
    for x, y in DIAMOND[:2] + DIAMOND[3:]:
        put(t, x, y, RED, 2)
    t.state.black_left = 0
    t.refused(c.PlaceDie(face=4, cell=cell(0, 2), contour=cells(DIAMOND)), "NO_BLACK_DICE")
    moves = legal_moves(t.state, RED, 0)
    assert not [
        m for m in moves if any(isinstance(p.domain, Rule) and p.domain.name == "corner:contour" for p in m.params)
    ]
    assert all(p.domain == Rule("contour", examples=[[]]) for m in moves for p in m.params if p.field == "contour")
