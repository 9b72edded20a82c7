"""The end: the last player standing wins; with a round limit the highest net worth (cash +
prices + upgrades + pieces) wins, equal worth is a draw; a closed table ranks by net worth."""

from __future__ import annotations

from mg_helpers import given, own, when

from magnates import commands as c
from magnates.game import GAME
from magnates.rules.worth import net_worth
from magnates.state import State
from tablehall_rules.table import CloseTable, RemovePlayer


def last_turn_of_round(limit: int = 1) -> State:
    state = given(2, round_limit=limit)
    state.turn, state.round, state.phase, state.blue = 1, limit, "move", 2
    return state


def test_net_worth_is_cash_plus_prices_plus_upgrades_plus_pieces() -> None:
    state = given()
    own(state, "a2", 0, level=2)
    assert net_worth(state, 0) == 5000 + 300 + 2 * 150 + 2000 + 3 * 1000
    del state.players[0].pieces["queen"]
    assert net_worth(state, 0) == 5000 + 600 + 3000


def test_the_round_limit_ends_the_game_after_the_last_turn_of_the_round() -> None:
    state = last_turn_of_round()
    state.players[1].cash = 6000
    then = when(state, c.PassMove())
    assert then.state.phase == "over" and then.state.end_reason == "round_limit"
    assert then.state.places == [[1], [0]]
    outcome = GAME.outcome(then.state)
    assert outcome is not None and outcome.scores == {0: 10000, 1: 11000}


def test_equal_net_worth_at_the_round_limit_is_a_draw() -> None:
    then = when(last_turn_of_round(), c.PassMove())
    assert then.state.places == [[0, 1]]


def test_no_round_limit_no_end_by_rounds() -> None:
    state = given(2)
    state.turn, state.round, state.phase, state.blue = 1, 50, "move", 2
    then = when(state, c.PassMove())
    assert then.state.phase == "roll" and then.state.round == 51


def test_a_mid_round_turn_does_not_end_the_game() -> None:
    state = given(2, round_limit=1)
    state.phase, state.blue = "move", 2
    then = when(state, c.PassMove())
    assert then.state.phase == "roll" and then.state.turn == 1


def test_eliminated_players_rank_after_the_live_ones_the_last_out_first() -> None:
    state = given(4, round_limit=3)
    for seat in (2, 0):
        then = when(state, RemovePlayer(seat=seat), seat=None)
        state = then.state
    closed = when(state, CloseTable(reason="idle"), seat=None)
    assert closed.state.places == [[1, 3], [0], [2]]
    assert closed.state.end_reason == "closed"


def test_the_last_player_standing_wins() -> None:
    state = given(3)
    state = when(state, RemovePlayer(seat=1), seat=None).state
    then = when(state, RemovePlayer(seat=0), seat=None)
    assert then.state.phase == "over" and then.state.places == [[2], [0], [1]]
    assert then.state.end_reason == "last_standing"
