"""Masked grids and the three boards' shapes, indices, names, neighbours and rays."""

from __future__ import annotations

import pytest

from tablehall_boards import cross, disk, magnates
from tablehall_boards.grid import DIAGONAL, EAST, NORTH, Grid, rectangle_grid


def test_the_cross_has_160_cells_of_a_14_by_14_square_less_its_3_by_3_corners() -> None:
    g = cross.grid()
    assert len(g) == 160 == 14 * 14 - 4 * 9
    assert (g.width, g.height) == (14, 14)
    for corner in [(0, 0), (2, 2), (11, 0), (13, 2), (0, 11), (2, 13), (11, 11), (13, 13)]:
        assert not g.has(*corner)
    for edge in [(3, 0), (10, 0), (0, 3), (0, 10), (13, 3), (3, 13), (10, 13)]:
        assert g.has(*edge)


def test_the_cross_names_cells_by_file_letter_and_rank_number() -> None:
    g = cross.grid()
    assert g.name_of(g.cell(7, 0)) == "h1"
    assert g.name_of(g.cell(0, 6)) == "a7"
    assert g.name_of(g.cell(6, 13)) == "g14"
    assert g.name_of(g.cell(13, 7)) == "n8"
    for cell in g:
        assert g.parse(g.name_of(cell)) == cell
    for bad in ["a1", "n14", "o5", "h0", "h15", "", "h", "1h"]:
        with pytest.raises(ValueError):
            g.parse(bad)


def test_the_disk_has_333_cells_in_21_rows() -> None:
    g = disk.grid()
    assert len(g) == 333
    rows = {y for _, y in g.coords}
    assert rows == set(range(-10, 11))
    assert all(x * x + y * y <= 104 for x, y in g.coords)
    assert sum(1 for _, y in g.coords if y == 0) == 21
    assert sum(1 for _, y in g.coords if y == 10) == 5
    assert g.parse("-3,4") == g.cell(-3, 4)
    assert g.name_of(g.cell(0, -5)) == "0,-5"


def test_cells_are_numbered_south_to_north_then_west_to_east() -> None:
    for g in (cross.grid(), disk.grid(), magnates.grid()):
        assert list(g) == list(range(len(g)))
        assert list(g.coords) == sorted(g.coords, key=lambda c: (c[1], c[0]))
        for cell in g:
            assert g.cell(*g.coord(cell)) == cell
    assert cross.grid().coord(0) == (3, 0)


def test_neighbours_are_the_on_board_cells_around() -> None:
    g = magnates.grid()
    corner = g.cell(0, 0)
    assert sorted(g.coord(c) for c in g.neighbours4(corner)) == [(0, 1), (1, 0)]
    assert sorted(g.coord(c) for c in g.neighbours8(corner)) == [(0, 1), (1, 0), (1, 1)]
    middle = g.cell(5, 5)
    assert len(g.neighbours4(middle)) == 4
    assert len(g.neighbours8(middle)) == 8
    c = cross.grid()
    inner_corner = c.cell(3, 3)  # the notch: (2, 2) is missing
    assert len(c.neighbours8(inner_corner)) == 7
    for cell in c:
        for n in c.neighbours8(cell):
            assert cell in c.neighbours8(n)


def test_rays_end_at_the_first_missing_cell_and_do_not_jump_a_gap() -> None:
    c = cross.grid()
    # from d2 diagonally south-west: c1 is off the cross, so the ray is empty
    assert c.ray(c.parse("d2"), (-1, -1)) == ()
    # from a4 east: the whole row of 14 cells
    assert len(c.ray(c.parse("a4"), EAST)) == 13
    # from d1 north: the whole file d
    assert [c.name_of(x) for x in c.ray(c.parse("d1"), NORTH)][-1] == "d14"
    # from e3 north-west: d4, c5, b6, a7
    assert [c.name_of(x) for x in c.ray(c.parse("e3"), (-1, 1))] == ["d4", "c5", "b6", "a7"]
    # from d3 south-west: c2 is missing even though b1 would be "on a line"
    assert c.ray(c.parse("d3"), DIAGONAL[2]) == ()


def test_adjacent_pairs_count_every_side_contact_once() -> None:
    g = rectangle_grid("r", 3, 2)
    assert len(g.adjacent_pairs()) == 2 * 2 + 3 * 1
    c = cross.grid()
    assert len(c.adjacent_pairs()) == sum(len(c.neighbours4(x)) for x in c) // 2


def test_a_grid_needs_cells_and_letters_enough() -> None:
    with pytest.raises(ValueError):
        Grid("empty", [])
    with pytest.raises(ValueError):
        rectangle_grid("wide", 27, 1)


def test_the_magnates_board_is_10_by_10_with_36_perimeter_cells_and_an_8_by_8_field() -> None:
    g = magnates.grid()
    assert len(g) == 100
    track = magnates.perimeter()
    assert track.size == 36
    assert set(track.cells) == {c for c in g if magnates.is_perimeter(c)}
    assert len(magnates.field()) == 64
    assert magnates.field().isdisjoint(track.cells)
    assert len(magnates.centre()) == 16
    assert {g.name_of(c) for c in magnates.city()} == {"e5", "f5", "e6", "f6"}
    assert [g.name_of(c) for c in magnates.corners()] == ["a1", "a10", "j10", "j1"]
