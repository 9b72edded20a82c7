"""A stream recorded under an earlier rules version the game lists (`Game.earlier_rules`) is verified
with the installed rules, and the verdict says so; one of a version not listed is refused at its
start; a discrepancy in a listed one names what changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablehall_audit.export import read_export_file
from tablehall_audit.verify import verify_stream
from tablehall_rules import BOTS_NEVER_AFK
from tablehall_rules.registry import get_game

# recorded under Пузиполия 1.0.0, before a bot seat was never AFK (tests/data/streams/README.md)
RECORDED = Path(__file__).resolve().parents[1] / "data" / "streams" / "puzzipolia-handover.json"


def _copy() -> Any:
    found = read_export_file(RECORDED.read_bytes())
    assert found.document.rules_version == "1.0.0"
    return found.copy


def test_a_stream_of_listed_earlier_rules_verifies_and_says_under_which() -> None:
    game = get_game("puzzipolia")
    assert game.rules_version != "1.0.0" and game.earlier_rules["1.0.0"] == BOTS_NEVER_AFK
    verdict = verify_stream(_copy())
    assert verdict.ok, verdict.message
    assert "recorded under puzzipolia rules '1.0.0'" in verdict.message and BOTS_NEVER_AFK in verdict.message


def test_a_stream_of_rules_not_listed_is_refused_at_its_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(get_game("puzzipolia")), "earlier_rules", {})
    verdict = verify_stream(_copy())
    assert not verdict.ok and verdict.commands_checked == 0
    assert verdict.message.endswith(
        f"recorded under puzzipolia rules '1.0.0'; these are rules '{get_game('puzzipolia').rules_version}'"
    )


def test_a_discrepancy_under_earlier_rules_names_the_change(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("puzzipolia")
    real = game.pending

    def pending_with_no_clocks(state: Any) -> Any:  # rules that answer differently
        return [d for d in real(state) if not d.has_clock]

    monkeypatch.setattr(game, "pending", pending_with_no_clocks)
    verdict = verify_stream(_copy())
    assert not verdict.ok and "the recorded open decisions differ" in verdict.message
    assert verdict.message.endswith(f"which changed: {BOTS_NEVER_AFK})")
