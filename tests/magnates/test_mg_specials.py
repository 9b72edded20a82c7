"""The special cells: Инвестиции, Арбитраж, Субсидии, Санкции, and «Магазины фигур» (the Bank and
the four special cells) where lost pieces are bought back."""

from __future__ import annotations

import pytest
from mg_helpers import cell, king_at, of, own, put

from magnates import board
from magnates import commands as c
from magnates import events as e
from magnates.game import GAME
from magnates.state import State
from tablehall_rules import clone
from tablehall_rules.testing import Table

INVEST, ARBITRAGE, SUBSIDY, SANCTION = 2, 4, 6, 8  # positions on the west side


def test_investment_upgrades_one_own_company_one_level_for_half_its_price() -> None:
    table = Table(GAME)
    state = table.state
    a2, b10 = own(state, "a2", 0), own(state, "b10", 0)
    table.play(c.Roll(), dice=(INVEST, 1))
    ups = {m.cell for m in table.legal() if isinstance(m, c.Upgrade)}
    assert ups == {a2, b10}
    table.play(c.Upgrade(cell=a2))
    assert table.state.level[a2] == 1 and table.state.players[0].cash == 5000 - 150


def test_investment_stops_at_level_three_and_at_the_cash_at_hand() -> None:
    def at_cash(cash: int) -> Table[State]:
        table = Table(GAME)
        own(table.state, "a2", 0, level=3)
        own(table.state, "b10", 0)
        table.state.players[0].cash = cash
        table.play(c.Roll(), dice=(INVEST, 1))
        return table

    assert at_cash(200).state.phase == "move"  # b10's upgrade costs 210: nothing to upgrade, no decision
    table = at_cash(5000)
    assert {m.cell for m in table.legal() if isinstance(m, c.Upgrade)} == {cell("b10")}
    table.refused(c.Upgrade(cell=cell("a2")), "CANNOT_UPGRADE")


def test_investment_cannot_upgrade_an_enemy_company() -> None:
    table = Table(GAME)
    state = table.state
    own(state, "a2", 0)
    b10 = own(state, "b10", 1)
    table.play(c.Roll(), dice=(INVEST, 1))
    table.refused(c.Upgrade(cell=b10), "CANNOT_UPGRADE")


@pytest.mark.parametrize("value", [1, 2])
def test_arbitrage_one_or_two_pays_300(value: int) -> None:
    table = Table(GAME)
    events = table.play(c.Roll(), dice=(ARBITRAGE, 1, value))
    assert [(p.payer, p.payee, p.amount, p.reason) for p in of(events, e.Paid)] == [(0, -1, 300, "arbitrage")]


@pytest.mark.parametrize("value", [3, 4])
def test_arbitrage_three_or_four_does_nothing(value: int) -> None:
    table = Table(GAME)
    state = table.state
    own(state, "j9", 1)
    events = table.play(c.Roll(), dice=(ARBITRAGE, 1, value))
    assert not of(events, e.Paid) and table.state.phase == "move"


@pytest.mark.parametrize("value", [5, 6])
def test_arbitrage_five_or_six_buys_an_enemy_company_for_price_and_upgrades_paid_to_its_owner(value: int) -> None:
    table = Table(GAME)
    state = table.state
    j9 = own(state, "j9", 1, level=2)
    table.play(c.Roll(), dice=(ARBITRAGE, 1, value))
    assert [m for m in table.legal() if isinstance(m, c.ArbitrageBuy)] == [c.ArbitrageBuy(cell=j9)]
    table.play(c.ArbitrageBuy(cell=j9))
    assert table.state.owner[j9] == 0 and table.state.level[j9] == 2
    assert table.state.players[0].cash == 5000 - (560 + 2 * 280)
    assert table.state.players[1].cash == 5000 + 560 + 2 * 280


def test_arbitrage_cannot_buy_an_unowned_or_own_company() -> None:
    table = Table(GAME)
    state = table.state
    mine = own(state, "a2", 0)
    own(state, "j9", 1)
    table.play(c.Roll(), dice=(ARBITRAGE, 1, 6))
    table.refused(c.ArbitrageBuy(cell=mine), "CANNOT_ARBITRAGE")
    table.refused(c.ArbitrageBuy(cell=cell("a4")), "CANNOT_ARBITRAGE")


