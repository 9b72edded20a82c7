"""The three players a bot seat can have: random, easy and strong.

- random: the game's random legal player (a baseline for benchmarks);
- easy: the game's heuristic policy with noise (a share of its moves are the
  random player's instead);
- strong: information-set MCTS over the game's own rules (`search.ismcts`).

Each decides from a seat's view and legal commands only (an easy player whose
game's heuristic reads the descriptors, from those, without the commands).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec

from tablehall_bot.search.hooks import GameHooks, View
from tablehall_bot.search.ismcts import Search, SearchSettings
from tablehall_rules import LegalMove

EASY_NOISE = 0.15


class Difficulty(enum.Enum):
    RANDOM = "random"
    EASY = "easy"
    STRONG = "strong"


@dataclass(frozen=True)
class Choice:
    command: msgspec.Struct
    searched: bool = False
    iterations: int = 0


@dataclass
class Player:
    hooks: GameHooks
    difficulty: Difficulty
    rng: random.Random
    search: SearchSettings = field(default_factory=SearchSettings)
    noise: float = EASY_NOISE

    def choose(self, view: View, seat: int, legal: list[msgspec.Struct]) -> Choice:
        if not legal:
            raise ValueError("a player needs at least one legal command")
        return self.choose_on(view, seat, lambda: legal)

    def choose_on(
        self,
        view: View,
        seat: int,
        legal: Callable[[], list[msgspec.Struct]],
        moves: Sequence[LegalMove] | None = None,
    ) -> Choice:
        """`choose`, the legal commands read (`legal()`, not empty) only when needed: given the
        descriptors (`moves`, rendered by the bot itself), an easy player's heuristic move is
        decided on them when the game's heuristic reads them, the same move, nothing spelled out;
        and its random moves (the noise) too where the game's random player is a uniform draw."""
        if self.difficulty is Difficulty.RANDOM:
            return Choice(self.hooks.random(view, legal(), self.rng))
        if self.difficulty is Difficulty.EASY:
            if self.rng.random() < self.noise:
                if moves is not None:
                    return Choice(self.hooks.random_on_moves(view, moves, legal, self.rng))
                return Choice(self.hooks.random(view, legal(), self.rng))
            if moves is not None and self.hooks.has_moves_policy:
                return Choice(self.hooks.heuristic_on_moves(view, moves, self.rng))
            return Choice(self.hooks.heuristic(view, legal(), self.rng))
        result = Search(self.hooks, self.search, self.rng).choose(view, seat, legal())
        return Choice(result.command, result.searched, result.samples)
