"""The conformance suite (`tablehall_rules.conformance.run_suite`) over every registered game,
each in the set-ups it declares: a new game is checked by registering it.

The games: every installed one (`available_games()`) plus the two the tests register, Ним and
the dice race. Random games are seeded by hypothesis, `Setup.examples` of them per set-up;
`make soak` plays many more. (Until the four product games declare their set-ups, probes and
nature, `stand_ins.declared` adds them.)
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nim.game import GAME as NIM

from conformance.stand_ins import STAND_INS, declared, missing
from tablehall_rules import Game
from tablehall_rules.conformance import run_suite, setups_of
from tablehall_rules.registry import available_games, register
from tablehall_rules.setups import Setup
from testgame.game import GAME as RACE

register(NIM)
register(RACE)
GAMES = [declared(game) for game in available_games()]
PRODUCT_GAMES = {"puzzipolia", "dragons", "magnates", "homunculus"}
SOAK_EXAMPLES = 40

CASES = [pytest.param(game, setup, id=f"{game.id}-{setup.name}") for game in GAMES for setup in setups_of(game)]


def conforms(game: Game[Any], setup: Setup, examples: int, states: int) -> None:
    """`examples` random games of `setup`; a game that declares hidden information must hide
    something from some seat in them when it has several (else its redaction checks prove
    nothing)."""
    hidden = 0

    @settings(max_examples=examples, deadline=None)
    @given(seed=st.integers(0, 2**32))
    def random_game(seed: int) -> None:
        nonlocal hidden
        counts = run_suite(game, setup, seed, states=states)
        assert counts.games == 1 and counts.commands > 0
        # a game that went on had listed moves checked (a random game may end at once: a resignation)
        assert counts.listed_checked > 0 or counts.commands < 3
        if game.nature.hidden_information:
            assert counts.redaction_checked > 0
        hidden += counts.hidden_found

    random_game()
    if game.nature.hidden_information and setup.seats > 1:
        assert hidden > 0, f"{game.id} declares hidden information, yet no determinized state differed"


def test_every_game_is_registered() -> None:
    assert {g.id for g in GAMES} >= PRODUCT_GAMES | {"nim", "testgame"}


def test_a_stand_in_goes_once_its_game_declares_everything_itself() -> None:
    for game in available_games():
        if game.id in STAND_INS:
            assert missing(game), f"{game.id} declares all it needs: remove it from conformance/stand_ins.py"


@pytest.mark.parametrize(("game", "setup"), CASES)
def test_every_game_conforms(game: Game[Any], setup: Setup) -> None:
    conforms(game, setup, setup.examples, states=6)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "setup"), CASES)
def test_every_game_conforms_soak(game: Game[Any], setup: Setup) -> None:
    """`make soak`: many more random games through the whole suite, more states of each."""
    conforms(game, setup, SOAK_EXAMPLES, states=10)
