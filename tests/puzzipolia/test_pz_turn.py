"""The turn: two dice, move the sum, doubles roll again, third doubles to jail, Start +200, rounds."""

from __future__ import annotations

from pz_helpers import at, given, kinds, money, of, refused, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import GameEnded, Moved, PhaseChanged, SalaryPaid, SentToJail, TurnStarted


def test_roll_moves_the_sum_of_two_dice() -> None:
    state = given()
    events = when(state, c.Roll(), dice=[2, 3])
    assert of(events, Moved)[0].to_square == 5
    assert then(state, events).player(0).position == 5


def test_no_doubles_waits_for_the_end_of_the_turn() -> None:
    state = given()
    events = when(state, c.Roll(), dice=[1, 2])  # 3: Baltic Avenue, unowned
    state = then(state, events)
    assert state.phase == "buy"
    state = then(state, when(state, c.DeclineBuy()))
    state = then(state, when(state, c.PassAuction(), 0))
    state = then(state, when(state, c.PassAuction(), 1))
    state = then(state, when(state, c.PassAuction(), 2))
    assert state.phase == "end"
    refused(state, c.Roll(), "WRONG_PHASE")
    events = when(state, c.EndTurn())
    assert of(events, TurnStarted) == [TurnStarted(seat=1, round=1, at_ms=1000)]


def test_doubles_roll_again() -> None:
    state = given()
    events = when(state, c.Roll(), dice=[5, 5])  # 10: jail, just visiting
    assert of(events, PhaseChanged)[-1].phase == "roll"
    state = then(state, events)
    assert state.phase == "roll" and state.active == 0


def test_third_doubles_go_to_jail_without_moving() -> None:
    state = given()
    state = then(state, when(state, c.Roll(), dice=[5, 5]))  # -> 10
    state = then(state, when(state, c.Roll(), dice=[5, 5]))  # -> 20 free parking
    events = when(state, c.Roll(), dice=[3, 3])
    assert kinds(events) == ["DiceRolled", "SentToJail"]
    assert of(events, SentToJail)[0].reason == "three_doubles"
    state = then(state, events)
    assert state.player(0).in_jail and state.player(0).position == 10 and state.phase == "end"


def test_passing_start_pays_200() -> None:
    state = given(at(0, 36))
    events = when(state, c.Roll(), dice=[3, 4])  # 36 + 7 = 43 -> 3
    assert of(events, SalaryPaid) == [SalaryPaid(seat=0, amount=200, at_ms=1000)]
    assert then(state, events).player(0).money == 1700


def test_landing_on_start_pays_200() -> None:
    state = given(at(0, 34))
    events = when(state, c.Roll(), dice=[2, 4])  # 34 + 6 = 40 -> 0
    assert of(events, Moved)[0].to_square == 0
    assert of(events, SalaryPaid)[0].amount == 200


def test_not_your_turn() -> None:
    refused(given(), c.Roll(), "NOT_YOUR_TURN", 1)


def test_round_advances_after_everybody_played() -> None:
    state = given(table=started(2))
    state = then(state, when(state, c.Roll(), dice=[1, 3]))  # income tax debt
    state = then(state, when(state, c.PayDebt()))
    state = then(state, when(state, c.EndTurn()))
    assert (state.active, state.round) == (1, 1)
    state = then(state, when(state, c.Roll(), 1, dice=[1, 3]))
    state = then(state, when(state, c.PayDebt(), 1))
    events = when(state, c.EndTurn(), 1)
    assert of(events, TurnStarted)[0] == TurnStarted(seat=0, round=2, at_ms=1000)


def test_round_limit_ends_the_game_with_places_by_net_worth() -> None:
    state = given(money(1, 500), table=started(2, round_limit=1))
    state = then(state, when(state, c.Roll(), dice=[1, 3]))
    state = then(state, when(state, c.PayDebt()))
    state = then(state, when(state, c.EndTurn()))
    state = then(state, when(state, c.Roll(), 1, dice=[6, 4]))  # jail, visiting
    events = when(state, c.EndTurn(), 1)
    ended = of(events, GameEnded)[0]
    assert ended.reason == "round_limit"
    assert ended.places == [[1], [0]]
    assert ended.scores == {0: 1300, 1: 2000}
