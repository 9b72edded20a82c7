"""docs/reasons.md is the code's list of refusal reasons: a test fails when it falls behind."""

from __future__ import annotations

from pathlib import Path

from tablehall_cli import reasons

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reasons.md"


def test_docs_reasons_md_is_up_to_date_with_the_code() -> None:
    assert reasons.main(check=str(PAGE)) == 0, "docs/reasons.md is behind the code: `make reasons` rewrites it"


def test_a_page_behind_the_code_fails_the_check(tmp_path: Path) -> None:
    stale = tmp_path / "reasons.md"
    stale.write_text(PAGE.read_text().replace("| `BID_TOO_LOW` |", "| `BID_TOO_LOW_OLD` |"))
    assert reasons.main(check=str(stale)) == 1


def test_every_kind_of_constructor_is_read_with_its_status_and_texts() -> None:
    found, unread = reasons.collect()
    by_reason = {(r.reason, r.where): r for r in found}
    # a game's helper `illegal(reason, en, ru)`
    bid = by_reason["BID_TOO_LOW", "puzzipolia/rules/buying.py"]
    assert bid.status == "FAILED_PRECONDITION" and bid.en and bid.ru
    # a "problem" tuple raised as `illegal(*problem)`
    street = by_reason["NOT_A_STREET", "puzzipolia/rules/building.py"]
    assert street.en == "Only streets take buildings." and street.ru == "Строить можно только на улицах."
    # a subclass's super().__init__ with default texts
    turn = by_reason["NOT_YOUR_TURN", "tablehall_rules/errors.py"]
    assert (turn.status, turn.en, turn.ru) == ("FAILED_PRECONDITION", "It is not your turn.", "Сейчас не ваш ход.")
    # service errors: the status of their type, the ru keyword
    assert by_reason["INVALID_PIN", "tablehall_lobby/refusals.py"].status == "INVALID_ARGUMENT"
    assert by_reason["PIN_ATTEMPTS_EXCEEDED", "tablehall_lobby/refusals.py"].status == "RESOURCE_EXHAUSTED"
    assert by_reason["UNKNOWN_GAME", "tablehall_rules/registry.py"].status == "INVALID_ARGUMENT"
    assert unread == []
