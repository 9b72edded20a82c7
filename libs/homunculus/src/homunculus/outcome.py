"""The result once the game is over: the last army (or team) standing first."""

from __future__ import annotations

from homunculus.state import State
from tablehall_rules import Outcome


def outcome(state: State) -> Outcome | None:
    if not state.finished:
        return None
    return Outcome(places=state.places, reason=state.end_reason, teams=[list(t) for t in state.teams])
