"""A command of another point of the turn (WRONG_PHASE) is refused with what the turn expects now."""

from __future__ import annotations

import pytest
from hm_helpers import NOW, fresh

from homunculus import commands as c
from homunculus.game import GAME
from tablehall_rules import DecideContext, DrawSource, RuleError


def test_buying_a_lot_in_the_action_phase_says_what_the_action_is() -> None:
    s = fresh(2)
    assert s.phase == "action"
    with pytest.raises(RuleError) as refused:
        GAME.decide(s, c.BuyLot(), DecideContext(s.turn, NOW, DrawSource(b"when")))
    assert refused.value.reason == "WRONG_PHASE"
    assert refused.value.message_en.endswith("Play a card, place a domino or draw a card.")
    assert refused.value.message_ru.endswith("Сыграйте карту, поставьте кость или возьмите карту.")
