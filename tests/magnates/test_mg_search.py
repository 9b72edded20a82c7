"""What the strong bot's search reads of Магнаты: `evaluate` (the chance to win), the heuristic
read from a full state (`rollout_policy`: the strong weights, the same moves as from the view),
and a search over a real position that decides from the view alone."""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec
import pytest

from magnates import bot, policy
from magnates.game import GAME
from magnates.state import State
from tablehall_rules import StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all
from tablehall_rules.testing import Table

CODEC = StructCodec(GAME.command_types)


def positions(seed: int, seats: int = 2, every: int = 7) -> list[State]:
    _, record = kit.play_random_game(GAME, {"round_limit": 12}, seats, random.Random(seed))
    states = [msgspec.json.decode(snapshot, type=GAME.state_type) for _, snapshot in record.checkpoints[::every]]
    return [s for s in states if s.phase != "over"]


def test_evaluate_is_the_chance_to_win_at_the_round_limit() -> None:
    state = Table(GAME, 2, {"round_limit": 20}).state
    assert GAME.evaluate(state, 0) == pytest.approx(0.5) == GAME.evaluate(state, 1)
    state.players[0].cash += 3000
    ahead, behind = GAME.evaluate(state, 0), GAME.evaluate(state, 1)
    assert 0.5 < ahead < 0.9 and ahead + behind == pytest.approx(1.0)  # 20 rounds to go: far from sure
    state.players[0].cash += 3000
    assert GAME.evaluate(state, 0) > ahead  # more lead, more chance
    # the same lead of 6000 at the last player's turn of the last round is a near-certain win
    state.round, state.turn = 20, 1
    assert policy.rounds_left(state) == pytest.approx(0.5)
    assert GAME.evaluate(state, 0) > 0.99 and GAME.evaluate(state, 1) < 0.01


def test_evaluate_is_exact_when_the_game_is_over_or_the_seat_is_out() -> None:
    state = Table(GAME, 3, {"round_limit": 20}).state
    state.players[2].alive = False
    assert GAME.evaluate(state, 2) == 0.0
    state.phase, state.places = "over", [[0, 1], [2]]
    assert GAME.evaluate(state, 0) == 0.5 == GAME.evaluate(state, 1)
    state.places = [[1], [0], [2]]
    assert (GAME.evaluate(state, 0), GAME.evaluate(state, 1)) == (0.0, 1.0)


def test_evaluate_weighs_a_lead_against_the_richest_rival() -> None:
    state = Table(GAME, 4, {"round_limit": 10}).state
    state.players[1].cash += 4000
    # seat 0 is level with seats 2 and 3 but behind seat 1; seat 1 leads everyone by 4000
    assert GAME.evaluate(state, 0) == GAME.evaluate(state, 2) == GAME.evaluate(state, 3)
    assert GAME.evaluate(state, 0) < 0.5 < GAME.evaluate(state, 1)


def test_the_heuristic_from_a_state_makes_the_moves_it_makes_from_the_view() -> None:
    compared = 0
    for seed, seats in ((1, 2), (2, 3), (4, 4)):
        for state in positions(seed, seats):
            seat = state.turn
            legal = expand_all(GAME.legal(state, seat, 0), CODEC)
            assert bot.legal_commands(state, seat) == legal
            view = GAME.view(state, Viewer.of_seat(seat))
            for k in range(3):
                # the easy weights from a state and from the view: the easy bot's move
                assert bot.choose_in_state(state, seat, random.Random(k)) == GAME.bot_policy(
                    view, legal, random.Random(k)
                )
                # the search's playouts: the strong weights, the same from a state as from the view
                assert GAME.rollout_policy(state, seat, random.Random(k)) == bot.choose(
                    view, legal, random.Random(k), bot.STRONG
                )
            compared += 1
    assert compared > 30


def test_the_heuristic_from_a_state_needs_an_open_decision_of_the_seat() -> None:
    state = Table(GAME, 2, {"round_limit": 20}).state
    with pytest.raises(ValueError):
        bot.choose_in_state(state, 1, random.Random(0))  # seat 0 is to roll


def ticking_clock(step: float = 0.0005) -> Callable[[], float]:
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


def test_a_search_decides_from_the_view_alone_and_overrules_only_on_evidence() -> None:
    from tablehall_bot.search.hooks import GameHooks, command_key
    from tablehall_bot.search.ismcts import Search, SearchSettings

    hooks = GameHooks(GAME)
    settings = SearchSettings(think_ms=30)
    searched = 0
    for state in positions(6, 2, every=5)[:10]:
        seat = state.turn
        legal = hooks.legal(state, seat, 0)
        if len(legal) < 2:
            continue
        view = GAME.view(state, Viewer.of_seat(seat))
        # the table's state is not the search's to read: a state rebuilt from the view gives the
        # same view, and the same search (same seed, a clock that counts calls) the same result
        twin = GAME.view(GAME.determinize(view, seat, random.Random(9)), Viewer.of_seat(seat))
        searches = [Search(hooks, settings, random.Random(5), ticking_clock()) for _ in (view, twin)]
        results = [search.choose(v, seat, legal) for search, v in zip(searches, (view, twin), strict=True)]
        assert results[0] == results[1]
        result = results[0]
        assert result.command in legal and result.failures == 0
        if result.command != result.heuristic:
            assert searches[0].min_samples == 8 and searches[0].confidence == 2.0  # Магнаты's hints
            assert result.samples >= 8 and result.lead >= 2.0
            own, chosen = command_key(result.heuristic), command_key(result.command)
            assert result.means[chosen] > result.means[own] + settings.margin
        searched += result.searched
    assert searched >= 3
