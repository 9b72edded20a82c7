"""Decisions: one open decision for the turn's player with its clock, safe defaults when it runs
out, the AFK ladder's short clock, and who may send what (whether a run-out clock's move is its
decision's default, past its deadline, the match checks: tests/match)."""

from __future__ import annotations

import pytest
from mg_helpers import NOW, cell, given, own, refused, when

from magnates import commands as c
from magnates.game import GAME
from magnates.state import State
from tablehall_rules import AFK_CLOCK_MS, PendingDecision
from tablehall_rules.table import (
    CloseTable,
    ControllerChanged,
    PresenceChanged,
    RemovePlayer,
    SetController,
    SetPresence,
)


def decision(state: State) -> PendingDecision:
    (only,) = GAME.pending(state)
    return only


def test_one_open_decision_for_the_turn_s_player_with_the_table_clock() -> None:
    state = given(3, clock_ms=20_000)
    d = decision(state)
    assert (d.seat, d.kind, d.clock_ms, d.audience) == (0, "roll", 20_000, None)


@pytest.mark.parametrize(
    ("phase", "default"),
    [
        ("roll", c.Roll()),
        ("king_stop", c.EndStop()),
        ("piece_stop", c.EndStop()),
        ("move", c.PassMove()),
        ("fine", c.PayFine()),
    ],
)
def test_safe_defaults(phase: str, default: object) -> None:
    state = given()
    state.phase = phase
    assert GAME.default_command(state, decision(state)) == default


def test_a_run_out_clock_rolls_and_marks_the_seat_afk_with_a_short_clock() -> None:
    state = given()
    d = decision(state)
    then = when(state, c.Roll(), dice=[3, 4], timed_out=d, now=d.deadline_ms)
    assert then.state.afk.afk[0] and then.state.afk.strikes[0] == 1
    assert decision(then.state).clock_ms == AFK_CLOCK_MS
    back = when(then.state, c.EndStop())  # acting itself brings the seat back
    assert not back.state.afk.afk[0]


def test_only_the_turn_s_player_moves_and_only_the_table_sends_system_commands() -> None:
    state = given()
    refused(state, c.Roll(), "NOT_YOUR_TURN", seat=1)
    refused(state, RemovePlayer(seat=1), "SYSTEM_ONLY", seat=0)
    refused(state, c.Roll(), "NOT_YOUR_TURN", seat=None)


def test_a_command_of_another_moment_is_refused() -> None:
    state = given()
    refused(state, c.BuyCompany(), "NOT_NOW")
    refused(state, c.PassMove(), "NOT_NOW")
    refused(state, c.PayFine(), "NOT_NOW")


def test_presence_and_bots_follow_the_afk_ladder() -> None:
    state = given()
    away = when(state, SetPresence(seat=1, present=False), seat=None)
    assert away.state.afk.afk[1] and away.state.afk.is_absent(1)
    bot = when(away.state, SetController(seat=1, by_bot=True), seat=None)
    assert bot.state.afk.by_bot[1] and not bot.state.afk.afk[1]
    back = when(bot.state, SetController(seat=1, by_bot=False), seat=None)
    assert not back.state.afk.by_bot[1]
    refused(state, SetPresence(seat=2, present=False), "NO_SUCH_SEAT", seat=None)
    refused(state, CloseTable(reason="bored"), "BAD_REASON", seat=None)


def test_a_presence_or_hand_over_the_ladder_shows_already_is_written_all_the_same() -> None:
    """As Магнаты always did (its recorded streams hold such repeats, and verify re-decides them):
    a person taking a bot's seat is a hand-back to a seat that no bot was handed."""
    state = given()
    assert [type(x) for x in when(state, SetPresence(seat=1, present=True), seat=None).events] == [PresenceChanged]
    state.afk.strikes[1], state.afk.afk[1] = 2, True
    taken = when(state, SetController(seat=1, by_bot=False), seat=None)
    assert taken.events == [ControllerChanged(seat=1, by_bot=False, at_ms=NOW)]
    assert not taken.state.afk.afk[1] and taken.state.afk.strikes[1] == 0


def test_removing_the_turn_s_player_passes_the_turn() -> None:
    state = given(3)
    own(state, "a2", 0)
    then = when(state, RemovePlayer(seat=0), seat=None)
    assert then.state.turn == 1 and then.state.phase == "roll"
    assert then.state.owner[cell("a2")] == -1
    refused(then.state, RemovePlayer(seat=0), "ALREADY_OUT", seat=None)


def test_nothing_is_played_after_the_end() -> None:
    state = when(given(), CloseTable(reason="operator"), seat=None).state
    refused(state, c.Roll(), "GAME_OVER")
    assert GAME.pending(state) == []


def test_removing_the_creditor_of_an_open_fine_turns_it_into_an_unowned_company() -> None:
    state = given(3)
    d4 = own(state, "d4", 1)
    state.players[0].pieces = {"rook": cell("d2")}
    state.phase, state.blue = "move", 2
    fine = when(state, c.MovePiece(piece="rook", to=d4)).state
    assert fine.phase == "fine"
    then = when(fine, RemovePlayer(seat=1), seat=None)
    assert then.state.phase == "piece_stop" and then.state.stop is not None and then.state.stop.company
