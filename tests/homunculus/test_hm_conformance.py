"""The conformance kit over Гомункул (2, 3, 4 players and 2-on-2): random games end, replay
and snapshots give the same state, every default is accepted, the legal-move descriptors agree
with decide (sampled both ways), and no seat's answers depend on what it may not know (hands,
deck order, the bazaar, hidden mines, the detector's mines and the spyglass's cards)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from conformance.conformance_suite import Setup, run_suite
from hypothesis import given, settings
from hypothesis import strategies as st

from homunculus import commands as c
from homunculus.game import GAME
from homunculus.rules import items
from homunculus.state import State

SETUPS = [Setup(2), Setup(3), Setup(4), Setup(4, {"teams": True})]


def probes(state: Any, seat: int) -> list[msgspec.Struct]:
    """Own cards and tiles with random fields (the kit's random values rarely name them)."""
    s: State = state
    out: list[msgspec.Struct] = [c.SayUno(), c.CatchUno(), c.DrawCard(), c.KeepCard(), c.EndTurn()]
    for card in s.hands[seat][:4]:
        out.append(c.PlayCard(card.colour, card.value))
        out.append(c.PlayCard(card.colour, card.value, choose_colour=1))
        out.append(c.ExchangeCard(card.colour, card.value))
    for t in s.domino_hands[seat][:2]:
        out.append(c.PlaceDomino(t.low, t.high, [70, 71]))
        out.append(c.PlaceDomino(t.low, t.high, [70, 84]))
    for item in items.PRICES:  # the second part's items, on cells with mines, pieces, tiles
        out.append(c.BuyItem(item))
        spots = [m.cell for m in s.mines[:2]] + sorted(s.pieces)[:2] + [d.cell_a for d in s.dominoes[:1]] + [0, 80]
        for x in spots:
            out.append(c.UseItem(item, target=x))
            out.append(c.UseItem(item, origin=x))
        out += [c.UseItem(item, target=p) for p in range(s.players)]
    return out


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.seats}-seats{'-teams' if s.options else ''}")
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_homunculus_conforms(setup: Setup, seed: int) -> None:
    counts = run_suite(GAME, setup, seed, extra_candidates=probes, max_commands=20_000)
    assert counts.games == 1 and counts.commands > 0
    assert counts.redaction_checked > 0
