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


def _names(started: MatchStarted, seats: list[int]) -> str:
    by_seat = {s.seat: s.name for s in started.seats}
    return ", ".join(by_seat.get(s, str(s)) for s in seats)


def started_entries(started: MatchStarted) -> list[JournalEntry]:
    names = _names(started, [s.seat for s in started.seats])
    return [
        JournalEntry(
            "match.started",
            {"game": started.game, "rules_version": started.rules_version, "seats": len(started.seats)},
            f"Матч начался ({started.game}). Игроки: {names}.",
            f"The match has started ({started.game}). Players: {names}.",
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
            f"Матч окончен: {words.get('ru', reason)}. Места: {ranking}. Зерно раскрыто: {ended.seed_hex}.",
            f"The match is over: {words.get('en', reason)}. Places: {ranking}. Seed revealed: {ended.seed_hex}.",
        )
    ]


def _reason_words(game_id: str, reason: str) -> Mapping[str, str]:
    """The game's words for an end reason (the code itself where it has none)."""
    try:
        return get_game(game_id).end_reasons.get(reason, {})
    except RuleError:
        return {}


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
            f"У {name} вышло время; сделан ход по умолчанию.",
            f"{name}'s clock ran out; the default move is made.",
        )
    ]
