"""The three players a bot seat can have: random, easy and strong.

- random: the game's random legal player (a baseline for benchmarks);
- easy: the game's heuristic policy with noise (a share of its moves are the
  random player's instead);
- strong: information-set MCTS over the game's own rules (`search.ismcts`).

Each decides from a seat's view and legal commands only.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field

import msgspec

from tablehall_bot.search.hooks import GameHooks, View
from tablehall_bot.search.ismcts import Search, SearchSettings

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
        if self.difficulty is Difficulty.RANDOM:
            return Choice(self.hooks.random(view, legal, self.rng))
        if self.difficulty is Difficulty.EASY:
            if self.rng.random() < self.noise:
                return Choice(self.hooks.random(view, legal, self.rng))
            return Choice(self.hooks.heuristic(view, legal, self.rng))
        result = Search(self.hooks, self.search, self.rng).choose(view, seat, legal)
        return Choice(result.command, result.searched, result.samples)
