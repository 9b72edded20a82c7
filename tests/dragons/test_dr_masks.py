"""The listing's byte masks (`dragons.rules.masks`) answer as the per-cell rules do, on random
boards: contacts, free cells, domino neighbourhoods, chess verdicts and movers, and where each
kind of domino may go (the rules `decide` applies: `placement.domino_cells_ok`,
`domino_half_plain`, `domino_half_corner`); and `MoveGenerator.piece_targets` finds the targets
of `piece_moves`."""

from __future__ import annotations

import random

import pytest

from dragons.board import BLACK, CELLS, FREE, NO_DOMINO, SIDES, Contact, grid, half_of
from dragons.rules.chess import DiceBlocking, generator, movable
from dragons.rules.combos import own_mask
from dragons.rules.masks import HOME, Masks, cells_of, flags, slot_cells
from dragons.rules.placement import domino_cells_ok, domino_half_corner, domino_half_plain, near_domino
from tablehall_boards import Kind, Piece

TILES = [(0, 2), (1, 6), (6, 5), (6, 6), (3, 3)]  # plain, a six at either end, double six, a double


def _board(rng: random.Random, density: float) -> tuple[list[int], list[int], list[int]]:
    owner = [FREE] * CELLS
    face = [0] * CELLS
    domino = [NO_DOMINO] * CELLS
    for cell in range(CELLS):
        if rng.random() < density:
            owner[cell] = rng.choice([0, 1, 0, 1, BLACK])
            face[cell] = rng.randint(1, 6)
    pairs = grid().adjacent_pairs()
    for ident in range(rng.randint(0, 12)):
        a, b = rng.choice(pairs)
        if domino[a] == NO_DOMINO and domino[b] == NO_DOMINO:
            side = rng.choice(SIDES)
            for c in (a, b):
                owner[c], face[c], domino[c] = side, rng.randint(0, 6), ident
    return owner, face, domino


BOARDS = [_board(random.Random(seed), density) for seed in range(6) for density in (0.1, 0.35, 0.7)]


@pytest.mark.parametrize("seat", SIDES)
@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_masks_answer_as_the_cell_rules(index: int, seat: int) -> None:
    owner, _, domino = BOARDS[index]
    m = Masks(owner, domino, seat)
    contact = Contact(owner, seat)
    near = near_domino(domino)
    assert m.own_flags() == contact.own
    assert list(map(bool, flags(m.side))) == contact.side
    assert list(map(bool, flags(m.corner))) == contact.corner
    assert cells_of(m.free) == [c for c in range(CELLS) if owner[c] == FREE]
    assert cells_of(m.fits) == [c for c in range(CELLS) if owner[c] == FREE and not near[c]]
    assert cells_of(HOME[seat]) == [c for c in range(CELLS) if half_of(c) == seat]
    assert m.own_cells_mask() == own_mask(owner, seat)
    assert m.movable() == movable(owner, domino, seat)
    assert list(m.verdicts(owner)) == [int(v) for v in DiceBlocking(owner, domino, seat).verdicts(Piece(Kind(1), seat))]


@pytest.mark.parametrize("seat", SIDES)
@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_domino_slots_are_where_decide_lets_each_tile_go(index: int, seat: int) -> None:
    owner, _, domino = BOARDS[index]
    m = Masks(owner, domino, seat)
    contact = Contact(owner, seat)
    near = near_domino(domino)
    for low, high in TILES:
        plain_slots, corner_slots, every_slots = m.domino_slots(low == 6, high == 6, low == high)
        plain, corner, every = [], [], []
        for a, b in grid().adjacent_pairs():
            for cells in ([a, b], [b, a]):
                if (low == high and cells[0] > cells[1]) or not domino_cells_ok(owner, near, cells):
                    continue
                if domino_half_plain(contact, cells, [low, high], seat):
                    plain.append(cells)
                    every.append(cells)
                elif domino_half_corner(contact, cells):
                    corner.append(cells)
                    every.append(cells)
        assert slot_cells(plain_slots) == plain
        assert slot_cells(corner_slots) == corner
        assert slot_cells(every_slots) == every


@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_piece_targets_are_the_moves_targets(index: int) -> None:
    owner, face, domino = BOARDS[index]
    g = generator()
    for seat in SIDES:
        blocking = DiceBlocking(owner, domino, seat)
        verdicts = list(blocking.verdicts(Piece(Kind(1), seat)))
        for origin in movable(owner, domino, seat):
            piece = Piece(Kind(face[origin]), seat)
            moves = g.piece_moves(origin, piece, blocking)
            plain, promoting = g.piece_targets(origin, piece, verdicts)
            assert plain == [x.target for x in moves if x.promotion is None]
            assert promoting == list(dict.fromkeys(x.target for x in moves if x.promotion is not None))
