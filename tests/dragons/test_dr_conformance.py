"""The conformance kit over Драконы: random games end after 22 rounds, replay and snapshots give
the same state, every default is accepted, the descriptors agree with decide (sampled both
ways), and no seat's answers depend on the opponent's domino hand."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from conformance.conformance_suite import Setup, run_suite
from hypothesis import given, settings
from hypothesis import strategies as st

from dragons import commands as c
from dragons.game import GAME
from dragons.state import State


def dragon_probes(state: Any, seat: int) -> list[msgspec.Struct]:
    """Commands the kit's random fields rarely hit: each rolled die on cells next to own dice,
    a domino of the seat's hand and one it does not hold, a black die inside the contour."""
    s: State = state
    out: list[msgspec.Struct] = []
    for face in sorted(set(s.rolled[seat])):
        for cell in range(0, 333, 37):
            out.append(c.PlaceDie(face=face, cell=cell))
        out.append(c.DiscardDie(face=face))
        for t in s.players[seat].hand[:2]:
            out.append(c.PlaceDomino(face=face, first=t.low, second=t.high, cells=[150, 151]))
        out.append(c.PlaceDomino(face=face, first=0, second=0, cells=[150, 151]))
    if s.contour is not None:
        out += [c.PlaceBlack(cell=x) for x in s.contour.inside[:2]]
    out += [c.TakeDomino(take=True), c.TakeDomino(take=False)]
    return out


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_dragons_conforms(seed: int) -> None:
    counts = run_suite(GAME, Setup(2), seed, extra_candidates=dragon_probes, max_commands=3000)
    assert counts.games == 1 and counts.commands > 0
    assert counts.redaction_checked > 0


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_dragons_conforms_soak(seed: int) -> None:
    """`make soak`: many more random games through the whole kit."""
    counts = run_suite(GAME, Setup(2), seed, extra_candidates=dragon_probes, max_commands=3000, states=10)
    assert counts.games == 1 and counts.redaction_checked > 0
