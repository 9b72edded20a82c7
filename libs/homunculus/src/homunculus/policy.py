"""Bot hooks: the random legal player and the evaluation the strong bot's search scores with
(the easy heuristic is `homunculus.bot`)."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from homunculus import commands as c
from homunculus.state import State


def random_policy(view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    """A random legal command; it never surrenders while anything else is possible."""
    keep_playing = [cmd for cmd in legal if not isinstance(cmd, c.Surrender)]
    return rng.choice(keep_playing or legal)


def evaluate(state: State, seat: int) -> float:
    """Material share of the seat's side (1 when it has won, 0 when it is out)."""
    if state.finished:
        return 1.0 if state.places and seat in state.places[0] else 0.0
    if not state.alive[seat]:
        return 0.0
    from homunculus.board import STRENGTH

    mine = sum(STRENGTH[p.kind] for p in state.pieces.values() if state.allied(seat, p.side))
    total = sum(STRENGTH[p.kind] for p in state.pieces.values())
    return mine / total if total else 0.5
