"""A command of another moment (NOT_NOW) is refused with what the turn expects now."""

from __future__ import annotations

import pytest

from magnates import commands as c
from magnates.game import GAME
from tablehall_rules import DecideContext, DrawSource, RuleError
from tablehall_rules.testing import Table


def test_buying_before_the_roll_says_roll_first() -> None:
    state = Table(GAME).state
    assert state.phase == "roll"
    with pytest.raises(RuleError) as refused:
        GAME.decide(state, c.BuyCompany(), DecideContext(state.turn, 1, DrawSource(b"s" * 32)))
    assert refused.value.reason == "NOT_NOW"
    assert refused.value.message_en == "That is not a move of this moment. Roll first."
    assert refused.value.message_ru == "Сейчас этот ход невозможен. Сначала бросьте кубики."
