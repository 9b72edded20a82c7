"""The Магнаты game object the platform loads (`magnates.game:GAME`): each member of the contract
is the rules module that answers it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from magnates import bot, setup
from magnates.commands import COMMAND_TYPES
from magnates.decide import decide
from magnates.determinize import determinize
from magnates.events import EVENT_TYPES
from magnates.evolve import evolve
from magnates.journal import entries
from magnates.legal import legal_moves
from magnates.pending import default_command, pending
from magnates.policy import win_chance
from magnates.rules.elimination import outcome, standings
from magnates.state import State
from magnates.view import view
from tablehall_rules import (
    Determinizable,
    Game,
    GameNature,
    HasBotPolicy,
    HasBotRanking,
    HasEvaluation,
    HasRandomPolicy,
    HasRolloutPolicy,
    HasSearchHints,
    HasStandings,
    Journaled,
)
from tablehall_rules.table import SeatedGame


class Magnates(
    Game[State],
    SeatedGame,
    Journaled,
    HasStandings,
    Determinizable,
    HasBotPolicy,
    HasBotRanking,
    HasRolloutPolicy,
    HasRandomPolicy,
    HasEvaluation,
    HasSearchHints,
):
    id: ClassVar[str] = "magnates"
    rules_version: ClassVar[str] = "1.0.0"
    min_seats: ClassVar[int] = setup.MIN_SEATS
    max_seats: ClassVar[int] = setup.MAX_SEATS
    state_type: ClassVar[type[Any]] = State
    command_types: ClassVar[Sequence[type[msgspec.Struct]]] = COMMAND_TYPES
    event_types: ClassVar[Sequence[type[msgspec.Struct]]] = EVENT_TYPES
    title: ClassVar[Mapping[str, str]] = {"en": "Magnates", "ru": "Магнаты"}
    options_schema: ClassVar[Mapping[str, Any]] = setup.OPTIONS_SCHEMA
    # everything is public but the future dice; one decision at a time, the turn's player's.
    # At most 15 commands a turn (a roll, three King stops of up to four, a piece's move and its
    # stop), 4 turns a round, 1000 rounds at the longest round limit; with none (0) the rules set
    # no bound: the game ends when one player is left
    nature: ClassVar[GameNature] = GameNature(
        hidden_information=False, chance=True, simultaneous=False, max_commands=60_000
    )

    parse_options = staticmethod(setup.parse_options)
    start = staticmethod(setup.start)
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    view = staticmethod(view)
    legal = staticmethod(legal_moves)
    pending = staticmethod(pending)
    default_command = staticmethod(default_command)
    outcome = staticmethod(outcome)
    journal = staticmethod(entries)
    standings = staticmethod(standings)
    determinize = staticmethod(determinize)
    bot_policy = staticmethod(bot.choose)  # the easy heuristic
    bot_ranking = staticmethod(bot.ranked)  # the strong heuristic's best moves, its own first
    evaluate = staticmethod(win_chance)

    def rollout_policy(self, state: State, seat: int, rng: random.Random) -> msgspec.Struct:
        """The strong heuristic read from the full state: what the strong bot's search plays out."""
        return bot.choose_in_state(state, seat, rng, bot.STRONG)

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return bot.random_choice(legal, rng)

    def search_hints(self) -> Mapping[str, float]:
        # a rollout of 16 moves, about four turns (two rounds heads-up), then `evaluate`, which
        # weighs the lead by the rounds still to play; longer rollouts only buy fewer, noisier
        # samples. The dice make one sample worth little: the heuristic's move stands unless
        # another leads it over 8 samples by 2 standard errors of the paired difference
        return {"horizon": 16, "min_samples": 8, "confidence": 2.0}


GAME = Magnates()
