"""The search's optional game hooks (`tablehall_rules.bots`): `rollout_policy`, `bot_ranking`
and `search_hints`.

With a playout policy, playouts take its moves and never spell out `legal`; a move the rules
refuse falls back to the heuristic's path, and a seat the policy has no move for takes the
decision's default. The policy is given sampled worlds only, never the true state. The root
compares the game's ranked moves; the game's hints shape the search unless the settings say.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import msgspec
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.search.ismcts import DEFAULT_SHAPE, Search, SearchSettings, proposals
from tablehall_bot.search.rollout import World, rollout, step
from test_search_fair import ticking_clock

import testgame.game as race
from tablehall_rules import DecideContext, DrawSource, HasRolloutPolicy, SeatInfo, Viewer


class PlayedOut(race.DiceRace):
    """The dice race with a playout policy that records the states it is given."""

    def __init__(self, move: msgspec.Struct | None) -> None:
        self.move = move
        self.given: list[race.RaceState] = []
        self.legal_calls = 0
        self.random_calls = 0

    def rollout_policy(self, state: race.RaceState, seat: int, rng: random.Random) -> msgspec.Struct | None:
        self.given.append(state)
        return self.move

    def legal(self, state: race.RaceState, seat: int, now_ms: int) -> list[Any]:
        self.legal_calls += 1
        return super().legal(state, seat, now_ms)

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        self.random_calls += 1
        return super().random_policy(view, legal, rng)

    def bot_ranking(
        self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random, count: int
    ) -> list[msgspec.Struct]:
        return sorted(legal, key=lambda cmd: type(cmd).__name__ != "Pass")[:count]  # Pass first, then the rest

    def search_hints(self) -> Mapping[str, float]:
        return {"horizon": 5, "width": 2}


def started(game: race.DiceRace, seats: int = 3) -> race.RaceState:
    state = None
    for event in game.start({"target": 30}, [SeatInfo(i, f"u{i}", f"U{i}") for i in range(seats)], ctx()):
        state = game.evolve(state, event)
    assert state is not None
    return state


def ctx() -> DecideContext:
    return DecideContext(None, 0, DrawSource(b"s" * 32))


def test_a_playout_takes_the_policys_moves_without_spelling_out_legal() -> None:
    game = PlayedOut(race.Roll())
    assert isinstance(game, HasRolloutPolicy)
    world = World(started(game), DrawSource(b"d" * 32), 0)
    rollout(GameHooks(game), world, 6, random.Random(1))
    assert len(game.given) == 6 and game.legal_calls == 0
    assert sum(world.state.scores) > 0  # six rolls were made


def test_a_refused_playout_move_falls_back_to_the_heuristic() -> None:
    game = PlayedOut(race.Call())  # no six was rolled: a call is refused
    hooks = GameHooks(game)
    world = World(started(game), DrawSource(b"d" * 32), 0)
    turn = world.state.turn
    decision = game.pending(world.state)[0]
    assert step(hooks, world, decision, random.Random(1))
    assert game.legal_calls == 1  # the slow path: the heuristic rolls
    assert world.state.turn != turn or world.state.scores[turn] > 0


def test_no_playout_move_takes_the_decisions_default() -> None:
    game = PlayedOut(None)
    hooks = GameHooks(game)
    world = World(started(game), DrawSource(b"d" * 32), 0)
    turn = world.state.turn
    assert step(hooks, world, game.pending(world.state)[0], random.Random(1))
    assert world.state.turn != turn and world.state.scores == [0, 0, 0]  # passed (the default)
    assert game.legal_calls == 0


def test_the_search_gives_the_playout_policy_sampled_worlds_only() -> None:
    game = PlayedOut(race.Roll())
    state = started(game)
    view = game.view(state, Viewer.of_seat(0))
    legal = GameHooks(game).legal(state, 0, 0)
    result = Search(GameHooks(game), SearchSettings(think_ms=40), random.Random(3), ticking_clock()).choose(
        view, 0, legal
    )
    assert result.samples > 0 and game.given
    assert all(s is not state for s in game.given)
    # the other seats' secrets in the playouts are the samples', drawn afresh, not the true ones
    seen = {tuple(s.secrets[1:]) for s in game.given}
    assert len(seen) > 1


def test_the_root_compares_the_games_ranked_moves() -> None:
    game = PlayedOut(race.Roll())
    state = started(game)
    view = game.view(state, Viewer.of_seat(0))
    legal = GameHooks(game).legal(state, 0, 0)
    preferred, options = proposals(GameHooks(game), view, legal, random.Random(1), 2)
    # the ranking's first move is the search's own (the one that stands without evidence), not
    # the heuristic's (which always rolls): a game may rank by a stronger heuristic
    assert preferred == race.Pass()
    assert list(options.values()) == [race.Pass(), race.Roll()]
    assert game.random_calls == 0  # the ranking's, not the random player's


def test_the_games_hints_shape_the_search_unless_the_settings_say() -> None:
    hooks = GameHooks(PlayedOut(race.Roll()))
    search = Search(hooks, SearchSettings(), random.Random(1))
    assert (search.horizon, search.tree_depth, search.width) == (5, DEFAULT_SHAPE["tree_depth"], 2)
    search = Search(hooks, SearchSettings(horizon=9, width=3), random.Random(1))
    assert (search.horizon, search.width) == (9, 3)
    plain = Search(GameHooks(race.GAME), SearchSettings(), random.Random(1))
    assert (plain.horizon, plain.tree_depth, plain.width) == tuple(DEFAULT_SHAPE.values())


class Unsampled(PlayedOut):
    """A game whose `determinize` fails on every view."""

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> race.RaceState:
        raise RuntimeError("no sample fits this view")


def test_a_view_the_game_cannot_sample_gets_the_preferred_move() -> None:
    game = Unsampled(race.Roll())
    state = started(game)
    legal = GameHooks(game).legal(state, 0, 0)
    result = Search(GameHooks(game), SearchSettings(think_ms=40), random.Random(3), ticking_clock()).choose(
        game.view(state, Viewer.of_seat(0)), 0, legal
    )
    assert result.command == result.heuristic == race.Pass()  # the ranking's first move
    assert result.samples == 0 and result.failures == 1
