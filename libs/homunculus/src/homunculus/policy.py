"""Bot hooks: a random legal player, and a simple heuristic that takes what it can."""

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


def bot_policy(view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    """Say «Уно!» or catch first; then take a piece (a king above all); else play, else draw."""
    for cmd in legal:
        if isinstance(cmd, c.SayUno | c.CatchUno):
            return cmd
    pieces = {int(cell): piece for cell, piece in view["pieces"].items()}
    me = view["turn"]

    def gain(cmd: msgspec.Struct) -> int:
        target = getattr(cmd, "target", -1)
        victim = pieces.get(target)
        if victim is not None and victim[1] != me:
            return 10 * int(victim[0])
        return 0

    moves = [cmd for cmd in legal if not isinstance(cmd, c.Surrender)]
    best = max((gain(cmd) for cmd in moves), default=0)
    if best > 0:
        return rng.choice([cmd for cmd in moves if gain(cmd) == best])
    cards = [cmd for cmd in moves if isinstance(cmd, c.PlayCard)]
    if cards:
        return rng.choice(cards)
    return rng.choice(moves or legal)


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
