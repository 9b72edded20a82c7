"""Journal lines (ru/en) for the projection: one per event, public facts only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from magnates import board
from magnates import events as e
from magnates.state import BANK, State
from tablehall_rules.journal import JournalEntry

PIECE_RU = {"king": "Король", "queen": "Ферзь", "rook": "Ладья", "bishop": "Слон", "knight": "Конь"}
REASON_RU = {
    "bank_stop": "остановка в Банке",
    "bank_pass": "проход через Банк",
    "fine": "штраф",
    "subsidy": "Субсидии",
    "sanction": "Санкции",
    "arbitrage": "Арбитраж",
    "company": "покупка Компании",
    "upgrade": "улучшение",
    "piece": "покупка фигуры",
    "duel": "выигрыш дуэли",
    "debt": "продажа в счёт долга",
    "takeover": "касса побеждённого Короля",
}


def _name(state: State, seat: int) -> str:
    return "банк" if seat == BANK else state.seats[seat].name


def _name_en(state: State, seat: int) -> str:
    return "the bank" if seat == BANK else state.seats[seat].name


# why a Company changed, as the English line says it (the Russian line leaves it to the one before)
_COMPANY_WHY_EN = {
    "bought": " (bought)",
    "sold": " (sold)",
    "upgrade": " (upgraded)",
    "upgrade_sold": " (an upgrade sold)",
    "raid": " (raided)",
    "arbitrage": " (by arbitrage)",
}


def _line(key: str, params: dict[str, Any], ru: str, en: str) -> JournalEntry:
    return JournalEntry(f"magnates.{key}", params, _upper_first(ru), _upper_first(en))


def _upper_first(text: str) -> str:
    """A line starts a sentence («банк → Анна» as «Банк → Анна»)."""
    return text[:1].upper() + text[1:]


def _paid(s: State, ev: e.Paid) -> JournalEntry:
    reason = REASON_RU.get(ev.reason, ev.reason)
    return _line(
        "paid",
        {"payer": ev.payer, "payee": ev.payee, "amount": ev.amount, "reason": ev.reason},
        f"{_name(s, ev.payer)} → {_name(s, ev.payee)}: {ev.amount} ({reason}).",
        f"{_name_en(s, ev.payer)} pays {_name_en(s, ev.payee)} {ev.amount} ({ev.reason.replace('_', ' ')}).",
    )


def _duel(s: State, ev: e.DuelFought) -> JournalEntry:
    winner = ev.attacker if ev.attacker_won else ev.defender
    return _line(
        "duel",
        msgspec.to_builtins(ev),
        f"Дуэль: {PIECE_RU[ev.attacker_piece]} ({_name(s, ev.attacker)}, {ev.attacker_roll}) против "
        f"{PIECE_RU[ev.defender_piece]} ({_name(s, ev.defender)}, {ev.defender_roll}); побеждает {_name(s, winner)}.",
        f"Duel: {ev.attacker_piece} of {_name_en(s, ev.attacker)} ({ev.attacker_roll}) against {ev.defender_piece} "
        f"of {_name_en(s, ev.defender)} ({ev.defender_roll}); {_name_en(s, winner)} wins.",
    )


def _raid(s: State, ev: e.RaidFought) -> JournalEntry:
    verdict_ru = "Компания захвачена" if ev.success else "рейдер потерян"
    verdict_en = "the Company is taken" if ev.success else "the raider is lost"
    return _line(
        "raid",
        msgspec.to_builtins(ev),
        f"Рейд {_name(s, ev.seat)} на {board.name(ev.cell)}: {ev.attacker_roll} против {ev.owner_roll}; {verdict_ru}.",
        f"{_name_en(s, ev.seat)} raids {board.name(ev.cell)}: {ev.attacker_roll} against {ev.owner_roll}; {verdict_en}.",
    )


def _simple(s: State, ev: Any) -> JournalEntry:
    params = msgspec.to_builtins(ev)
    params.pop("at_ms", None)
    if isinstance(ev, e.DiceRolled):
        n = _name(s, ev.seat)
        return _line(
            "rolled", params, f"{n}: Белый {ev.white}, Синий {ev.blue}.", f"{n}: White {ev.white}, Blue {ev.blue}."
        )
    if isinstance(ev, e.KingRolled):
        n = _name(s, ev.seat)
        return _line(
            "king_rolled", params, f"{n}: снова Белый — {ev.white}.", f"{n} rolls the White die again: {ev.white}."
        )
    if isinstance(ev, e.KingMoved):
        cell = board.name(board.cell_of_position(ev.end))
        n = _name(s, ev.seat)
        return _line("king_moved", params, f"Король {n} идёт на {cell}.", f"{n}'s King moves to {cell}.")
    if isinstance(ev, e.CompanyChanged):
        owner = _name(s, ev.owner)
        return _line(
            "company",
            params,
            f"Компания {board.name(ev.cell)}: владелец {owner}, уровень {ev.level}.",
            f"Company {board.name(ev.cell)}: owner {_name_en(s, ev.owner)}, level {ev.level}"
            f"{_COMPANY_WHY_EN.get(ev.reason, '')}.",
        )
    if isinstance(ev, e.PieceMoved):
        n = _name(s, ev.seat)
        return _line(
            "piece_moved",
            params,
            f"{PIECE_RU[ev.piece]} {n}: {board.name(ev.start)} → {board.name(ev.to)}.",
            f"{n}'s {ev.piece}: {board.name(ev.start)} to {board.name(ev.to)}.",
        )
    if isinstance(ev, e.PieceLost):
        n = _name(s, ev.seat)
        return _line(
            "piece_lost",
            params,
            f"{n} теряет фигуру: {PIECE_RU[ev.piece]}.",
            f"{n} loses the {ev.piece} ({ev.reason}).",
        )
    if isinstance(ev, e.PiecePlaced):
        n = _name(s, ev.seat)
        return _line(
            "piece_placed",
            params,
            f"{n} покупает фигуру {PIECE_RU[ev.piece]} в Офис {board.name(ev.cell)}.",
            f"{n} buys a {ev.piece} onto the Office {board.name(ev.cell)}.",
        )
    if isinstance(ev, e.ArbitrageRolled):
        n = _name(s, ev.seat)
        return _line("arbitrage", params, f"Арбитраж {n}: выпало {ev.value}.", f"{n}'s Arbitrage roll: {ev.value}.")
    if isinstance(ev, e.TurnStarted):
        n = _name(s, ev.seat)
        return _line("turn", params, f"Раунд {ev.round}: ходит {n}.", f"Round {ev.round}: {n} to play.")
    if isinstance(ev, e.Eliminated):
        n = _name(s, ev.seat)
        return _line("eliminated", params, f"{n} выбывает.", f"{n} is out ({ev.reason}).")
    if isinstance(ev, e.Finished):
        winners = ", ".join(_name(s, w) for w in ev.places[0]) if ev.places else "—"
        return _line("finished", params, f"Игра окончена. Победа: {winners}.", f"The game is over. Won by {winners}.")
    if isinstance(ev, e.Started):
        return _line(
            "started",
            {"players": len(ev.seats)},
            f"«Магнаты»: {len(ev.seats)} игрока.",
            f"Magnates with {len(ev.seats)} players.",
        )
    return _line(type(ev).__name__.lower(), params, "", "")


WRITERS: dict[type[Any], Callable[[State, Any], JournalEntry]] = {
    e.Paid: _paid,
    e.DuelFought: _duel,
    e.RaidFought: _raid,
}
SILENT = (e.Acted, e.PhaseChanged, e.PresenceChanged, e.ControllerChanged)


def entries(state: State, event: msgspec.Struct) -> list[JournalEntry]:
    if isinstance(event, SILENT):
        return []
    return [WRITERS.get(type(event), _simple)(state, event)]
