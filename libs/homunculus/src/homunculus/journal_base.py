"""What every journal module of Гомункул writes with: the seats' names while one event's
lines are written, the entry constructor and the dispatch on the event type (the table's
lines register in `homunculus.journal`, the ring's in `homunculus.ring.journal`)."""

from __future__ import annotations

from contextvars import ContextVar
from functools import singledispatch
from typing import Any

import msgspec

from tablehall_rules.journal import JournalEntry

# the seats' names while one event's lines are written (from the state: the table's seats)
_NAMES: ContextVar[tuple[str, ...]] = ContextVar("homunculus_journal_names", default=())


def _ru(seat: int) -> str:
    """A seat as the journal names it: the player's name (a seat without one: «Игрок N», from 1)."""
    names = _NAMES.get()
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"Игрок {seat + 1}"


def _en(seat: int) -> str:
    names = _NAMES.get()
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"Player {seat + 1}"


def _line(code: str, params: dict[str, Any], ru: str, en: str, audience: list[int] | None = None) -> JournalEntry:
    return JournalEntry(code=code, params=params, ru=ru, en=en, audience=audience)


@singledispatch
def _lines(event: msgspec.Struct) -> list[JournalEntry]:
    return []  # bookkeeping events (phases, acted, effects) write no line
