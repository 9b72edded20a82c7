"""The platform's table commands on Гомункул (the kit's, with the game's own consequences): a
player who drops is AFK at once (2-second clocks), a seat handed to a bot plays on normal clocks
with its strikes reset, removal and closing as the rules say; old streams' `RemoveSeat` decides
as `RemovePlayer`; the journal's convention; snapshots stored before the ladder knew absence."""

from __future__ import annotations

import msgspec
from hm_helpers import NOW

from homunculus import commands as c
from homunculus import events as e
from homunculus.events import EVENT_TYPES
from homunculus.game import GAME
from homunculus.journal import LINES
from homunculus.pending import turn_decision
from homunculus.state import State
from tablehall_rules import AFK_CLOCK_MS, SeatInfo
from tablehall_rules.journal import event_code
from tablehall_rules.table import (
    CloseTable,
    ControllerChanged,
    PresenceChanged,
    RemovePlayer,
    SetController,
    SetPresence,
)
from tablehall_rules.testing import Table

NAMES = [SeatInfo(seat=i, user_id=f"u{i}", name=name) for i, name in enumerate(["Анна", "Boris", "Вера"])]


def table(players: int = 2) -> Table[State]:
    return Table(GAME, seats=NAMES[:players], options={"clock_ms": 30_000}, seed=b"hm-table", now_ms=NOW)


def test_a_dropped_player_is_afk_at_once_with_the_short_clock_and_back_on_return() -> None:
    t = table()
    seat = t.state.turn
    assert turn_decision(t.state).clock_ms == 30_000
    assert t.play(SetPresence(seat=seat, present=False), seat=None) == [
        PresenceChanged(seat=seat, present=False, at_ms=NOW)
    ]
    assert t.state.afk.is_absent(seat) and t.state.afk.is_afk(seat)
    assert turn_decision(t.state).clock_ms == AFK_CLOCK_MS
    assert t.play(SetPresence(seat=seat, present=False), seat=None) == []  # already so: nothing
    t.play(SetPresence(seat=seat, present=True), seat=None)
    assert not t.state.afk.is_absent(seat)
    assert t.view(seat)["afk"]["absent"] == [False, False]


def test_a_seat_handed_to_a_bot_plays_on_normal_clocks_with_its_strikes_reset() -> None:
    t = table()
    seat = t.state.turn
    t.state.afk.afk[seat], t.state.afk.strikes[seat] = True, 2  # two clocked turns behind it
    assert turn_decision(t.state).clock_ms == AFK_CLOCK_MS
    assert t.play(SetController(seat=seat, by_bot=True), seat=None) == [
        ControllerChanged(seat=seat, by_bot=True, at_ms=NOW)
    ]
    assert t.state.afk.by_bot[seat] and t.state.afk.strikes[seat] == 0
    assert turn_decision(t.state).clock_ms == 30_000
    t.play(SetController(seat=seat, by_bot=False), seat=None)  # the player takes it back
    assert not t.state.afk.by_bot[seat] and not t.state.afk.is_afk(seat)


def test_a_removed_player_is_out_and_on_its_turn_the_turn_goes_on() -> None:
    t = table(3)
    seat = t.state.turn
    events = t.play(RemovePlayer(seat=seat), seat=None)
    assert e.Eliminated(seat, "removed") in events
    assert not t.state.alive[seat] and t.state.turn != seat and not t.state.finished
    t.refused(RemovePlayer(seat=seat), "NO_SUCH_PLAYER", seat=None)  # out already
    t.refused(RemovePlayer(seat=3), "NO_SUCH_SEAT", seat=None)


def test_removing_one_of_two_ends_the_game() -> None:
    t = table()
    t.play(RemovePlayer(seat=1), seat=None)
    assert t.state.finished and t.state.places == [[0], [1]]


def test_the_old_remove_seat_of_stored_streams_decides_as_remove_player() -> None:
    old, new = table(3), table(3)
    assert old.play(c.RemoveSeat(1), seat=None) == new.play(RemovePlayer(seat=1), seat=None)


def test_a_closed_table_ends_as_it_stands_the_live_players_sharing_first_place() -> None:
    t = table(3)
    t.play(RemovePlayer(seat=2), seat=None)
    events = t.play(CloseTable(reason="operator"), seat=None)
    assert events[-1] == e.Finished([[0, 1], [2]], "closed:operator")
    outcome = t.outcome()
    assert outcome is not None and outcome.places == [[0, 1], [2]]
    table().refused(CloseTable(reason="bored"), "BAD_REASON", seat=None)


def test_a_seat_may_not_send_a_table_command() -> None:
    t = table()
    for command in (SetPresence(seat=0, present=False), RemovePlayer(seat=1), c.RemoveSeat(1), CloseTable("idle")):
        t.refused(command, "SYSTEM_ONLY", seat=0)


def test_the_hooks_give_the_platforms_table_commands() -> None:
    assert GAME.presence_command(1, False) == SetPresence(seat=1, present=False)
    assert GAME.controller_command(1, True) == SetController(seat=1, by_bot=True)
    assert GAME.remove_command(1) == RemovePlayer(seat=1)
    assert GAME.close_command("idle") == CloseTable(reason="idle")


def test_every_event_has_a_line_or_is_silent_and_codes_are_upper_snake() -> None:
    assert LINES.missing(EVENT_TYPES) == []
    t = table()
    gone = PresenceChanged(seat=1, present=False)
    assert [(x.code, x.ru, x.en) for x in GAME.journal(t.state, gone)] == [
        ("PRESENCE_CHANGED", "Boris: нет за столом.", "Boris left the table.")
    ]
    bot = ControllerChanged(seat=0, by_bot=True)
    assert [(x.code, x.en) for x in GAME.journal(t.state, bot)] == [("CONTROLLER_CHANGED", "A bot plays for Анна.")]
    assert [x.code for x in GAME.journal(t.state, e.LotBought(0, 1, 6))] == [event_code(e.LotBought)]
    assert GAME.journal(t.state, e.PhaseSet("action", NOW)) == []  # declared silent


def test_a_snapshot_stored_before_the_ladder_knew_absence_loads_everyone_present() -> None:
    stored = msgspec.to_builtins(table().state)
    del stored["afk"]["absent"]
    state = msgspec.convert(stored, State)
    assert state.afk.absent == [False, False]