@pytest.mark.parametrize(("companies", "amount"), [(0, 200), (1, 200), (2, 200), (3, 300), (5, 500)])
def test_subsidy_pays_100_per_own_company_at_least_200(companies: int, amount: int) -> None:
    table = Table(GAME)
    state = table.state
    for c_ in board.company_cells()[:companies]:
        own(state, c_, 0)
    king_at(state, 0, 1)
    events = table.play(c.Roll(), dice=(SUBSIDY - 1, 1))
    assert [(p.payee, p.amount) for p in of(events, e.Paid) if p.reason == "subsidy"] == [(0, amount)]


@pytest.mark.parametrize(("companies", "amount"), [(0, 200), (2, 200), (4, 400)])
def test_sanction_takes_100_per_own_company_at_least_200(companies: int, amount: int) -> None:
    table = Table(GAME)
    state = table.state
    for c_ in board.company_cells()[:companies]:
        own(state, c_, 0)
    king_at(state, 0, 3)
    events = table.play(c.Roll(), dice=(SANCTION - 3, 1))
    assert [(p.payer, p.payee, p.amount) for p in of(events, e.Paid) if p.reason == "sanction"] == [(0, -1, amount)]


@pytest.mark.parametrize(("start", "white"), [(5, 4), (0, INVEST), (0, ARBITRAGE), (1, SUBSIDY - 1), (3, SANCTION - 3)])
def test_the_bank_and_the_four_special_cells_are_piece_shops(start: int, white: int) -> None:
    table = Table(GAME)
    state = table.state
    del state.players[0].pieces["knight"]
    king_at(state, 0, start)
    dice = [white, 1] + ([3] if start + white == ARBITRAGE else [])
    table.play(c.Roll(), dice=dice)
    assert any(isinstance(m, c.BuyPiece) and m.piece == "knight" for m in table.legal())


def test_a_company_is_no_shop() -> None:
    table = Table(GAME)
    state = table.state
    del state.players[0].pieces["knight"]
    table.play(c.Roll(), dice=(3, 1))  # a4, a Company
    assert not any(isinstance(m, c.BuyPiece) for m in table.legal())


def test_only_lost_pieces_are_bought_queen_2000_others_1000() -> None:
    table = Table(GAME)
    state = table.state
    del state.players[0].pieces["queen"]
    del state.players[0].pieces["bishop"]
    king_at(state, 0, 5)
    table.play(c.Roll(), dice=(4, 1))
    offered = {m.piece for m in table.legal() if isinstance(m, c.BuyPiece)}
    assert offered == {"queen", "bishop"}
    office = cell("e2")  # the queen's Office, free now
    table.refused(c.BuyPiece(piece="rook", office=office), "CANNOT_BUY_PIECE")
    bishop = Table.from_state(GAME, clone(table.state))
    table.play(c.BuyPiece(piece="queen", office=office))
    assert table.state.players[0].cash == 5600 - 2000
    bishop.play(c.BuyPiece(piece="bishop", office=office))
    assert bishop.state.players[0].cash == 5600 - 1000 and bishop.state.players[0].pieces["bishop"] == office


def test_a_bought_piece_goes_to_a_free_own_office_when_there_is_one() -> None:
    table = Table(GAME)
    state = table.state
    del state.players[0].pieces["queen"]
    king_at(state, 0, 5)
    table.play(c.Roll(), dice=(4, 1))
    assert {m.office for m in table.legal() if isinstance(m, c.BuyPiece)} == {cell("e2")}
    table.refused(c.BuyPiece(piece="queen", office=cell("d2")), "NOT_AN_OFFICE")  # the rook's
    table.refused(c.BuyPiece(piece="queen", office=cell("e9")), "NOT_AN_OFFICE")  # an enemy Office


def test_with_no_free_office_the_occupant_of_the_chosen_one_leaves_the_board() -> None:
    table = Table(GAME)
    state = table.state
    del state.players[0].pieces["queen"]
    put(state, 1, "knight", "e2")  # an enemy piece on the free Office
    king_at(state, 0, 5)
    table.play(c.Roll(), dice=(4, 1))
    assert {m.office for m in table.legal() if isinstance(m, c.BuyPiece)} == {
        cell("d2"),
        cell("e2"),
        cell("f2"),
        cell("g2"),
    }
    events = table.play(c.BuyPiece(piece="queen", office=cell("e2")))
    assert [(p.seat, p.piece, p.reason) for p in of(events, e.PieceLost)] == [(1, "knight", "displaced")]
    assert "knight" not in table.state.players[1].pieces
    assert table.state.players[0].pieces["queen"] == cell("e2")
