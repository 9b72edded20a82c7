"""Bots take reaction windows, and their searches simulate every open decision,
not only the first."""

from __future__ import annotations

import random

import msgspec
from tablehall_bot.players import Difficulty, Player
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.search.ismcts import SearchSettings
from tablehall_bot.search.rollout import World

from tablehall_rules import DrawSource, PendingDecision, Viewer
from tablehall_rules.testing import Table
from testgame import game as race


def six_rolled() -> race.RaceState:
    """A three-seat race with calls where seat 0 has just rolled a six."""
    table = Table(race.GAME, seats=3, options={"target": 50, "calls": True}, seed=b"s" * 32, now_ms=0)
    table.play(race.Roll(), dice=(6,), now_ms=10)
    return table.state


def test_every_bot_level_takes_an_open_reaction_window() -> None:
    state = six_rolled()
    hooks = GameHooks(race.GAME)
    legal = hooks.legal(state, 2, 20)
    assert legal == [race.Call()]
    view = race.GAME.view(state, Viewer.of_seat(2))
    for difficulty in (Difficulty.EASY, Difficulty.STRONG):
        player = Player(hooks, difficulty, random.Random(1), SearchSettings(think_ms=20, horizon=10), noise=0.0)
        assert player.choose(view, 2, legal).command == race.Call()


def test_a_simulated_world_moves_any_seat_with_an_open_decision() -> None:
    state = six_rolled()
    decisions = race.GAME.pending(state)
    # seat 1's turn (clocked) and the windows of seats 1 and 2 to call seat 0's six
    assert sorted((d.seat, d.reaction) for d in decisions) == [(1, False), (1, True), (2, True)]
    hooks = GameHooks(race.GAME)
    world = World(msgspec.structs.replace(state), DrawSource(b"w"), 20)
    picked = set()
    rng = random.Random(3)
    for _ in range(40):
        actor = world.actor(hooks, rng)
        assert isinstance(actor, PendingDecision)
        picked.add(actor.seat)
        assert actor in decisions
    assert picked == {1, 2}  # not only the first open decision
