"""Ним's journal lines (the kit's convention: every event a line or silent)."""

from __future__ import annotations

from nim.rules import Ended, Left, Started, State, Took
from tablehall_rules.journal import JournalEntry, Lines, entry, table_entry
from tablehall_rules.table import ControllerChanged, PresenceChanged

LINES = Lines()


def _name(state: State, seat: int) -> str:
    return state.seats[seat].name


@LINES.of(Started)
def _started(event: Started, state: State | None) -> JournalEntry:
    heaps = ", ".join(map(str, event.heaps))
    return entry(event, f"Кучки: {heaps}.", f"Heaps: {heaps}.", params={"heaps": event.heaps})


@LINES.of(Took)
def _took(event: Took, state: State) -> JournalEntry:
    who = _name(state, event.seat)
    late = " (время вышло)" if event.timeout else ""
    late_en = " (clock ran out)" if event.timeout else ""
    return entry(
        event,
        f"{who}: взято {event.count} из кучки {event.heap + 1}{late}.",
        f"{who} took {event.count} from heap {event.heap + 1}{late_en}.",
    )


@LINES.of(Left)
def _left(event: Left, state: State) -> JournalEntry:
    who = _name(state, event.seat)
    return entry(event, f"{who}: выбыл из игры.", f"{who} is out of the game.")


@LINES.of(Ended)
def _ended(event: Ended, state: State) -> JournalEntry:
    winners = ", ".join(_name(state, s) for s in event.places[0])
    return entry(event, f"Игра окончена. Победа: {winners}.", f"The game is over. Won: {winners}.")


@LINES.of(PresenceChanged, ControllerChanged)
def _table(event: PresenceChanged | ControllerChanged, state: State) -> JournalEntry:
    return table_entry(event, _name(state, event.seat))
