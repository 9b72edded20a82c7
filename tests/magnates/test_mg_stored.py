"""What Магнаты stored before the game kit still reads: its snapshots keep the ladder under its old
name (a snapshot from before `absent` reads as everyone present), and its presence and hand-over
events decode as the platform's, under the same names and fields."""

from __future__ import annotations

import json

import msgspec

from magnates.game import GAME
from tablehall_rules import Viewer
from tablehall_rules.table import ControllerChanged, PresenceChanged
from tablehall_rules.testing import Table
from tablehall_stream.codecs import event_codec


def test_a_snapshot_of_before_the_kit_decodes_and_keeps_its_shape() -> None:
    state = Table(GAME, 3).state
    state.afk.afk[2], state.afk.strikes[2] = True, 2
    stored = json.loads(msgspec.json.encode(state))
    assert "ladder" in stored and "afk" not in stored, "the ladder keeps its stored name"
    del stored["ladder"]["absent"]  # as Магнаты stored it before the kit
    old = msgspec.json.decode(json.dumps(stored), type=GAME.state_type)
    assert old.afk.absent == [False, False, False] and old.afk.strikes == [0, 0, 2]
    assert GAME.view(old, Viewer.auditor()) == GAME.view(state, Viewer.auditor())


def test_stored_presence_and_hand_over_events_decode_as_the_platform_s() -> None:
    codec = event_codec("magnates")
    presence = codec.decode_stored(
        "PresenceChanged", 1, b'{"type":"PresenceChanged","seat":1,"present":false,"at_ms":5}'
    )
    controller = codec.decode_stored(
        "ControllerChanged", 1, b'{"type":"ControllerChanged","seat":2,"by_bot":true,"at_ms":6}'
    )
    assert presence == PresenceChanged(seat=1, present=False, at_ms=5)
    assert controller == ControllerChanged(seat=2, by_bot=True, at_ms=6)
    state = GAME.evolve(GAME.evolve(Table(GAME, 3).state, presence), controller)
    assert state.afk.is_absent(1) and state.afk.afk[1] and state.afk.by_bot[2]
