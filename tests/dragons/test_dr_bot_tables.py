"""The shortcuts of the easy bot and the listing against what they stand for, on random boards
and on the boards of seeded bot games: `find_completions` (where a placement may complete a
window that scores) against `own_windows` and `live_windows`; the mask helpers against the
per-cell rules; the ring tests of every cell and tile at once (`pockets.Rings`) against
`may_enclose`, `domino_may_enclose` and `contour.may_contain`; the flood fills
(`enclosure.Floods`) against `Enclosure`; and the `Scorer`'s batch answers (`plain_dice`,
`give_ups`, `scoring_places`) against `value` and `may_score` one command at a time, on
`sample_board` (`determinize`'s board and draws)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from test_dr_masks import _board

from dragons import commands as c
from dragons.board import BLACK, CELLS, FREE, all_neighbours, side_neighbours
from dragons.bot import Scorer, choose_moves
from dragons.determinize import determinize, sample_board
from dragons.game import GAME
from dragons.legal import _Contours, _Spots
from dragons.rules.combos import RUNS, Window, completes, find_completions, live_windows, own_mask, own_windows
from dragons.rules.contour import _cluster_heads, components, examples, may_contain
from dragons.rules.enclosure import Enclosure, Floods
from dragons.rules.masks import (
    POSITION,
    WIDTH,
    Masks,
    cell_bits,
    numbers_of,
    own_of,
    position_bits,
    position_flags,
    slot_cells,
)
from dragons.rules.pockets import RING_STEPS, Rings, _runs, domino_may_enclose, may_enclose
from dragons.state import State
from tablehall_boards.grid import KING_STEPS
from tablehall_rules import DecideContext, LegalMove, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import values


def _may_score(window: Window, face: list[int], cells: tuple[int, ...]) -> bool:
    """What `find_completions` asks of a window's other numbers (`live_windows` asks more)."""
    line, _, name = window
    fixed = {face[x] for x in line if x not in cells}
    return len(fixed) <= 1 if name == "four" else any(fixed <= run for run in RUNS)


@pytest.mark.parametrize("seed", range(6))
def test_completions_are_the_windows_whose_other_cells_may_score(seed: int) -> None:
    rng = random.Random(seed)
    for density in (0.1, 0.3, 0.6):
        owner, face, domino = _board(rng, density)
        for seat in (0, 1):
            own = own_mask(owner, seat)
            bits = own_of(owner, seat)
            assert bits == Masks(owner, domino, seat).own and cell_bits(bits) == own
            found = find_completions(numbers_of(bits, face))
            for x in range(CELLS):
                windows = own_windows(own, (x,))
                assert completes(found, (x,)) == any(_may_score(w, face, (x,)) for w in windows), x
                assert completes(found, (x,)) or not live_windows(windows, face, (x,))
                for y in side_neighbours()[x]:
                    if y > x and not own >> x & 1 and not own >> y & 1:
                        windows = own_windows(own, (x, y))
                        assert completes(found, (x, y)) == any(_may_score(w, face, (x, y)) for w in windows)
                        assert completes(found, (x, y)) or not live_windows(windows, face, (x, y))


def test_numbers_and_position_bits_read_the_board_per_cell() -> None:
    owner, face, _ = _board(random.Random(7), 0.4)
    bits = own_of(owner, 0)
    numbers = numbers_of(bits, face)
    whole = position_bits(bits)
    for x in range(CELLS):
        mine = owner[x] in (0, 2)
        position = POSITION[x]
        assert bool(whole >> position & 1) == mine
        assert position_flags(whole)[x] == mine
        assert [bool(m >> position & 1) for m in numbers] == [mine and face[x] == n for n in range(7)]


def test_the_ring_test_decides_may_contain_for_every_ring() -> None:
    """Two clusters of own cells around a cell (what `may_close` needs) are two runs of the ring
    around it, with not-own runs between them (what `may_enclose` asks): every pattern."""
    order = [RING_STEPS.index(step) for step in KING_STEPS]  # king-step order -> clockwise
    for pattern in range(256):
        clockwise = sum(1 << order[d] for d in range(8) if pattern >> d & 1)
        if len(_cluster_heads()[pattern]) >= 2:
            assert _runs(8)[clockwise] >= 2, pattern
    rng = random.Random(3)
    for density in (0.2, 0.5, 0.8):
        owner, _, _ = _board(rng, density)
        for seat in (0, 1):
            own = [o in (seat, 2) for o in owner]
            comp = components(owner, seat)
            assert all(may_enclose(x, own) == may_contain(x, comp, own) for x in range(CELLS))


@pytest.mark.parametrize("seed", range(4))
def test_the_rings_of_every_cell_and_tile_at_once_are_the_ring_tests(seed: int) -> None:
    rng = random.Random(seed)
    for density in (0.15, 0.4, 0.7):
        owner, _, _ = _board(rng, density)
        for seat in (0, 1):
            own = [o in (seat, 2) for o in owner]
            rings = Rings(position_bits(own_of(owner, seat)))
            for x in range(CELLS):
                at = POSITION[x]
                assert bool(rings.die >> at & 1) == may_enclose(x, own), x
                for y in (n for n in side_neighbours()[x] if POSITION[n] in (at + 1, at + WIDTH)):
                    k = 0 if POSITION[y] == at + 1 else 1  # a tile eastwards or northwards
                    assert bool(rings.tile[k] >> at & 1) == domino_may_enclose(x, y, own), (x, y)
                    with_y = [*own[:y], True, *own[y + 1 :]]
                    with_x = [*own[:x], True, *own[x + 1 :]]
                    joins = may_enclose(x, with_y) or may_enclose(y, with_x)
                    assert bool(rings.joins[k] >> at & 1) == joins, (x, y)
                    assert bool(rings.either[k] >> at & 1) == (joins or domino_may_enclose(x, y, own))


