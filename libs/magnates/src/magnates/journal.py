"""Journal lines (ru/en) for the projection, by the kit's convention (`tablehall_rules.journal`):
one line per event, its code the event's type in UPPER_SNAKE; public facts only."""

from __future__ import annotations

import msgspec

from magnates import board
from magnates import events as e
from magnates.evolve import evolve
from magnates.state import BANK, State
from tablehall_rules.journal import JournalEntry, Lines, entry
from tablehall_rules.table import TABLE_EVENTS

# bookkeeping nobody reads; presence and hand-over have never had a line in Магнаты
LINES = Lines(silent=(e.Acted, e.PhaseChanged, *TABLE_EVENTS))

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
# why a Company changed, as the English line says it (the Russian line leaves it to the one before)
_COMPANY_WHY_EN = {
    "bought": " (bought)",
    "sold": " (sold)",
    "upgrade": " (upgraded)",
    "upgrade_sold": " (an upgrade sold)",
    "raid": " (raided)",
    "arbitrage": " (by arbitrage)",
}


def entries(state_before: State | None, event: msgspec.Struct) -> list[JournalEntry]:
    """The event's lines, read against the state before it (the first event: against its own)."""
    return LINES.entries(state_before if state_before is not None else evolve(None, event), event)


def _name(state: State, seat: int) -> str:
    return "банк" if seat == BANK else state.seats[seat].name


def _name_en(state: State, seat: int) -> str:
    return "the bank" if seat == BANK else state.seats[seat].name


def _line(event: msgspec.Struct, ru: str, en: str, **params: object) -> JournalEntry:
    """A line starts a sentence («банк → Анна» as «Банк → Анна»)."""
    return entry(event, ru[:1].upper() + ru[1:], en[:1].upper() + en[1:], params=params or None)


@LINES.of(e.Started)
def _started(ev: e.Started, s: State) -> JournalEntry:
    n = len(ev.seats)
    return _line(ev, f"«Магнаты»: {n} игрока.", f"Magnates with {n} players.", players=n)


@LINES.of(e.Paid)
def _paid(ev: e.Paid, s: State) -> JournalEntry:
    reason = REASON_RU.get(ev.reason, ev.reason)
    return _line(
        ev,
        f"{_name(s, ev.payer)} → {_name(s, ev.payee)}: {ev.amount} ({reason}).",
        f"{_name_en(s, ev.payer)} pays {_name_en(s, ev.payee)} {ev.amount} ({ev.reason.replace('_', ' ')}).",
    )


@LINES.of(e.DuelFought)
def _duel(ev: e.DuelFought, s: State) -> JournalEntry:
    winner = ev.attacker if ev.attacker_won else ev.defender
    return _line(
        ev,
        f"Дуэль: {PIECE_RU[ev.attacker_piece]} ({_name(s, ev.attacker)}, {ev.attacker_roll}) против "
        f"{PIECE_RU[ev.defender_piece]} ({_name(s, ev.defender)}, {ev.defender_roll}); побеждает {_name(s, winner)}.",
        f"Duel: {ev.attacker_piece} of {_name_en(s, ev.attacker)} ({ev.attacker_roll}) against {ev.defender_piece} "
        f"of {_name_en(s, ev.defender)} ({ev.defender_roll}); {_name_en(s, winner)} wins.",
    )


@LINES.of(e.RaidFought)
def _raid(ev: e.RaidFought, s: State) -> JournalEntry:
    verdict_ru = "Компания захвачена" if ev.success else "рейдер потерян"
    verdict_en = "the Company is taken" if ev.success else "the raider is lost"
    return _line(
        ev,
        f"Рейд {_name(s, ev.seat)} на {board.name(ev.cell)}: {ev.attacker_roll} против {ev.owner_roll}; {verdict_ru}.",
        f"{_name_en(s, ev.seat)} raids {board.name(ev.cell)}: {ev.attacker_roll} against {ev.owner_roll}; {verdict_en}.",
    )


@LINES.of(e.DiceRolled)
def _rolled(ev: e.DiceRolled, s: State) -> JournalEntry:
    n = _name(s, ev.seat)
    return _line(ev, f"{n}: Белый {ev.white}, Синий {ev.blue}.", f"{n}: White {ev.white}, Blue {ev.blue}.")


@LINES.of(e.KingRolled)
def _king_rolled(ev: e.KingRolled, s: State) -> JournalEntry:
    n = _name(s, ev.seat)
    return _line(ev, f"{n}: снова Белый — {ev.white}.", f"{n} rolls the White die again: {ev.white}.")


@LINES.of(e.KingMoved)
def _king_moved(ev: e.KingMoved, s: State) -> JournalEntry:
    cell, n = board.name(board.cell_of_position(ev.end)), _name(s, ev.seat)
    return _line(ev, f"Король {n} идёт на {cell}.", f"{n}'s King moves to {cell}.")


@LINES.of(e.CompanyChanged)
def _company(ev: e.CompanyChanged, s: State) -> JournalEntry:
    return _line(
        ev,
        f"Компания {board.name(ev.cell)}: владелец {_name(s, ev.owner)}, уровень {ev.level}.",
        f"Company {board.name(ev.cell)}: owner {_name_en(s, ev.owner)}, level {ev.level}"
        f"{_COMPANY_WHY_EN.get(ev.reason, '')}.",
    )


@LINES.of(e.PieceMoved)
def _piece_moved(ev: e.PieceMoved, s: State) -> JournalEntry:
    n = _name(s, ev.seat)
    return _line(
        ev,
        f"{PIECE_RU[ev.piece]} {n}: {board.name(ev.start)} → {board.name(ev.to)}.",
        f"{n}'s {ev.piece}: {board.name(ev.start)} to {board.name(ev.to)}.",
    )


@LINES.of(e.PieceLost)
def _piece_lost(ev: e.PieceLost, s: State) -> JournalEntry:
    n = _name(s, ev.seat)
    return _line(ev, f"{n} теряет фигуру: {PIECE_RU[ev.piece]}.", f"{n} loses the {ev.piece} ({ev.reason}).")


@LINES.of(e.PiecePlaced)
def _piece_placed(ev: e.PiecePlaced, s: State) -> JournalEntry:
    n = _name(s, ev.seat)
    return _line(
        ev,
        f"{n} покупает фигуру {PIECE_RU[ev.piece]} в Офис {board.name(ev.cell)}.",
        f"{n} buys a {ev.piece} onto the Office {board.name(ev.cell)}.",
    )


@LINES.of(e.ArbitrageRolled)
def _arbitrage(ev: e.ArbitrageRolled, s: State) -> JournalEntry:
    n = _name(s, ev.seat)
    return _line(ev, f"Арбитраж {n}: выпало {ev.value}.", f"{n}'s Arbitrage roll: {ev.value}.")


@LINES.of(e.TurnStarted)
def _turn(ev: e.TurnStarted, s: State) -> JournalEntry:
    n = _name(s, ev.seat)
    return _line(ev, f"Раунд {ev.round}: ходит {n}.", f"Round {ev.round}: {n} to play.")


@LINES.of(e.Eliminated)
def _eliminated(ev: e.Eliminated, s: State) -> JournalEntry:
    n = _name(s, ev.seat)
    return _line(ev, f"{n} выбывает.", f"{n} is out ({ev.reason}).")


@LINES.of(e.Finished)
def _finished(ev: e.Finished, s: State) -> JournalEntry:
    winners = ", ".join(_name(s, w) for w in ev.places[0]) if ev.places else "—"
    return _line(ev, f"Игра окончена. Победа: {winners}.", f"The game is over. Won by {winners}.")
