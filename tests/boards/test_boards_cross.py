"""The Гомункул board's seats, armies, pawns and centre, as the rulings place them."""

from __future__ import annotations

import pytest

from tablehall_boards import cross
from tablehall_boards.blocking import OccupancyBlocking
from tablehall_boards.movegen import MoveGenerator
from tablehall_boards.pieces import Kind, Piece

G = cross.grid()


def names(cells: object) -> list[str]:
    return sorted(G.name_of(c) for c in cells)  # type: ignore[attr-defined]


def test_the_kings_start_on_h1_a7_g14_n8() -> None:
    placed = cross.standard_setup(cross.SEATS)
    kings = {p.side: G.name_of(c) for c, p in placed.items() if p.kind is Kind.KING}
    assert kings == {0: "h1", 1: "a7", 2: "g14", 3: "n8"}
    queens = {p.side: G.name_of(c) for c, p in placed.items() if p.kind is Kind.QUEEN}
    assert queens == {0: "g1", 1: "a8", 2: "h14", 3: "n7"}


@pytest.mark.parametrize(
    ("seat", "back_rank_from_the_left"),
    [
        (0, ["d1", "e1", "f1", "g1", "h1", "i1", "j1", "k1"]),
        (1, ["a11", "a10", "a9", "a8", "a7", "a6", "a5", "a4"]),
        (2, ["k14", "j14", "i14", "h14", "g14", "f14", "e14", "d14"]),
        (3, ["n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11"]),
    ],
)
def test_each_back_rank_reads_rnbqkbnr_from_its_owners_left(seat: int, back_rank_from_the_left: list[str]) -> None:
    army = cross.army(seat)
    assert len(army) == 16
    kinds = [army[G.parse(name)].kind.letter for name in back_rank_from_the_left]
    assert "".join(kinds) == "RNBQKBNR"
    pawns = [c for c, p in army.items() if p.kind is Kind.PAWN]
    assert len(pawns) == 8
    assert all(cross.row_of(seat, c) == 1 for c in pawns)
    assert all(p.side == seat for p in army.values())


def test_seats_for_two_three_and_four_players() -> None:
    assert cross.seats_for(2) == (0, 2)
    assert cross.seats_for(3) == (0, 1, 2)
    assert cross.seats_for(4) == (0, 1, 2, 3)
    with pytest.raises(ValueError):
        cross.seats_for(5)


def test_the_centre_is_the_central_8_by_8() -> None:
    centre = cross.centre()
    assert len(centre) == 64
    assert {G.coord(c) for c in centre} == {(x, y) for x in range(3, 11) for y in range(3, 11)}


@pytest.mark.parametrize(
    ("seat", "pawn", "step", "double", "promotion_row"),
    [(0, "e2", "e3", "e4", "8"), (1, "b5", "c5", "d5", "h"), (2, "e13", "e12", "e11", "7"), (3, "m5", "l5", "k5", "g")],
)
def test_pawns_go_toward_the_far_side_and_promote_on_the_eighth_row(
    seat: int, pawn: str, step: str, double: str, promotion_row: str
) -> None:
    rules = cross.pawn_rules(seat)
    promotion = names(rules.promotion_cells)
    assert len(promotion) == 14  # the 8th row from any edge crosses the whole board
    if promotion_row.isdigit():
        assert all(n[1:] == promotion_row for n in promotion)
    else:
        assert all(n[0] == promotion_row for n in promotion)
    generator = MoveGenerator(G, {seat: rules})
    placement = {G.parse(pawn): Piece(Kind.PAWN, seat)}
    moves = generator.moves(placement, seat, OccupancyBlocking(len(G), placement))
    assert sorted(G.name_of(m.target) for m in moves) == sorted([step, double])


def test_a_pawn_reaching_the_eighth_row_becomes_a_queen_only() -> None:
    generator = MoveGenerator(G, {0: cross.pawn_rules(0)})
    placement = {G.parse("e7"): Piece(Kind.PAWN, 0), G.parse("f8"): Piece(Kind.ROOK, 2)}
    moves = generator.moves(placement, 0, OccupancyBlocking(len(G), placement))
    assert {(G.name_of(m.target), m.capture, m.promotion) for m in moves} == {
        ("e8", False, Kind.QUEEN),
        ("f8", True, Kind.QUEEN),
    }
