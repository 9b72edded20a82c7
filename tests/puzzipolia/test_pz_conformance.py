"""The conformance kit over Пузиполия: random games end, replay and snapshots
give the same state, every default is accepted, the legal-move descriptors
agree with decide (sampled both ways), and no seat's answers depend on what
it may not know (deck order, others' private offers)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from conformance.conformance_suite import Setup, run_suite
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzipolia import commands as c
from puzzipolia.game import GAME
from puzzipolia.state import Bundle, State

SETUPS = [Setup(2, {"round_limit": 8}), Setup(4, {"round_limit": 6}), Setup(9, {"round_limit": 8})]


def trade_probes(state: Any, seat: int) -> list[msgspec.Struct]:
    """Answers to every open offer (the kit's random ids rarely hit them) and a few bids."""
    st: State = state
    out: list[msgspec.Struct] = []
    for o in st.offers:
        out += [c.AcceptTrade(offer_id=o.id), c.DeclineTrade(offer_id=o.id), c.WithdrawTrade(offer_id=o.id)]
    if st.auction is not None:
        out += [c.Bid(amount=st.auction.high_bid + step) for step in (1, 10, 100)]
    for other in st.live_seats():
        if other != seat:
            out.append(c.ProposeTrade(to_seat=other, give=Bundle(money=1), get=Bundle()))
    return out


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.seats}-seats")
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_puzzipolia_conforms(setup: Setup, seed: int) -> None:
    counts = run_suite(GAME, setup, seed, extra_candidates=trade_probes, max_commands=20_000)
    assert counts.games == 1 and counts.commands > 0
    assert counts.redaction_checked > 0
