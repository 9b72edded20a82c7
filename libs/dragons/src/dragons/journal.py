"""The journal: a line per event in Russian and English, by the kit's convention
(`tablehall_rules.journal`: codes UPPER_SNAKE from the event type, every event a line).

A domino taken is told to everybody without its tile, and to its taker alone with it. An answer
to the domino choice is sealed: the others read only that the seat has chosen, until every seat
has answered and the takes and refusals are told together.
"""

from __future__ import annotations

from dragons import events as ev
from dragons.board import grid
from dragons.state import State
from tablehall_rules.journal import JournalEntry, Lines, entry, table_entry
from tablehall_rules.table import ControllerChanged, PresenceChanged

LINES = Lines()

KIND_RU = {
    "straight_line": "стрит по линии",
    "straight_diagonal": "стрит по диагонали",
    "four_line": "каре по линии",
    "four_diagonal": "каре по диагонали",
    "contour": "контур",
    "king_taken": "выбит король",
}
PIECE_RU = {1: "пешка", 2: "конь", 3: "слон", 4: "ладья", 5: "ферзь", 6: "король"}
PIECE_EN = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen", 6: "king"}


def _who(st: State, seat: int) -> str:
    return st.player(seat).name if st.has_seat(seat) else f"#{seat + 1}"


def _cell(cell: int) -> str:
    return grid().name_of(cell)


def _combos(combos: list[ev.Combo]) -> tuple[str, str]:
    if not combos:
        return "", ""
    total = sum(c.points for c in combos)
    ru = ", ".join(f"{KIND_RU[c.kind]} {c.points}" for c in combos)
    en = ", ".join(f"{c.kind.replace('_', ' ')} {c.points}" for c in combos)
    return f" — {ru} (+{total})", f" — {en} (+{total})"


def _number(n: int) -> str:
    """A score as a person writes it: a true minus sign."""
    return f"−{-n}" if n < 0 else str(n)


@LINES.of(ev.GameStarted)
def _started(e: ev.GameStarted, st: State) -> JournalEntry:
    return entry(e, "Игра началась.", "The game has started.", params={})


@LINES.of(ev.StartDieRolled)
def _start_rolled(e: ev.StartDieRolled, st: State) -> JournalEntry:
    who = _who(st, e.seat)
    return entry(
        e,
        f"{who} бросает {e.face} для стартового кольца.",
        f"{who} rolls {e.face} for the start ring.",
        params={"seat": e.seat, "face": e.face},
    )


@LINES.of(ev.StartDiePlaced)
def _start_placed(e: ev.StartDiePlaced, st: State) -> JournalEntry:
    who = _who(st, e.seat)
    return entry(
        e,
        f"{who} ставит {e.face} на {_cell(e.cell)}.",
        f"{who} puts {e.face} on {_cell(e.cell)}.",
        params={"seat": e.seat, "cell": e.cell},
    )


@LINES.of(ev.SixesPlaced)
def _sixes(e: ev.SixesPlaced, st: State) -> JournalEntry:
    return entry(e, "Шестёрки встают на свои места.", "The sixes take their places.", params={})


@LINES.of(ev.RoundStarted)
def _round(e: ev.RoundStarted, st: State) -> JournalEntry:
    rolled = "; ".join(f"{_who(st, seat)} — {', '.join(map(str, dice))}" for seat, dice in enumerate(e.rolled))
    return entry(
        e,
        f"Круг {e.round}: выпало {rolled}.",
        f"Round {e.round}: rolled {rolled}.",
        params={"round": e.round, "rolled": e.rolled},
    )


@LINES.of(ev.TurnStarted)
def _turn(e: ev.TurnStarted, st: State) -> JournalEntry:
    who = _who(st, e.seat)
    return entry(e, f"Ходит {who}.", f"{who} to move.", params={"seat": e.seat})


@LINES.of(ev.DiePlaced)
def _die_placed(e: ev.DiePlaced, st: State) -> JournalEntry:
    who, (ru, en) = _who(st, e.seat), _combos(e.combos)
    return entry(
        e,
        f"{who} выставляет {e.face} на {_cell(e.cell)}{ru}.",
        f"{who} places {e.face} on {_cell(e.cell)}{en}.",
        params={"seat": e.seat, "cell": e.cell, "face": e.face},
    )


@LINES.of(ev.PieceMoved)
def _piece_moved(e: ev.PieceMoved, st: State) -> JournalEntry:
    who, (ru, en) = _who(st, e.seat), _combos(e.combos)
    path = f"{_cell(e.origin)}–{_cell(e.target)}"
    return entry(
        e,
        f"{who} отдаёт {e.face}: {PIECE_RU[e.piece]} {path}{ru}.",
        f"{who} gives up {e.face}: {PIECE_EN[e.piece]} {path}{en}.",
        params={"seat": e.seat, "origin": e.origin, "target": e.target, "captured": e.captured},
    )


