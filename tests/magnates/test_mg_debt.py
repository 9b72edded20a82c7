"""Debt: a payment beyond the cash sells upgrades at half cost, then Companies to the bank at half
price, cheapest first, then pieces at half price, cheapest first (never the King); still short,
the player pays what it has and is eliminated."""

from __future__ import annotations

from mg_helpers import cell, clear_pieces, king_at, of, own

from magnates import commands as c
from magnates import events as e
from magnates.game import GAME
from magnates.state import State
from tablehall_rules.testing import Table

SANCTION_FROM_3 = [5, 1]  # a4 → a9 Санкции


def sanctioned(cash: int) -> Table[State]:
    table = Table(GAME)
    state = table.state
    king_at(state, 0, 3)
    state.players[0].cash = cash
    return table


def test_upgrades_are_sold_first_at_half_cost_cheapest_first_until_the_debt_is_covered() -> None:
    table = sanctioned(100)
    state = table.state
    clear_pieces(state, 0)
    a2, b10 = own(state, "a2", 0, level=2), own(state, "b10", 0, level=1)
    own(state, "j9", 0)
    events = table.play(c.Roll(), dice=SANCTION_FROM_3)  # 3 Companies: 300
    sales = [(x.cell, x.owner, x.level) for x in of(events, e.CompanyChanged)]
    assert sales == [(a2, 0, 1), (a2, 0, 0), (b10, 0, 0)]
    assert [p.amount for p in of(events, e.Paid)] == [75, 75, 105, 300]
    assert table.state.players[0].cash == 100 + 255 - 300
    assert table.state.owner[a2] == table.state.owner[b10] == 0  # no Company had to go


def test_then_companies_go_to_the_bank_at_half_price_cheapest_first() -> None:
    table = sanctioned(0)
    state = table.state
    clear_pieces(state, 0)
    a4, b10, j9 = own(state, "a4", 0), own(state, "b10", 0), own(state, "j9", 0)
    events = table.play(c.Roll(), dice=SANCTION_FROM_3)
    assert [(x.cell, x.owner) for x in of(events, e.CompanyChanged)] == [(a4, -1), (b10, -1)]
    assert table.state.owner[j9] == 0 and table.state.players[0].cash == 160 + 210 - 300


def test_then_pieces_at_half_price_cheapest_first_never_the_king() -> None:
    table = Table(GAME)
    state = table.state
    king_at(state, 0, 33)
    state.players[0].cash = 0
    own(state, "c1", 1, level=3)  # fine 170 × 7.5 = 1275
    events = table.play(c.Roll(), dice=(1, 1))
    assert [x.piece for x in of(events, e.PieceLost)] == ["knight", "bishop", "rook"]
    assert table.state.players[0].pieces == {"queen": cell("e2")}
    assert table.state.players[0].alive and table.state.players[0].king == 34
    assert table.state.players[0].cash == 1500 - 1275 and table.state.players[1].cash == 5000 + 1275


def test_still_short_the_player_pays_what_it_has_and_is_eliminated() -> None:
    table = Table(GAME)
    state = table.state
    clear_pieces(state, 0)
    king_at(state, 0, 33)
    state.players[0].cash = 0
    a2 = own(state, "a2", 0)
    own(state, "c1", 1, level=3)
    events = table.play(c.Roll(), dice=(1, 1))
    assert [(p.payer, p.payee, p.amount) for p in of(events, e.Paid)] == [(-1, 0, 150), (0, 1, 150)]
    assert not table.state.players[0].alive and table.state.owner[a2] == -1
    assert table.state.places == [[1], [0]] and table.state.end_reason == "last_standing"


def test_a_three_player_game_goes_on_after_a_debt_elimination() -> None:
    table = Table(GAME, 3)
    state = table.state
    clear_pieces(state, 0)
    king_at(state, 0, 33)
    state.players[0].cash = 0
    own(state, "c1", 1, level=3)
    table.play(c.Roll(), dice=(1, 1))
    assert not table.state.players[0].alive and table.state.phase == "roll" and table.state.turn == 1
    assert table.state.out_order == [0]
