"""The end: the last player standing wins; with a round limit the highest net worth (cash +
prices + upgrades + pieces) wins, equal worth is a draw; a closed table ranks by net worth."""

from __future__ import annotations

from mg_helpers import own

from magnates import commands as c
from magnates.game import GAME
from magnates.rules.worth import net_worth
from magnates.state import State
from tablehall_rules.table import CloseTable, RemovePlayer
from tablehall_rules.testing import Table


def last_turn_of_round(limit: int = 1) -> Table[State]:
    table = Table(GAME, 2, {"round_limit": limit})
    state = table.state
    state.turn, state.round, state.phase, state.blue = 1, limit, "move", 2
    return table


def test_net_worth_is_cash_plus_prices_plus_upgrades_plus_pieces() -> None:
    state = Table(GAME).state
    own(state, "a2", 0, level=2)
    assert net_worth(state, 0) == 5000 + 300 + 2 * 150 + 2000 + 3 * 1000
    del state.players[0].pieces["queen"]
    assert net_worth(state, 0) == 5000 + 600 + 3000


def test_the_round_limit_ends_the_game_after_the_last_turn_of_the_round() -> None:
    table = last_turn_of_round()
    state = table.state
    state.players[1].cash = 6000
    table.play(c.PassMove())
    assert table.state.phase == "over" and table.state.end_reason == "round_limit"
    assert table.state.places == [[1], [0]]
    outcome = GAME.outcome(table.state)
    assert outcome is not None and outcome.scores == {0: 10000, 1: 11000}


def test_equal_net_worth_at_the_round_limit_is_a_draw() -> None:
    table = last_turn_of_round()
    table.play(c.PassMove())
    assert table.state.places == [[0, 1]]


def test_no_round_limit_no_end_by_rounds() -> None:
    table = Table(GAME, 2)
    state = table.state
    state.turn, state.round, state.phase, state.blue = 1, 50, "move", 2
    table.play(c.PassMove())
    assert table.state.phase == "roll" and table.state.round == 51


def test_a_mid_round_turn_does_not_end_the_game() -> None:
    table = Table(GAME, 2, {"round_limit": 1})
    state = table.state
    state.phase, state.blue = "move", 2
    table.play(c.PassMove())
    assert table.state.phase == "roll" and table.state.turn == 1


def test_eliminated_players_rank_after_the_live_ones_the_last_out_first() -> None:
    table = Table(GAME, 4, {"round_limit": 3})
    for seat in (2, 0):
        table.play(RemovePlayer(seat=seat), seat=None)
    table.play(CloseTable(reason="idle"), seat=None)
    assert table.state.places == [[1, 3], [0], [2]]
    assert table.state.end_reason == "closed"


def test_the_last_player_standing_wins() -> None:
    table = Table(GAME, 3)
    table.play(RemovePlayer(seat=1), seat=None)
    table.play(RemovePlayer(seat=0), seat=None)
    assert table.state.phase == "over" and table.state.places == [[2], [0], [1]]
    assert table.state.end_reason == "last_standing"
