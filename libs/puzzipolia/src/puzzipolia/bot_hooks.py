"""The hooks the bot service calls (`tablehall_rules.bots`), each answered by the module that
knows: the heuristic (`bot`), the full state from a view (`determinize`), a random legal move
(`simulate`, on the commands or on their descriptors), the search's score (net worth, `rules.end`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from puzzipolia import bot, simulate
from puzzipolia.determinize import determinize
from puzzipolia.rules.end import net_worth
from puzzipolia.state import State
from tablehall_rules import (
    Determinizable,
    HasBotPolicy,
    HasEvaluation,
    HasMovesPolicy,
    HasRandomMovesPolicy,
    HasRandomPolicy,
    LegalMove,
)


class BotHooks(Determinizable, HasBotPolicy, HasMovesPolicy, HasRandomPolicy, HasRandomMovesPolicy, HasEvaluation):
    determinize = staticmethod(determinize)

    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return bot.choose(view, legal, rng)  # type: ignore[arg-type]

    def bot_policy_moves(self, view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random) -> msgspec.Struct:
        return bot.choose_moves(view, moves, rng)

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        # a bot never leaves nor proposes the end: with nothing else legal it makes no move
        staying = [x for x in legal if not isinstance(x, bot.NEVER)]
        if not staying:
            raise bot.NoMove("only leaving is legal: a bot has no decision here")
        return simulate.random_choice(staying, rng, quitting=False)  # type: ignore[arg-type]

    def random_policy_moves(
        self, view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random
    ) -> msgspec.Struct:
        """`random_policy` on the descriptors: the same command with the same draws, only it spelled out."""
        staying = [lm for lm in moves if not isinstance(lm.command, bot.NEVER)]
        if not any(lm.size() for lm in staying):
            raise bot.NoMove("only leaving is legal: a bot has no decision here")
        return simulate.random_choice_moves(staying, rng, quitting=False)

    def evaluate(self, state: State, seat: int) -> float:
        """1 for a sole winner; in play, the seat's share of the live players' net worth."""
        if state.phase == "over":
            first = state.places[0] if state.places else []
            return 1.0 / len(first) if seat in first else 0.0
        if not state.player(seat).is_playing:
            return 0.0
        worth = {s: max(net_worth(state, s), 0) for s in state.live_seats()}
        total = sum(worth.values())
        return worth[seat] / total if total else 1.0 / len(worth)
