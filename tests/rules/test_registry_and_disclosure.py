"""Games are found by entry point and checked to be Games; each viewer is shown
only the open decisions it may know of."""

from __future__ import annotations

import pytest

from puzzipolia.game import GAME as PUZZIPOLIA
from tablehall_rules import Game, PendingDecision, TableControl, Viewer
from tablehall_rules.bots import Determinizable
from tablehall_rules.disclosure import visible_decisions
from tablehall_rules.journal import HasStandings, Journaled
from tablehall_rules.registry import available_games, get_game, installed_games


def test_product_games_are_registered_by_entry_point() -> None:
    assert installed_games()["puzzipolia"] == "puzzipolia.game:GAME"
    game = get_game("puzzipolia")
    assert game is PUZZIPOLIA and isinstance(game, Game)
    assert all(isinstance(game, hook) for hook in (TableControl, Journaled, HasStandings, Determinizable))


def test_a_target_that_is_not_a_game_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEHALL_EXTRA_GAMES", "notagame=tablehall_rules.contract:Viewer")
    with pytest.raises(TypeError):
        get_game("notagame")
    assert "notagame" not in {g.id for g in available_games()}


DECISIONS = [
    PendingDecision("turn:1", 0, "roll", "decision", 0, 30_000),
    PendingDecision("offer:3", 2, "offer_answer", "offer", 0, 60_000, audience=[1]),
    PendingDecision("uno:4", 3, "uno", "reaction", 0, 0, audience=[], reaction=True),
]


@pytest.mark.parametrize(
    ("viewer", "keys"),
    [
        (Viewer.of_seat(0), ["turn:1"]),
        (Viewer.of_seat(1), ["turn:1", "offer:3"]),
        (Viewer.of_seat(2), ["turn:1", "offer:3"]),
        (Viewer.of_seat(3), ["turn:1", "uno:4"]),
        (Viewer.spectator(), ["turn:1"]),
        (Viewer.auditor(), ["turn:1", "offer:3", "uno:4"]),
    ],
)
def test_each_viewer_sees_the_decisions_it_may_know_of(viewer: Viewer, keys: list[str]) -> None:
    assert [d.key for d in visible_decisions(DECISIONS, viewer)] == keys


def test_an_audience_free_decision_is_stored_as_before() -> None:
    import msgspec

    assert msgspec.to_builtins(DECISIONS[0]) == {
        "key": "turn:1",
        "seat": 0,
        "kind": "roll",
        "clock": "decision",
        "opened_at_ms": 0,
        "clock_ms": 30_000,
    }
