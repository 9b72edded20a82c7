"""The journal convention (`tablehall_rules.journal`): codes, silence, missing lines."""

from __future__ import annotations

import msgspec
import pytest

from tablehall_rules.journal import JournalEntry, Lines, MissingLine, entry, event_code, table_entry
from tablehall_rules.table import ControllerChanged, PresenceChanged


class DieRolled(msgspec.Struct, frozen=True, tag="DieRolled"):
    seat: int
    face: int
    at_ms: int = 0


class PhaseChanged(msgspec.Struct, frozen=True, tag="PhaseChanged"):
    phase: str


class TradeAccepted(msgspec.Struct, frozen=True, tag="TradeAccepted"):
    offer: int


def test_codes_are_upper_snake_of_the_event_type() -> None:
    assert event_code(DieRolled) == "DIE_ROLLED"
    assert event_code(PresenceChanged) == "PRESENCE_CHANGED"


def test_an_entry_carries_the_events_fields_without_its_stamp() -> None:
    e = entry(DieRolled(seat=1, face=6, at_ms=99), "Выпало 6.", "Rolled 6.")
    assert e == JournalEntry(code="DIE_ROLLED", params={"seat": 1, "face": 6}, ru="Выпало 6.", en="Rolled 6.")


def test_lines_silence_and_missing() -> None:
    lines = Lines(silent=[PhaseChanged])

    @lines.of(DieRolled)
    def _rolled(event: DieRolled, state: object) -> JournalEntry:
        return entry(event, f"Выпало {event.face}.", f"Rolled {event.face}.")

    assert lines.entries(None, PhaseChanged("x")) == []
    assert [e.en for e in lines.entries(None, DieRolled(seat=0, face=3))] == ["Rolled 3."]
    assert lines.missing([DieRolled, PhaseChanged, TradeAccepted]) == ["TradeAccepted"]
    with pytest.raises(MissingLine):
        lines.entries(None, TradeAccepted(1))
    with pytest.raises(ValueError):
        lines.of(PhaseChanged)(_rolled)


def test_table_events_read_in_both_languages() -> None:
    gone = table_entry(PresenceChanged(seat=0, present=False), "Аня")
    bot = table_entry(ControllerChanged(seat=0, by_bot=True), "Аня")
    back = table_entry(ControllerChanged(seat=0, by_bot=False), "Аня")
    assert gone.code == "PRESENCE_CHANGED" and "Аня" in gone.ru and "left" in gone.en
    assert bot.code == "CONTROLLER_CHANGED" and "бот" in bot.ru and "bot" in bot.en
    assert back.ru != bot.ru and back.en != bot.en
