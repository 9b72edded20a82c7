"""Property tests: random legal games with random and bot players, 2–16 seats, both boards."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzipolia.events import PlayerEliminated
from puzzipolia.evolve import evolve
from puzzipolia.journal import entry
from puzzipolia.simulate import play
from puzzipolia.state import Bundle, State
from puzzipolia.view import view
from tablehall_rules import Viewer, clone


def check_views(state: State) -> None:
    """No seat or spectator sees the deck order or other players' offers."""
    for viewer in [Viewer.spectator(), *(Viewer.of_seat(p.seat) for p in state.players)]:
        hidden = clone(state)
        hidden.decks = {deck: list(reversed(cards)) for deck, cards in hidden.decks.items()}
        # offers between others: what they hold and who made them is hidden (their number shows
        # only as a recipient's `offers_full`, the seed's three-offer limit, kept by the stand-ins)
        hidden.offers = [
            o
            if viewer.seat in (o.proposer, o.recipient)
            else msgspec.structs.replace(o, proposer=o.recipient, give=Bundle(money=1), get=Bundle(money=2))
            for o in hidden.offers
        ]
        seen, without = view(state, viewer), view(hidden, viewer)
        assert seen == without, f"{viewer} sees hidden data"
        msgspec.json.encode(seen)  # JSON-able
    audit = view(state, Viewer.auditor())
    assert audit["decks"]["chance"]["order"] == state.decks["chance"]


def invariants(state: State, new: list[msgspec.Struct]) -> None:
    for p in state.players:
        if p.money < 0:
            assert state.debts_of(p.seat), f"seat {p.seat} has negative money and no debt"
            raise AssertionError(f"seat {p.seat} has negative money {p.money}")
    if state.last_at_ms % 37 == 0:
        check_views(state)


def run(seed: int, seats: int, bots: int) -> None:
    kinds = ["bot" if i < bots else "random" for i in range(seats)]
    options = {"round_limit": 8 if seats >= 7 else 20}
    record = play(kinds, seed, options=options, check=invariants, verify_pure=seed % 4 == 0)
    state = record.state
    assert state.phase == "over", "the game did not end"
    left = [e.seat for e in record.events if isinstance(e, PlayerEliminated) and e.reason == "left"]
    assert not [seat for seat in left if kinds[seat] == "bot"], "a bot (or a default move) left the game"
    replayed: State | None = None
    for e in record.events:
        replayed = evolve(replayed, e)
    assert msgspec.json.encode(replayed) == msgspec.json.encode(state), "replay differs"
    for e in record.events:
        line = entry(e, state)
        assert line.ru and line.en and line.code
    check_views(state)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 16), bots=st.integers(0, 16))
def test_random_legal_games(seed: int, seats: int, bots: int) -> None:
    run(seed, seats, min(bots, seats))


@pytest.mark.slow
@pytest.mark.parametrize("block", range(20))
def test_thousands_of_random_games(block: int) -> None:
    for seed in range(block * 100, block * 100 + 100):
        seats = 2 + seed % 15
        run(seed, seats, seed % (seats + 1))
