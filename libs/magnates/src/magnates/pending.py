"""The open decision (one at a time: the turn's player), its clock and its safe default."""

from __future__ import annotations

import msgspec

from magnates import commands as c
from magnates.state import State
from tablehall_rules import PendingDecision

DEFAULTS: dict[str, msgspec.Struct] = {
    "roll": c.Roll(),
    "king_stop": c.EndStop(),
    "piece_stop": c.EndStop(),
    "move": c.PassMove(),
    "fine": c.PayFine(),
}


def pending(state: State) -> list[PendingDecision]:
    if state.phase == "over":
        return []
    seat = state.turn
    clock = state.afk.clock_ms(seat, state.clock_ms)
    return [PendingDecision(state.key(), seat, state.phase, "decision", state.opened_at_ms, clock)]


def default_command(state: State, decision: PendingDecision) -> msgspec.Struct:
    """Roll; skip optional purchases; move no piece; pay the fine (never a risky raid)."""
    return DEFAULTS[decision.kind]
