"""A command of another moment (WRONG_PHASE) is refused with what the turn expects now."""

from __future__ import annotations

from pz_helpers import given, refused

from puzzipolia import commands as c


def test_ending_the_turn_before_the_roll_says_roll_first() -> None:
    state = given()
    assert state.phase == "roll"
    error = refused(state, c.EndTurn(), "WRONG_PHASE")
    assert error.message_en == "This cannot be done now. Roll first."
    assert error.message_ru == "Сейчас этого сделать нельзя. Сначала брось кубики."
