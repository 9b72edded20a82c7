"""The conformance kit over the platform's test game, in every set-up it has
(solo, 2-4 seats, reaction windows, teams)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.conformance_suite import Setup, run_suite
from testgame.game import GAME

SETUPS = [
    Setup(1, {"target": 15}),
    Setup(2, {"target": 20}),
    Setup(3, {"target": 20, "calls": True}),
    Setup(4, {"target": 25, "calls": True, "teams": True}),
]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.seats}-seats-{'-'.join(sorted(s.options))}")
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_test_game_conforms(setup: Setup, seed: int) -> None:
    counts = run_suite(GAME, setup, seed)
    assert counts.games == 1 and counts.commands > 0
    assert counts.redaction_checked > 0