def _turns(games: int) -> Iterator[tuple[dict[str, Any], State, list[LegalMove], int]]:
    """The bot games' turn decisions: the view, a determinized state and the descriptors."""
    for seed in range(games):
        rng = random.Random(seed)
        state, _, source = kit.start(GAME, {}, kit.seats_for(2), rng.randbytes(32))
        now = kit.START_MS
        while GAME.outcome(state) is None:
            decision = rng.choice(GAME.pending(state))
            now += 250
            view = msgspec.to_builtins(GAME.view(state, Viewer.of_seat(decision.seat)), str_keys=True)
            moves = list(GAME.legal(state, decision.seat, now))
            if any(isinstance(lm.command, c.PlaceDie) for lm in moves):
                yield view, determinize(view, decision.seat, random.Random(seed)), moves, decision.seat
            command = choose_moves(view, moves, rng)
            for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
                state = GAME.evolve(state, event)


def test_the_scorers_batch_answers_are_its_answers_one_by_one() -> None:
    asked = 0
    for _, st, moves, seat in _turns(3):
        scorer = Scorer(st, seat)
        for lm in moves:
            command, params = lm.command, {p.field: list(values(p.domain)) for p in lm.params}
            if isinstance(command, c.PlaceDie) and list(params) == ["cell", "contour"] and params["contour"] == [[]]:
                one = [scorer.value(command, {"cell": x, "contour": []}) for x in params["cell"]]
                assert scorer.plain_dice(command.face, params["cell"]) == one
                asked += len(one)
            where = "target" if isinstance(command, c.ChessMove) else "cells"
            if isinstance(command, c.ChessMove | c.PlaceDomino) and where in params:
                places = params[where]
                assert scorer.scoring_places(command, places) == [x for x in places if scorer.may_score(command, x)]
                if list(params) == ["face", where, "contour"] and params["contour"] == [[]]:
                    one = [scorer.value(command, {where: x, "contour": []}) for x in places]
                    assert scorer.give_ups(command, places) == one
                asked += len(places)
    assert asked > 1000


def test_the_tiles_closing_a_contour_are_those_pair_finds() -> None:
    asked = closing = 0
    for _, st, _, seat in _turns(2):
        masks = Masks(st.owner, st.domino, seat)
        spots = _Spots(masks)
        for low, high in ((0, 2), (6, 1), (6, 6), (3, 3)):
            pairs = spots.every(low, high)
            assert pairs == slot_cells(masks.domino_slots(low == 6, high == 6, low == high)[2])
            # a fresh listing each: `closing` may leave out what `pair` would have kept
            one = _Contours(st, seat, masks)
            expected = [(cells, found) for cells in pairs if (found := one.pair(cells))]
            assert _Contours(st, seat, masks).closing(pairs) == expected
            asked += len(pairs)
            closing += len(expected)
    assert asked > 1000 and closing > 20


@pytest.mark.parametrize("seed", range(4))
def test_the_floods_answer_as_the_enclosure_does(seed: int) -> None:
    rng = random.Random(seed)
    for density in (0.1, 0.3, 0.5, 0.7):
        owner, _, domino = _board(rng, density)
        for seat in (0, 1):
            masks = Masks(owner, domino, seat)
            reference, floods = Enclosure(owner, seat), Floods(position_bits(masks.own), position_bits(masks.free))
            assert floods.open_ended == reference.open_ended
            own = [o in (seat, BLACK) for o in owner]
            for x in range(CELLS):
                if owner[x] == FREE:
                    assert floods.may_close_die(x) == reference.may_close_die(x), x
                    assert reference.open_ended or floods.shuts(x) == reference.shuts(x)
                    for y in side_neighbours()[x]:
                        if owner[y] == FREE:
                            assert floods.may_close_pair(x, y, own) == reference.may_close_pair(x, y, own)
                elif owner[x] == seat:
                    for target in {*all_neighbours()[x], *rng.sample(range(CELLS), 6)} - {x}:
                        if not own[target]:
                            assert floods.may_close_move(x, target) == reference.may_close_move(x, target)


@pytest.mark.parametrize("seed", range(3))
def test_a_tile_that_shuts_no_free_cell_off_closes_no_contour(seed: int) -> None:
    """`Floods.shuts_both` false: `examples` finds no contour through either half."""
    rng = random.Random(seed)
    shut = 0
    for density in (0.3, 0.45, 0.6):
        owner, face, domino = _board(rng, density)
        for seat in (0, 1):
            masks = Masks(owner, domino, seat)
            floods = Floods(position_bits(masks.own), position_bits(masks.free))
            own = [o in (seat, BLACK) for o in owner]
            for a in range(CELLS):
                for b in side_neighbours()[a]:
                    if b < a or owner[a] != FREE or owner[b] != FREE or not domino_may_enclose(a, b, own):
                        continue
                    after = [o if x not in (a, b) else seat for x, o in enumerate(owner)]
                    own_after = [o in (seat, BLACK) for o in after]
                    found = examples(a, after, face, seat, 5, moved={b}, own_after=own_after)
                    found += examples(b, after, face, seat, 5, moved={a}, own_after=own_after)
                    assert floods.shuts_both(a, b) or not found, (a, b)
                    shut += floods.shuts_both(a, b)
    assert shut > 0


def test_sample_board_is_the_board_of_determinize_with_its_draws() -> None:
    for view, _, _, seat in _turns(2):
        sampled, full = random.Random(seat), random.Random(seat)
        board, state = sample_board(view, seat, sampled), determinize(view, seat, full)
        assert (board.owner, board.face) == (state.owner, state.face)
        assert sampled.getstate() == full.getstate()
