"""Random games never raise, always end (with a round limit), and replay identically: the same
seed gives the same events, and the events rebuild the same state."""

from __future__ import annotations

import random

import msgspec
import pytest

from magnates.game import GAME
from tablehall_rules import conformance as kit


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_and_replay(seats: int) -> None:
    for seed in range(8):
        final, record = kit.play_random_game(GAME, {"round_limit": 20}, seats, random.Random(seed), max_commands=20_000)
        assert final.phase == "over" and record.ended
        assert sorted(s for place in final.places for s in place) == list(range(seats))
        kit.check_replay(GAME, final, record, random.Random(seed))
        again, record2 = kit.play_random_game(
            GAME, {"round_limit": 20}, seats, random.Random(seed), max_commands=20_000
        )
        assert msgspec.json.encode(record2.events) == msgspec.json.encode(record.events)
        assert msgspec.json.encode(again) == msgspec.json.encode(final)


def test_games_without_a_round_limit_end_by_elimination_under_the_easy_bot() -> None:
    """Bot play to the last one standing (no round limit) ends too."""
    from tablehall_rules import DecideContext, StructCodec, Viewer
    from tablehall_rules.legal import expand_all

    codec = StructCodec(GAME.command_types)
    rng = random.Random(7)
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), b"bots")
    for step in range(20_000):
        if GAME.outcome(state) is not None:
            break
        (decision,) = GAME.pending(state)
        legal = expand_all(GAME.legal(state, decision.seat, 0), codec)
        view = GAME.view(state, Viewer.of_seat(decision.seat))
        policy = GAME.bot_policy if decision.seat == 0 else GAME.random_policy
        command = policy(view, legal, rng)
        for event in GAME.decide(state, command, DecideContext(decision.seat, step, source)):
            state = GAME.evolve(state, event)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "last_standing"
