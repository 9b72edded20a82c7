"""The board and the set-up: the perimeter track, Banks, Companies by sector, the special cells,
the inner Companies (Сити and quarters), Offices, armies, cash, seats on corners."""

from __future__ import annotations

import pytest

from magnates import board, tables
from magnates.game import GAME
from tablehall_rules import DecideContext, DrawSource, InvalidOptions
from tablehall_rules.conformance import seats_for
from tablehall_rules.testing import Table


def test_perimeter_is_a_36_cell_clockwise_track_with_banks_at_the_corners() -> None:
    perimeter = [s for s in board.squares() if s.is_perimeter]
    assert len(perimeter) == 36
    banks = sorted(s.position for s in perimeter if s.kind == "bank")
    assert banks == [0, 9, 18, 27]
    assert [board.name(board.cell_of_position(p)) for p in banks] == ["a1", "a10", "j10", "j1"]
    # clockwise from a1: up the west edge first
    assert board.name(board.cell_of_position(1)) == "a2"
    assert board.name(board.cell_of_position(10)) == "b10"


def test_each_side_has_four_companies_and_each_special_once_in_its_own_order() -> None:
    orders = []
    for side in range(4):
        cells = [board.square(board.cell_of_position(9 * side + k)) for k in range(1, 9)]
        kinds = [s.kind for s in cells]
        assert kinds.count("company") == 4
        specials = [k for k in kinds if k != "company"]
        assert sorted(specials) == ["arbitrage", "investment", "sanction", "subsidy"]
        orders.append(tuple(specials))
    assert len(set(orders)) == 4


def test_perimeter_companies_form_four_sectors_priced_300_to_850_rising_clockwise() -> None:
    companies = sorted((s for s in board.squares() if s.is_perimeter and s.is_company), key=lambda s: s.position)
    prices = [s.price for s in companies]
    assert len(prices) == 16 and prices[0] == 300 and prices[-1] == 850
    assert prices == sorted(prices) and len(set(prices)) == 16
    for sector in range(4):
        group = {s.group for s in companies[4 * sector : 4 * sector + 4]}
        assert group == {f"sector-{sector + 1}"}
        assert all(9 * sector < s.position < 9 * sector + 9 for s in companies[4 * sector : 4 * sector + 4])


def test_inner_companies_are_the_central_4x4_city_at_1200_and_four_quarters_of_three_at_800() -> None:
    inner = [s for s in board.squares() if s.is_company and not s.is_perimeter]
    assert len(inner) == 16
    assert {board.grid().coord(s.cell) for s in inner} == {(x, y) for x in range(3, 7) for y in range(3, 7)}
    city = board.group_cells("city")
    assert sorted(board.grid().coord(c) for c in city) == [(4, 4), (4, 5), (5, 4), (5, 5)]
    assert all(board.square(c).price == 1200 for c in city)
    quarters = [g for g in board.groups() if g.startswith("quarter")]
    assert len(quarters) == 4
    for q in quarters:
        cells = board.group_cells(q)
        assert len(cells) == 3 and all(board.square(c).price == 800 for c in cells)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_set_up_kings_on_home_corners_pieces_on_four_offices_and_5000_cash(seats: int) -> None:
    state = Table(GAME, seats).state
    corners = [p.corner for p in state.players]
    assert corners == list(tables.CORNERS_FOR[seats])
    for p in state.players:
        assert p.king == p.corner and p.cash == 5000
        assert sorted(p.pieces) == ["bishop", "knight", "queen", "rook"]
        offices = board.offices(p.corner)
        assert sorted(p.pieces.values()) == sorted(offices) and len(offices) == 4
        # the Offices lie on the field row or column nearest the home side
        coords = [board.grid().coord(c) for c in offices]
        xs, ys = {x for x, _ in coords}, {y for _, y in coords}
        assert (len(ys) == 1 and ys <= {1, 8}) or (len(xs) == 1 and xs <= {1, 8})
    assert state.phase == "roll" and state.turn == 0


def test_two_players_take_opposite_corners() -> None:
    state = Table(GAME, 2).state
    assert [board.name(board.cell_of_position(p.corner)) for p in state.players] == ["a1", "j10"]


@pytest.mark.parametrize("count", [1, 5])
def test_two_to_four_players(count: int) -> None:
    with pytest.raises(InvalidOptions):
        GAME.start({"round_limit": 0, "clock_ms": 30_000}, seats_for(count), DecideContext(None, 0, DrawSource(b"x")))


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"round_limit": -1})
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"pawns": True})
    assert GAME.parse_options({}) == {"round_limit": 0, "clock_ms": 30_000}
