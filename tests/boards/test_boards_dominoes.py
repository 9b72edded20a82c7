"""Domino sets, the bazaar and placements on a grid."""

from __future__ import annotations

from collections import Counter

import pytest

from tablehall_boards import cross
from tablehall_boards.dominoes import (
    Bazaar,
    Tile,
    bazaar_of,
    domino_sets,
    double_six,
    draw_tile,
    give_back,
    placements,
    take,
    tile,
)
from tablehall_boards.grid import rectangle_grid
from tablehall_rules import DrawSource, verify_draws


def test_a_double_six_set_has_28_tiles_each_pair_once() -> None:
    tiles = double_six()
    assert len(tiles) == 28 == len(set(tiles))
    assert sum(t.is_double for t in tiles) == 7
    assert sum(t.pips for t in tiles) == 168
    assert tile(5, 2) == Tile(2, 5) and str(Tile(0, 6)) == "0-6"
    with pytest.raises(ValueError):
        Tile(3, 2)
    with pytest.raises(ValueError):
        Tile(0, 7)


def test_two_sets_hold_every_tile_twice() -> None:
    tiles = domino_sets(2)
    assert len(tiles) == 56
    assert set(Counter(tiles).values()) == {2}
    with pytest.raises(ValueError):
        domino_sets(0)


def test_the_bazaar_draws_a_random_tile_through_the_draw_source() -> None:
    seed = b"b" * 32
    source = DrawSource(seed)
    bazaar = bazaar_of(domino_sets(2))
    drawn: list[Tile] = []
    while len(bazaar):
        bazaar, t = draw_tile(bazaar, source)
        drawn.append(t)
    assert sorted(drawn) == list(domino_sets(2))
    assert drawn != list(domino_sets(2))  # a shuffle, not the sorted order
    assert verify_draws(seed, source.draws) is None
    with pytest.raises(ValueError):
        draw_tile(bazaar, source)


def test_evolve_replays_a_draw_by_the_tile_alone() -> None:
    bazaar = bazaar_of(double_six())
    after, t = draw_tile(bazaar, DrawSource(b"x"))
    assert take(bazaar, t) == after
    assert give_back(after, [t]) == bazaar
    with pytest.raises(ValueError):
        take(after, t)
    with pytest.raises(ValueError):
        Bazaar((Tile(6, 6), Tile(0, 0)))


def test_placements_lay_a_tile_on_two_free_side_neighbours_both_ways() -> None:
    g = rectangle_grid("r", 3, 2)
    assert len(placements(g, lambda c: True)) == 2 * 7
    blocked = g.cell(1, 0)
    got = placements(g, lambda c: c != blocked)
    assert all(blocked not in pair for pair in got)
    assert len(got) == 2 * 4
    c = cross.grid()
    assert len(placements(c, lambda _: True)) == 2 * len(c.adjacent_pairs())
