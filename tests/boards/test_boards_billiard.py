"""Магнаты's billiard lines, knight double jumps and the clockwise perimeter track."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablehall_boards import cross, magnates
from tablehall_boards.billiard import billiard_ends, billiard_path, billiard_paths
from tablehall_boards.grid import KING_STEPS, Cell
from tablehall_boards.jumps import knight_double_jumps, knight_double_targets, knight_jumps
from tablehall_boards.track import Track

G = magnates.grid()


def path(start: str, direction: tuple[int, int], steps: int) -> list[str]:
    return [G.name_of(c) for c in billiard_path(G, G.parse(start), direction, steps)]


def test_an_orthogonal_move_into_the_edge_comes_straight_back_the_bounce_costing_no_step() -> None:
    assert path("h5", (1, 0), 4) == ["i5", "j5", "i5", "h5"]
    assert path("e9", (0, 1), 3) == ["e10", "e9", "e8"]


def test_a_diagonal_reflects_off_a_side_angle_in_equals_angle_out() -> None:
    assert path("h5", (1, 1), 4) == ["i6", "j7", "i8", "h9"]
    assert path("c3", (-1, -1), 3) == ["b2", "a1", "b2"]  # into the corner a1: back along itself
    assert path("b4", (-1, -1), 4) == ["a3", "b2", "c1", "d2"]  # west edge, then south edge


def test_a_diagonal_into_a_corner_comes_back_along_itself() -> None:
    assert path("h8", (1, 1), 4) == ["i9", "j10", "i9", "h8"]


def test_zero_steps_and_bad_directions() -> None:
    assert path("e5", (1, 0), 0) == []
    with pytest.raises(ValueError):
        billiard_path(G, G.parse("e5"), (0, 0), 2)
    with pytest.raises(ValueError):
        billiard_path(G, G.parse("e5"), (2, 1), 2)
    with pytest.raises(ValueError):
        billiard_path(G, G.parse("e5"), (1, 0), -1)


@given(start=st.integers(0, 99), direction=st.sampled_from(KING_STEPS), steps=st.integers(0, 40))
def test_every_path_has_exactly_the_steps_each_a_king_step_and_stays_on_the_board(
    start: Cell, direction: tuple[int, int], steps: int
) -> None:
    cells = billiard_path(G, start, direction, steps)
    assert len(cells) == steps
    previous = start
    for cell in cells:
        (x0, y0), (x1, y1) = G.coord(previous), G.coord(cell)
        assert max(abs(x1 - x0), abs(y1 - y0)) == 1
        assert abs(x1 - x0) == abs(direction[0]) and abs(y1 - y0) == abs(direction[1])
        previous = cell
    # the same line walked back from its end returns to the start (a billiard path is reversible)
    if steps:
        xa, ya = G.coord(cells[-2] if steps > 1 else start)
        xb, yb = G.coord(cells[-1])
        back = billiard_path(G, cells[-1], (xa - xb, ya - yb), steps)
        assert back[-1] == start


def test_a_queen_has_eight_paths_of_the_blue_value() -> None:
    paths = billiard_paths(G, G.parse("e5"), KING_STEPS, 6)
    assert len(paths) == 8 and all(len(p) == 6 for p in paths.values())


def test_billiard_ends_need_every_passed_cell_free_but_leave_the_end_to_the_game() -> None:
    start = G.parse("h5")
    occupied = {G.parse("j5"), G.parse("h8")}
    ends = billiard_ends(G, start, ((1, 0), (0, 1), (1, 1)), 3, lambda c: c not in occupied)
    assert (1, 0) not in ends  # i5, j5 (occupied), i5
    assert ends[(0, 1)] == G.parse("h8")  # the end may be occupied: a duel is the game's
    assert ends[(1, 1)] == G.parse("i8")  # i6, j7, i8
    assert billiard_ends(G, start, ((1, 0),), 0, lambda c: True) == {}


def test_a_bounce_on_a_masked_grid_turns_at_a_notch() -> None:
    c = cross.grid()
    # from e3 south-west: d2; c1 is off the cross and so is c2, so x turns (d1 is on): e1; then the edge turns y
    cells = [c.name_of(x) for x in billiard_path(c, c.parse("e3"), (-1, -1), 3)]
    assert cells == ["d2", "e1", "f2"]


def test_knight_double_jumps_may_land_in_the_middle_anywhere() -> None:
    start = G.parse("b2")
    pairs = knight_double_jumps(G, start)
    middles = {m for m, _ in pairs}
    assert middles == set(knight_jumps(G, start))
    assert {G.name_of(m) for m in middles} == {"a4", "c4", "d3", "d1"}
    ends = knight_double_targets(G, start)
    assert start in ends  # a jump there and back: the game decides whether it counts
    assert all(end in knight_jumps(G, m) for end, ms in ends.items() for m in ms)
    assert sum(len(ms) for ms in ends.values()) == len(pairs)


def test_the_perimeter_runs_clockwise_from_a1() -> None:
    track = magnates.perimeter()
    names = [G.name_of(c) for c in track.cells]
    assert names[:3] == ["a1", "a2", "a3"]
    assert names[9] == "a10" and names[10] == "b10" and names[18] == "j10" and names[19] == "j9"
    assert names[27] == "j1" and names[-1] == "b1"
    for a, b in zip(track.cells, track.cells[1:] + track.cells[:1], strict=True):
        assert b in G.neighbours4(a)
    assert track.position_of(G.parse("j10")) == 18


def test_a_walk_knows_what_it_passes_and_where_it_stops() -> None:
    track = magnates.perimeter()
    walk = track.advance(34, 5)
    assert walk.end == 3
    assert walk.passed == (35, 0, 1, 2)
    assert walk.passes(0) and not walk.stops_at(0) and walk.reaches(3) and not walk.passes(3)
    assert track.advance(0, 9).stops_at(9) and not track.advance(0, 9).passes(9)
    lap = track.advance(5, 40)
    assert lap.end == 9 and lap.times_passed(6) == 2 and lap.times_passed(9) == 1
    back = track.advance(2, -3)
    assert back.end == 35 and back.passed == (1, 0)
    assert track.distance(30, 2) == 8


def test_an_abstract_ring_has_no_cells_and_a_track_refuses_nonsense() -> None:
    ring = Track(size=40)
    assert ring.advance(38, 4).passed == (39, 0, 1)
    with pytest.raises(ValueError):
        ring.cell_of(0)
    with pytest.raises(ValueError):
        ring.advance(40, 1)
    with pytest.raises(ValueError):
        Track(size=0)
    with pytest.raises(ValueError):
        Track(size=2, cells=(1,))
