"""The contours a move could close, as the descriptors tell them: examples the engine accepts.

A client learns the contours from the descriptors (the rule `contour` with example cycles) and
never from a rule of its own; these tests check that the examples are there where a contour
exists (a ring closed at its corner, a ring around any pocket, a domino closing a ring) and that
the engine accepts each one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from dr_helpers import BLACK, BLUE, RED, cell, give_hand, of, put, scene, table
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dragons import commands as c
from dragons.board import FREE, all_neighbours, grid, side_neighbours
from dragons.events import ContourScored
from dragons.legal import legal_moves
from dragons.rules.contour import examples
from dragons.rules.enclosure import Enclosure
from dragons.state import State
from tablehall_rules import LegalMove, Rule

RING = [(2, 4), (3, 4), (4, 4), (4, 5), (4, 6), (3, 6), (2, 6), (2, 5)]  # around (3, 5)


def contour_examples(moves: Sequence[LegalMove], kind: type[Any], **fixed: Any) -> list[list[int]]:
    """The example cycles of the descriptors of `kind` whose fixed fields are `fixed`."""
    out: list[list[int]] = []
    for m in moves:
        if not isinstance(m.command, kind) or any(getattr(m.command, k) != v for k, v in fixed.items()):
            continue
        for p in m.params:
            if p.field == "contour" and isinstance(p.domain, Rule):
                out += [x for x in p.domain.examples if x]
    return out


def test_a_ring_closed_at_its_corner_is_offered_and_accepted() -> None:
    # the two neighbours of the closing cell touch each other by a corner: no path between them
    t = table(red=(4, 1, 1))
    for x, y in RING[1:]:
        put(t, x, y, RED, 2)
    target = cell(2, 4)
    found = contour_examples(legal_moves(t.state, RED, 0), c.PlaceDie, face=4, cell=target)
    assert found and sorted(found[0]) == sorted(cell(x, y) for x, y in RING)
    events = t.play(c.PlaceDie(face=4, cell=target, contour=found[0]), dice=(3,))
    assert of(events, ContourScored)[0].points == 4 + 2 * 7


def test_a_ring_around_two_cells_with_a_die_of_the_opponent_inside() -> None:
    ring = [(0, 4), (1, 4), (2, 4), (3, 5), (2, 6), (1, 6), (0, 6), (-1, 5)]  # around (0..2, 5)
    t = table(red=(5, 1, 1))
    for x, y in ring[1:]:
        put(t, x, y, RED, 1)
    put(t, 1, 5, BLUE, 3)
    found = contour_examples(legal_moves(t.state, RED, 0), c.PlaceDie, face=5, cell=cell(0, 4))
    assert found, "the ring around a blue die and two free cells is a contour"
    events = t.play(c.PlaceDie(face=5, cell=cell(0, 4), contour=found[0]), dice=(2,))
    assert of(events, ContourScored)[0].cells == found[0]


def test_a_domino_that_closes_a_ring_is_offered_with_the_ring() -> None:
    t = table(round_no=3, red=(2, 1, 1))
    for x, y in RING[2:]:
        put(t, x, y, RED, 1)
    give_hand(t, RED, (3, 5))
    cells = [cell(2, 4), cell(3, 4)]
    moves = legal_moves(t.state, RED, 0)
    found = contour_examples(moves, c.PlaceDomino, first=3, second=5, cells=cells) + contour_examples(
        moves, c.PlaceDomino, first=3, second=5, cells=cells[::-1]
    )
    assert found
    command = c.PlaceDomino(face=2, first=3, second=5, cells=cells, contour=found[0])
    assert of(t.play(command, dice=(4,)), ContourScored)


def test_a_domino_allowed_only_by_its_contour_names_its_cells() -> None:
    # the domino touches the ring only by corners: the contour it closes is what allows it
    diamond = [(0, 4), (1, 3), (-1, 3)]  # with (0, 2) a diamond around (0, 3)
    t = table(round_no=3, red=(2, 1, 1))
    for x, y in diamond:
        put(t, x, y, RED, 1)
    give_hand(t, RED, (0, 4))
    moves = legal_moves(t.state, RED, 0)
    corner = [
        p.domain
        for m in moves
        if isinstance(m.command, c.PlaceDomino)
        for p in m.params
        if p.field == "cells" and isinstance(p.domain, Rule) and p.domain.name == "corner:contour"
    ]
    assert corner and corner[0].examples
    pair = corner[0].examples[0]
    found = contour_examples(moves, c.PlaceDomino, first=0, second=4, cells=pair)
    assert found
    assert of(t.play(c.PlaceDomino(face=2, first=0, second=4, cells=pair, contour=found[0]), dice=(5,)), ContourScored)


def _blob(seed: list[tuple[int, int]]) -> set[int]:
    """A side-connected group of cells grown from the centre by the given steps (within |x|, |y| <= 5)."""
    g = grid()
    blob = {cell(0, 0)}
    for pick, direction in seed:
        base = sorted(blob)[pick % len(blob)]
        x, y = g.coord(base)
        dx, dy = ((0, 1), (1, 0), (0, -1), (-1, 0))[direction]
        if abs(x + dx) <= 5 and abs(y + dy) <= 5:
            blob.add(cell(x + dx, y + dy))
    return blob


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 50), st.integers(0, 3)), max_size=10),
    st.integers(0, 1000),
)
# a pocket with a notch at (0, -1): three of its sides are pocket, one is wall
@example(steps=[(0, 0), (0, 1), (0, 3), (0, 2), (38, 2), (0, 2)], which=5)
def test_a_die_that_shuts_any_pocket_is_offered_a_contour_the_engine_accepts(
    steps: list[tuple[int, int]], which: int
) -> None:
    """Wall a random side-connected pocket in with red dice but one wall cell: placing a die
    there is offered a contour (through it, around the pocket) and the engine accepts it.

    The gap is a wall cell between the pocket and the outside (a side neighbour in each): a notch
    of the pocket's outline (a cell whose side neighbours are pocket and wall only) is inside the
    ring the other walls already make, so a die there closes nothing."""
    pocket = _blob(steps)
    walls = {n for p in pocket for n in all_neighbours()[p]} - pocket
    wall = sorted(walls)
    gaps = [
        w
        for w in wall
        if any(n in pocket for n in side_neighbours()[w])
        and any(n not in pocket and n not in walls for n in side_neighbours()[w])
    ]
    gap = gaps[which % len(gaps)]
    t = table(red=(1, 2, 3))
    for w in wall:
        if w != gap:
            t.state.owner[w], t.state.face[w] = RED, 1
    found = contour_examples(legal_moves(t.state, RED, 0), c.PlaceDie, face=1, cell=gap)
    assert found, (sorted(grid().coord(p) for p in pocket), grid().coord(gap))
    for cycle in found:
        events = scene(t).play(c.PlaceDie(face=1, cell=gap, contour=cycle), dice=(1,))
        assert of(events, ContourScored)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.3, 0.7))
def test_where_the_enclosure_rules_a_contour_out_no_example_is_found(seed: int, density: float) -> None:
    """`dragons.rules.enclosure.Enclosure` lets the listing skip the example search; wherever it says no
    contour can exist (a die placed, a die moved, a domino laid), the search finds none."""
    rng = random.Random(seed)
    t = table(red=(1, 2, 3))
    state: State = t.state
    for x in range(-7, 8):
        for y in range(-2, 9):
            if grid().cell_at(x, y) is not None and rng.random() < density:
                put(t, x, y, RED if rng.random() < 0.8 else BLUE, rng.randint(1, 5))
    enclosure = Enclosure(state.owner, RED)
    own = [o in (RED, BLACK) for o in state.owner]
    free = [x for x, o in enumerate(state.owner) if o == FREE]

    def found(cells: list[int], vacated: int | None = None) -> list[list[int]]:
        owner, face, after = list(state.owner), list(state.face), list(own)
        if vacated is not None:
            owner[vacated], face[vacated], after[vacated] = FREE, 0, False
        for x in cells:
            owner[x], face[x], after[x] = RED, 1, True
        return [
            cycle
            for half in cells
            for cycle in examples(
                half, owner, face, RED, state.black_left, moved=set(cells) - {half}, own_after=after, limit=20, tries=40
            )
        ]

    ruled_out = [x for x in free if not enclosure.may_close_die(x)]
    assert all(not found([x]) for x in ruled_out)
    origins = [x for x, o in enumerate(state.owner) if o == RED][:12]
    for origin in origins:
        for target in rng.sample(free, min(len(free), 8)):
            if not enclosure.may_close_move(origin, target):
                assert not found([target], vacated=origin), (origin, target)
    for a in rng.sample(free, min(len(free), 40)):
        for b in side_neighbours()[a]:
            if state.owner[b] == FREE and not enclosure.may_close_pair(a, b, own):
                assert not found([a, b]), (a, b)
