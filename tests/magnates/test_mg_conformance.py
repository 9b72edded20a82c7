"""The conformance kit over Магнаты for 2, 3 and 4 seats (with round limits so random games end):
random games end, replay and snapshots give the same state, every default is accepted, the
legal-move descriptors agree with decide, and the answers depend on public facts only."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from conformance.conformance_suite import Setup, run_suite
from hypothesis import given, settings
from hypothesis import strategies as st

from magnates import board
from magnates import commands as c
from magnates.game import GAME
from magnates.state import State

SETUPS = [Setup(2, {"round_limit": 25}), Setup(3, {"round_limit": 15}), Setup(4, {"round_limit": 12})]


def probes(state: Any, seat: int) -> list[msgspec.Struct]:
    """Commands with the cells and pieces that matter now (the kit's random numbers rarely hit them)."""
    s: State = state
    out: list[msgspec.Struct] = []
    for kind in ("queen", "rook", "bishop", "knight", "king", "pawn"):
        for cell in (0, 11, 33, 44, 99):
            out.append(c.MovePiece(piece=kind, to=cell))
        for office in board.offices(s.players[seat].corner):
            out.append(c.BuyPiece(piece=kind, office=office))
    for cell in board.company_cells():
        out += [c.Upgrade(cell=cell), c.ArbitrageBuy(cell=cell)]
    return out


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.seats}-seats")
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_magnates_conforms(setup: Setup, seed: int) -> None:
    counts = run_suite(GAME, setup, seed, extra_candidates=probes, max_commands=20_000)
    assert counts.games == 1 and counts.commands > 0
    assert counts.redaction_checked > 0 and counts.listed_checked > 0
