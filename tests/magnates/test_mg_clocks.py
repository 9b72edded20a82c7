"""Decisions: one open decision for the turn's player with its clock, safe defaults when it runs
out, the AFK ladder's short clock, and who may send what (whether a run-out clock's move is its
decision's default, past its deadline, the match checks: tests/match)."""

from __future__ import annotations

import pytest
from mg_helpers import cell, own

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
from tablehall_rules.testing import NOW_MS, Table


def decision(table: Table[State]) -> PendingDecision:
    (only,) = table.pending()
    return only


def test_one_open_decision_for_the_turn_s_player_with_the_table_clock() -> None:
    d = decision(Table(GAME, 3, {"clock_ms": 20_000}))
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
    table = Table(GAME)
    table.state.phase = phase
    assert GAME.default_command(table.state, decision(table)) == default


def test_a_run_out_clock_rolls_and_marks_the_seat_afk_with_a_short_clock() -> None:
    table = Table(GAME)
    d = decision(table)
    table.play(c.Roll(), dice=(3, 4), timed_out=d, now_ms=d.deadline_ms)
    assert table.state.afk.afk[0] and table.state.afk.strikes[0] == 1
    assert decision(table).clock_ms == AFK_CLOCK_MS
    table.play(c.EndStop())  # acting itself brings the seat back
    assert not table.state.afk.afk[0]


def test_only_the_turn_s_player_moves_and_only_the_table_sends_system_commands() -> None:
    table = Table(GAME)
    table.refused(c.Roll(), "NOT_YOUR_TURN", seat=1)
    table.refused(RemovePlayer(seat=1), "SYSTEM_ONLY", seat=0)
    table.refused(c.Roll(), "NOT_YOUR_TURN", seat=None)


def test_a_command_of_another_moment_is_refused() -> None:
    table = Table(GAME)
    table.refused(c.BuyCompany(), "NOT_NOW")
    table.refused(c.PassMove(), "NOT_NOW")
    table.refused(c.PayFine(), "NOT_NOW")


def test_presence_and_bots_follow_the_afk_ladder() -> None:
    table = Table(GAME)
    table.play(SetPresence(seat=1, present=False), seat=None)
    assert table.state.afk.afk[1] and table.state.afk.is_absent(1)
    table.play(SetController(seat=1, by_bot=True), seat=None)
    assert table.state.afk.by_bot[1] and not table.state.afk.afk[1]
    table.play(SetController(seat=1, by_bot=False), seat=None)
    assert not table.state.afk.by_bot[1]
    table.refused(SetPresence(seat=2, present=False), "NO_SUCH_SEAT", seat=None)
    table.refused(CloseTable(reason="bored"), "BAD_REASON", seat=None)


def test_a_presence_or_hand_over_the_ladder_shows_already_is_written_all_the_same() -> None:
    """As Магнаты always did (its recorded streams hold such repeats, and verify re-decides them):
    a person taking a bot's seat is a hand-back to a seat that no bot was handed."""
    table = Table(GAME)
    assert table.play(SetPresence(seat=1, present=True), seat=None) == [
        PresenceChanged(seat=1, present=True, at_ms=NOW_MS)
    ]
    table.state.afk.strikes[1], table.state.afk.afk[1] = 2, True
    taken = table.play(SetController(seat=1, by_bot=False), seat=None)
    assert taken == [ControllerChanged(seat=1, by_bot=False, at_ms=NOW_MS)]
    assert not table.state.afk.afk[1] and table.state.afk.strikes[1] == 0


def test_removing_the_turn_s_player_passes_the_turn() -> None:
    table = Table(GAME, 3)
    state = table.state
    own(state, "a2", 0)
    table.play(RemovePlayer(seat=0), seat=None)
    assert table.state.turn == 1 and table.state.phase == "roll"
    assert table.state.owner[cell("a2")] == -1
    table.refused(RemovePlayer(seat=0), "ALREADY_OUT", seat=None)


def test_nothing_is_played_after_the_end() -> None:
    table = Table(GAME)
    table.play(CloseTable(reason="operator"), seat=None)
    table.refused(c.Roll(), "GAME_OVER", seat=0)
    assert table.pending() == []


def test_removing_the_creditor_of_an_open_fine_turns_it_into_an_unowned_company() -> None:
    table = Table(GAME, 3)
    state = table.state
    d4 = own(state, "d4", 1)
    state.players[0].pieces = {"rook": cell("d2")}
    state.phase, state.blue = "move", 2
    table.play(c.MovePiece(piece="rook", to=d4))
    assert table.state.phase == "fine"
    table.play(RemovePlayer(seat=1), seat=None)
    assert table.state.phase == "piece_stop" and table.state.stop is not None and table.state.stop.company
