"""Journal lines: the game's `journal` hook plus the platform's own entries
(match start and end, clocks that ran out), each with its audience."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tablehall_rules import JournalEntry, RuleError
from tablehall_rules.registry import get_game
from tablehall_stream.events import MatchEnded, MatchStarted


@dataclass(frozen=True, slots=True)
class JournalLine:
    """A journal entry at its place in the table's stream."""

    version: int
    idx: int
    entry: JournalEntry

    def visible_to(self, role: str, seat: int | None) -> bool:
        """Auditors read everything; others what the entry's audience allows."""
        return role == "auditor" or self.entry.visible_to_seat(seat if role == "seat" else None)


# end reasons most games share, as a person says them (a game's own `end_reasons` come first)
COMMON_END_REASONS: Mapping[str, Mapping[str, str]] = {
    "round_limit": {"en": "the last round is played", "ru": "сыграны все круги"},
    "rounds": {"en": "the last round is played", "ru": "сыграны все круги"},
    "last_standing": {"en": "one player is left", "ru": "остался один игрок"},
    "kings": {"en": "one side's king is left", "ru": "остался король одной стороны"},
    "strength": {
        "en": "the quiet rounds ran out; the strongest army leads",
        "ru": "тихие круги кончились, места по силе армий",
    },
    "vote": {"en": "the players voted to end it", "ru": "игроки проголосовали за конец"},
    "removed": {"en": "a player was removed", "ru": "игрока убрали из игры"},
    "operator": {"en": "an operator closed the table", "ru": "оператор закрыл стол"},
    "idle": {"en": "the table stood idle for too long", "ru": "стол слишком долго простоял без ходов"},
    "closed": {"en": "the table was closed", "ru": "стол закрыт"},
}
UNKNOWN_END = {"en": "the game has ended", "ru": "игра завершена"}


def _names(started: MatchStarted, seats: list[int]) -> str:
    by_seat = {s.seat: s.name for s in started.seats}
    return ", ".join(by_seat.get(s) or f"#{s + 1}" for s in seats)


def _title(game_id: str) -> Mapping[str, str]:
    try:
        return get_game(game_id).title or {}
    except (RuleError, ImportError):
        return {}


def started_entries(started: MatchStarted) -> list[JournalEntry]:
    names = _names(started, [s.seat for s in started.seats])
    title = _title(started.game)
    return [
        JournalEntry(
            "match.started",
            {"game": started.game, "rules_version": started.rules_version, "seats": len(started.seats)},
            f"Матч начался: {title.get('ru', 'игра')}. Игроки: {names}.",
            f"The match has started: {title.get('en', 'a game')}. Players: {names}.",
        )
    ]


def ended_entries(started: MatchStarted, ended: MatchEnded) -> list[JournalEntry]:
    places = [list(map(int, p)) for p in ended.outcome.get("places", [])]
    ranking = "; ".join(f"{i + 1}. {_names(started, p)}" for i, p in enumerate(places))
    reason = str(ended.outcome.get("reason", ""))
    words = _reason_words(started.game, reason)
    return [
        JournalEntry(
            "match.ended",
            {"places": places, "reason": reason, "seed_hex": ended.seed_hex},
            f"Матч окончен: {words['ru']}. Места: {ranking}. Зерно раскрыто: {ended.seed_hex}.",
            f"The match is over: {words['en']}. Places: {ranking}. Seed revealed: {ended.seed_hex}.",
        )
    ]


def _reason_words(game_id: str, reason: str) -> Mapping[str, str]:
    """The words for an end reason: the game's, else the common ones (a «closed:idle» as «idle»),
    else a plain «the game has ended»: never the code itself."""
    try:
        own: Mapping[str, Mapping[str, str]] = get_game(game_id).end_reasons
    except (RuleError, ImportError):
        own = {}
    for code in (reason, reason.rpartition(":")[2], reason.partition(":")[0]):
        words = own.get(code) or COMMON_END_REASONS.get(code)
        if words and "en" in words and "ru" in words:
            return words
    return UNKNOWN_END


def timeout_entries(started: MatchStarted | None, metadata: dict[str, Any]) -> list[JournalEntry]:
    """A default move made because a seat's clock ran out (first event of that command)."""
    if not metadata.get("timeout") or "command" not in metadata or started is None:
        return []
    seat = metadata.get("seat")
    if not isinstance(seat, int):
        return []
    name = _names(started, [seat])
    return [
        JournalEntry(
            "match.timeout",
            {"seat": seat, "decision_key": metadata.get("decision_key")},
            f"{name}: вышло время, сделан ход по умолчанию.",
            f"{name}'s clock ran out; the default move is made.",
        )
    ]
