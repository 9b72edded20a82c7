"""Clocks and AFK: every decision has a clock; a run-out clock plays the safe move and makes
the seat AFK (2-second clocks) until it acts itself."""

from __future__ import annotations

import pytest
from pz_helpers import deadline, given, kinds, owns, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import BackFromAfk, DebtOpened
from puzzipolia.game import GAME
from puzzipolia.state import State
from tablehall_rules import PendingDecision


def turn_decision(state: State) -> PendingDecision:
    return next(d for d in GAME.pending(state) if d.seat == 0)


def test_the_turn_decision_uses_the_table_clock() -> None:
    state = given(table=started(3, clock_s=45))
    d = GAME.pending(state)[0]
    assert (d.seat, d.kind, d.clock, d.clock_ms) == (0, "roll", "decision", 45_000)


def test_the_turn_clock_runs_out_at_its_deadline_and_its_default_is_the_roll() -> None:
    state = given()
    assert deadline(state, 0) == 30_000  # the match refuses its default move before
    assert GAME.default_command(state, turn_decision(state)) == c.Roll()  # not EndTurn: the match checks it


def test_a_run_out_clock_plays_the_default_and_makes_the_seat_afk() -> None:
    state = given()
    events = when(state, c.Roll(), 0, now=31_000, timeout=True, dice=[1, 2])
    assert kinds(events)[:2] == ["ClockExpired", "DiceRolled"]  # the ladder reads the strike
    state = then(state, events)
    assert state.is_away(0) and state.afk.strikes[0] == 1
    d = GAME.pending(state)[0]
    assert (d.kind, d.clock_ms, d.opened_at_ms) == ("buy", 2_000, 31_000)
    assert GAME.default_command(state, d) == c.DeclineBuy()
    events = when(state, c.Buy(), 0, now=31_500)
    assert events[0] == BackFromAfk(seat=0, at_ms=31_500)
    assert not then(state, events).is_away(0)
    assert GAME.pending(then(state, events))[0].clock_ms == 30_000


def test_the_key_changes_once_the_decision_is_taken() -> None:
    state = given()
    before = GAME.pending(state)[0].key
    after = then(state, when(state, c.Roll(), dice=[1, 2]))
    assert GAME.pending(after)[0].key != before


@pytest.mark.parametrize(
    ("setup", "dice", "expected"),
    [
        ([], [], c.Roll()),
        ([], [1, 2], c.DeclineBuy()),
        (owns(0, 3), [1, 2], c.EndTurn()),
    ],
)
def test_default_moves(setup: list[object], dice: list[int], expected: object) -> None:
    state = given(*setup)  # type: ignore[arg-type]
    if dice:
        state = then(state, when(state, c.Roll(), dice=dice))
    assert GAME.default_command(state, GAME.pending(state)[0]) == expected


def test_a_debt_clock_defaults_to_collect_and_pay() -> None:
    state = given(*owns(0, 39), DebtOpened(debt_id=1, debtor=0, creditor=1, amount=1600, reason="rent"))
    d = GAME.pending(state)[0]
    assert d.kind == "debt" and GAME.default_command(state, d) == c.CollectDebt()
    events = when(state, c.CollectDebt(), 0, now=100_000, timeout=True)
    assert kinds(events) == ["ClockExpired", "AssetsLiquidated", "DebtPaid"]
    assert then(state, events).is_away(0)
