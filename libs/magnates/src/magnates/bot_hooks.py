"""The hooks the bot service calls (`tablehall_rules.bots`), each answered by the bot module
that knows: the heuristic (`bot`), the search's score (`policy`), the full state from a view
(`determinize`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import msgspec

from magnates import bot
from magnates.determinize import determinize
from magnates.policy import win_chance
from magnates.state import State
from tablehall_rules import (
    Determinizable,
    HasBotPolicy,
    HasBotRanking,
    HasEvaluation,
    HasRandomPolicy,
    HasRolloutPolicy,
    HasSearchHints,
)


class BotHooks(
    Determinizable, HasBotPolicy, HasBotRanking, HasRolloutPolicy, HasRandomPolicy, HasEvaluation, HasSearchHints
):
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
