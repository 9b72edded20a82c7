"""The journal's last line says in words why the match ended (the game's end reasons)."""

from __future__ import annotations

from tablehall_rules import SeatInfo
from tablehall_stream.events import MatchEnded, MatchStarted
from tablehall_stream.journal_lines import ended_entries


def line(game: str, reason: str) -> tuple[str, str]:
    seats = [SeatInfo(0, "ann", "Ann"), SeatInfo(1, "ben", "Ben")]
    started = MatchStarted(game, "1", {}, seats, "00", 0)
    (entry,) = ended_entries(started, MatchEnded({"places": [[0], [1]], "reason": reason}, "ab", 1))
    return entry.en, entry.ru


def test_the_end_reason_reads_in_words_in_both_languages() -> None:
    en, ru = line("puzzipolia", "round_limit")
    assert "the round limit was reached" in en and "round_limit" not in en
    assert "сыграны все круги" in ru and "round_limit" not in ru


def test_a_reason_the_game_does_not_name_reads_as_a_plain_end_never_as_its_code() -> None:
    en, ru = line("puzzipolia", "something_new")
    assert "the game has ended" in en and "something_new" not in en
    assert "игра завершена" in ru and "something_new" not in ru
