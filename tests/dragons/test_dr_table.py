"""The platform's table commands on Драконы (the kit's, with the game's own consequences), the
journal's convention, and what tables stored before the game moved onto the kit read as now:
their events, and snapshots whose absence was kept per player."""

from __future__ import annotations

import msgspec
from dr_helpers import BLUE, NOW, RED, scene, table

from dragons.events import EVENT_TYPES, GameEnded
from dragons.game import GAME
from dragons.journal import LINES
from dragons.state import State
from tablehall_rules import StructCodec, Viewer
from tablehall_rules.journal import event_code
from tablehall_rules.table import ControllerChanged, PresenceChanged, RemovePlayer, SetController, SetPresence
from tablehall_rules.testing import Table


def _seat_view(t: Table[State], seat: int) -> dict[str, object]:
    players: list[dict[str, object]] = t.view(Viewer.spectator())["players"]
    return players[seat]


def test_a_dropped_player_is_absent_and_afk_once_and_back_on_return() -> None:
    t = table()
    events = t.play(SetPresence(seat=BLUE, present=False), seat=None)
    assert events == [PresenceChanged(seat=BLUE, present=False, at_ms=NOW)]
    assert _seat_view(t, BLUE)["absent"] is True and _seat_view(t, BLUE)["afk"] is True
    assert t.play(SetPresence(seat=BLUE, present=False), seat=None) == []  # already so: nothing
    t.play(SetPresence(seat=BLUE, present=True), seat=None)
    assert _seat_view(t, BLUE)["absent"] is False


def test_a_seat_handed_to_a_bot_and_back_but_never_a_bots_own_seat() -> None:
    t = table()
    t.play(SetController(seat=RED, by_bot=True), seat=None)
    assert _seat_view(t, RED)["by_bot"] is True
    t.play(SetController(seat=RED, by_bot=False), seat=None)
    assert _seat_view(t, RED)["by_bot"] is False
    t.state.player(BLUE).is_bot = True
    t.refused(SetController(seat=BLUE, by_bot=False), "BOT_SEAT", seat=None)
    t.refused(SetPresence(seat=2, present=False), "NO_SUCH_SEAT", seat=None)


def test_a_seat_may_not_send_a_table_command() -> None:
    table().refused(SetPresence(seat=RED, present=False), "SYSTEM_ONLY", seat=RED)


def test_every_event_has_a_line_and_its_code_is_the_event_type_in_upper_snake() -> None:
    assert LINES.missing(EVENT_TYPES) == []
    t = table()
    (ended,) = [e for e in scene(t).play(RemovePlayer(seat=RED), seat=None) if isinstance(e, GameEnded)]
    assert [e.code for e in GAME.journal(t.state, ended)] == ["GAME_ENDED"] == [event_code(GameEnded)]
    back = ControllerChanged(seat=RED, by_bot=True)
    assert [(e.code, e.en) for e in GAME.journal(t.state, back)] == [("CONTROLLER_CHANGED", "A bot plays for Red.")]


# --- tables stored before the move onto the kit -------------------------------------------------

CODEC = StructCodec(GAME.event_types, GAME.upcasters)


def test_stored_table_events_of_the_old_shape_decode_as_the_kits() -> None:
    # the game's own PresenceChanged/ControllerChanged had the same tags and fields, at_ms first
    old = b'{"type":"PresenceChanged","at_ms":5,"seat":1,"present":false}'
    assert CODEC.decode_stored("PresenceChanged", 1, old) == PresenceChanged(seat=1, present=False, at_ms=5)
    old = b'{"type":"ControllerChanged","at_ms":7,"seat":0,"by_bot":true}'
    assert CODEC.decode_stored("ControllerChanged", 1, old) == ControllerChanged(seat=0, by_bot=True, at_ms=7)


def _old_snapshot(st: State, absent_seat: int, ladder_knows: bool) -> bytes:
    """`st` as a snapshot written before the move: absence per player (and, before the kit's
    ladder had `absent`, nowhere else)."""
    data = msgspec.to_builtins(st)
    for player in data["players"]:
        player["absent"] = player["seat"] == absent_seat
    if not ladder_knows:
        del data["afk"]["absent"]
    return msgspec.json.encode(data)


def test_an_old_snapshot_keeps_who_is_absent_and_matches_the_replayed_state() -> None:
    replayed = table()
    replayed.play(SetPresence(seat=BLUE, present=False), seat=None)
    for ladder_knows in (False, True):
        snap = _old_snapshot(replayed.state, BLUE, ladder_knows)
        restored: State = msgspec.json.decode(snap, type=GAME.state_type)
        assert restored.afk.absent == [False, True]
        assert msgspec.json.encode(restored) == msgspec.json.encode(replayed.state)
        # the player's return is news, as it was before the move
        assert Table.from_state(GAME, restored).play(SetPresence(seat=BLUE, present=True), seat=None)
