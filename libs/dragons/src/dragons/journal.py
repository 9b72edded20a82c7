"""The journal: entries per event with a stable code, parameters and a line in Russian and English.

A domino taken is told to everybody without its tile, and to its taker alone with it. An answer
to the domino choice is sealed: the others read only that the seat has chosen, until every seat
has answered and the takes and refusals are told together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dragons import events as ev
from dragons.board import grid
from dragons.state import State
from tablehall_rules.journal import JournalEntry

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


def _cell(cell: int) -> str:
    return grid().name_of(cell)


def _combos(combos: list[ev.Combo]) -> tuple[str, str]:
    if not combos:
        return "", ""
    total = sum(c.points for c in combos)
    ru = ", ".join(f"{KIND_RU[c.kind]} {c.points}" for c in combos)
    en = ", ".join(f"{c.kind.replace('_', ' ')} {c.points}" for c in combos)
    return f" — {ru} (+{total})", f" — {en} (+{total})"


Line = tuple[str, str, dict[str, Any]]


def _number(n: int) -> str:
    """A score as a person writes it: a true minus sign."""
    return f"−{-n}" if n < 0 else str(n)


def _line(st: State, e: Any) -> Line:
    def who(seat: int) -> str:
        return st.player(seat).name if st.has_seat(seat) else f"#{seat + 1}"

    match e:
        case ev.GameStarted():
            return "Игра началась.", "The game has started.", {}
        case ev.StartDieRolled():
            return (
                f"{who(e.seat)} бросает {e.face} для стартового кольца.",
                f"{who(e.seat)} rolls {e.face} for the start ring.",
                {"seat": e.seat, "face": e.face},
            )
        case ev.StartDiePlaced():
            return (
                f"{who(e.seat)} ставит {e.face} на {_cell(e.cell)}.",
                f"{who(e.seat)} puts {e.face} on {_cell(e.cell)}.",
                {"seat": e.seat, "cell": e.cell},
            )
        case ev.SixesPlaced():
            return "Шестёрки встают на свои места.", "The sixes take their places.", {}
        case ev.RoundStarted():
            rolled = "; ".join(f"{who(seat)} — {', '.join(map(str, dice))}" for seat, dice in enumerate(e.rolled))
            return (
                f"Круг {e.round}: выпало {rolled}.",
                f"Round {e.round}: rolled {rolled}.",
                {"round": e.round, "rolled": e.rolled},
            )
        case ev.TurnStarted():
            return f"Ходит {who(e.seat)}.", f"{who(e.seat)} to move.", {"seat": e.seat}
        case ev.DiePlaced():
            ru, en = _combos(e.combos)
            return (
                f"{who(e.seat)} выставляет {e.face} на {_cell(e.cell)}{ru}.",
                f"{who(e.seat)} places {e.face} on {_cell(e.cell)}{en}.",
                {"seat": e.seat, "cell": e.cell, "face": e.face},
            )
        case ev.PieceMoved():
            ru, en = _combos(e.combos)
            return (
                f"{who(e.seat)} отдаёт {e.face}: {PIECE_RU[e.piece]} {_cell(e.origin)}–{_cell(e.target)}{ru}.",
                f"{who(e.seat)} gives up {e.face}: {PIECE_EN[e.piece]} {_cell(e.origin)}–{_cell(e.target)}{en}.",
                {"seat": e.seat, "origin": e.origin, "target": e.target, "captured": e.captured},
            )
        case ev.DominoPlaced():
            ru, en = _combos(e.combos)
            tile = f"{e.pips[0]}-{e.pips[1]}"
            return (
                f"{who(e.seat)} отдаёт {e.face} и выставляет доминошку {tile}{ru}.",
                f"{who(e.seat)} gives up {e.face} and lays the domino {tile}{en}.",
                {"seat": e.seat, "cells": e.cells, "pips": e.pips},
            )
        case ev.DieDiscarded():
            return (
                f"{who(e.seat)} сбрасывает {e.face}: хода нет.",
                f"{who(e.seat)} gives up {e.face}: no move.",
                {"seat": e.seat},
            )
        case ev.ContourScored():
            return (
                f"{who(e.seat)} замыкает контур из {len(e.cells)} кубиков: +{e.points}; чёрный кубик {e.black_face}.",
                f"{who(e.seat)} closes a contour of {len(e.cells)} dice: +{e.points}; black die {e.black_face}.",
                {"seat": e.seat, "points": e.points},
            )
        case ev.BlackPlaced():
            return (
                f"Чёрный {e.face} встаёт на {_cell(e.cell)}.",
                f"The black {e.face} goes on {_cell(e.cell)}.",
                {"cell": e.cell},
            )
        case ev.DominoChoiceOpened():
            return "Конец круга: можно взять доминошку.", "End of the round: a domino may be taken.", {"seats": e.seats}
        case ev.DominoAnswered():  # the answer itself goes to its seat alone (see `entries`)
            return f"{who(e.seat)} сделал выбор.", f"{who(e.seat)} has chosen.", {"seat": e.seat}
        case ev.DominoTaken():
            return f"{who(e.seat)} берёт доминошку.", f"{who(e.seat)} takes a domino.", {"seat": e.seat}
        case ev.DominoDeclined():
            return f"{who(e.seat)} не берёт доминошку.", f"{who(e.seat)} takes no domino.", {"seat": e.seat}
        case ev.ClockExpired():
            return f"У {who(e.seat)} вышло время.", f"{who(e.seat)}'s clock ran out.", {"seat": e.seat, "kind": e.kind}
        case ev.SeatActed():
            return f"{who(e.seat)} снова играет сам.", f"{who(e.seat)} plays again.", {"seat": e.seat}
        case ev.PresenceChanged():
            ru = "вернулся" if e.present else "вышел"
            return f"{who(e.seat)} {ru}.", f"{who(e.seat)} {'is back' if e.present else 'left'}.", {"seat": e.seat}
        case ev.ControllerChanged():
            return (
                f"За {who(e.seat)} {'играет бот' if e.by_bot else 'снова игрок'}.",
                f"{who(e.seat)} {'is played by a bot' if e.by_bot else 'is played by its player again'}.",
                {"seat": e.seat},
            )
        case ev.GameEnded():
            final = ", ".join(f"{who(seat)} {_number(score)}" for seat, score in enumerate(e.final))
            return (
                f"Игра окончена. Итог: {final}.",
                f"The game is over. Final scores: {final}.",
                {"final": e.final, "places": e.places, "reason": e.reason},
            )
    return "", "", {}


def entries(state_before: State, event: ev.Event) -> list[JournalEntry]:
    ru, en, params = _line(state_before, event)
    code = type(event).__name__
    out = [JournalEntry(code=code, params=params, ru=ru, en=en)]
    if isinstance(event, ev.DominoAnswered):
        ru_own, en_own = (
            ("Вы берёте доминошку.", "You take a domino.")
            if event.take
            else (
                "Вы не берёте доминошку.",
                "You take no domino.",
            )
        )
        own = JournalEntry(
            code=code, params={**params, "take": event.take}, ru=ru_own, en=en_own, audience=[event.seat]
        )
        return [*out, own]
    if isinstance(event, ev.DominoTaken):
        t = f"{event.tile.low}-{event.tile.high}"
        out = [
            JournalEntry(code=code, params=params, ru=ru, en=en),
            JournalEntry(
                code=code,
                params={**params, "tile": [event.tile.low, event.tile.high]},
                ru=f"Вы берёте доминошку {t}.",
                en=f"You take the domino {t}.",
                audience=[event.seat],
            ),
        ]
    return out


JournalFn = Callable[[State, ev.Event], list[JournalEntry]]