@LINES.of(ev.DominoPlaced)
def _domino_placed(e: ev.DominoPlaced, st: State) -> JournalEntry:
    who, (ru, en) = _who(st, e.seat), _combos(e.combos)
    tile = f"{e.pips[0]}-{e.pips[1]}"
    return entry(
        e,
        f"{who} отдаёт {e.face} и выставляет доминошку {tile}{ru}.",
        f"{who} gives up {e.face} and lays the domino {tile}{en}.",
        params={"seat": e.seat, "cells": e.cells, "pips": e.pips},
    )


@LINES.of(ev.DieDiscarded)
def _discarded(e: ev.DieDiscarded, st: State) -> JournalEntry:
    who = _who(st, e.seat)
    return entry(
        e, f"{who} сбрасывает {e.face}: хода нет.", f"{who} gives up {e.face}: no move.", params={"seat": e.seat}
    )


@LINES.of(ev.ContourScored)
def _contour(e: ev.ContourScored, st: State) -> JournalEntry:
    who = _who(st, e.seat)
    return entry(
        e,
        f"{who} замыкает контур из {len(e.cells)} кубиков: +{e.points}; чёрный кубик {e.black_face}.",
        f"{who} closes a contour of {len(e.cells)} dice: +{e.points}; black die {e.black_face}.",
        params={"seat": e.seat, "points": e.points},
    )


@LINES.of(ev.BlackPlaced)
def _black(e: ev.BlackPlaced, st: State) -> JournalEntry:
    return entry(
        e,
        f"Чёрный {e.face} встаёт на {_cell(e.cell)}.",
        f"The black {e.face} goes on {_cell(e.cell)}.",
        params={"cell": e.cell},
    )


@LINES.of(ev.DominoChoiceOpened)
def _choice(e: ev.DominoChoiceOpened, st: State) -> JournalEntry:
    return entry(
        e, "Конец круга: можно взять доминошку.", "End of the round: a domino may be taken.", params={"seats": e.seats}
    )


@LINES.of(ev.DominoAnswered)
def _answered(e: ev.DominoAnswered, st: State) -> list[JournalEntry]:
    """Everybody reads that the seat has chosen; what it chose, the seat alone."""
    who = _who(st, e.seat)
    own_ru, own_en = (
        ("Вы берёте доминошку.", "You take a domino.") if e.take else ("Вы не берёте доминошку.", "You take no domino.")
    )
    return [
        entry(e, f"{who} сделал выбор.", f"{who} has chosen.", params={"seat": e.seat}),
        entry(e, own_ru, own_en, params={"seat": e.seat, "take": e.take}, audience=[e.seat]),
    ]


@LINES.of(ev.DominoTaken)
def _taken(e: ev.DominoTaken, st: State) -> list[JournalEntry]:
    """Everybody reads that the seat took a domino; which one, the seat alone."""
    who, tile = _who(st, e.seat), f"{e.tile.low}-{e.tile.high}"
    return [
        entry(e, f"{who} берёт доминошку.", f"{who} takes a domino.", params={"seat": e.seat}),
        entry(
            e,
            f"Вы берёте доминошку {tile}.",
            f"You take the domino {tile}.",
            params={"seat": e.seat, "tile": [e.tile.low, e.tile.high]},
            audience=[e.seat],
        ),
    ]


@LINES.of(ev.DominoDeclined)
def _declined(e: ev.DominoDeclined, st: State) -> JournalEntry:
    who = _who(st, e.seat)
    return entry(e, f"{who} не берёт доминошку.", f"{who} takes no domino.", params={"seat": e.seat})


@LINES.of(ev.ClockExpired)
def _clock(e: ev.ClockExpired, st: State) -> JournalEntry:
    who = _who(st, e.seat)
    return entry(e, f"У {who} вышло время.", f"{who}'s clock ran out.", params={"seat": e.seat, "kind": e.kind})


@LINES.of(ev.SeatActed)
def _acted(e: ev.SeatActed, st: State) -> JournalEntry:
    who = _who(st, e.seat)
    return entry(e, f"{who} снова играет сам.", f"{who} plays again.", params={"seat": e.seat})


@LINES.of(PresenceChanged, ControllerChanged)
def _table(e: PresenceChanged | ControllerChanged, st: State) -> JournalEntry:
    return table_entry(e, _who(st, e.seat))


@LINES.of(ev.GameEnded)
def _ended(e: ev.GameEnded, st: State) -> JournalEntry:
    final = ", ".join(f"{_who(st, seat)} {_number(score)}" for seat, score in enumerate(e.final))
    return entry(
        e,
        f"Игра окончена. Итог: {final}.",
        f"The game is over. Final scores: {final}.",
        params={"final": e.final, "places": e.places, "reason": e.reason},
    )
