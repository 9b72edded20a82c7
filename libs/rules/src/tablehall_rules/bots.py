"""Optional hooks a game may implement for the bot service.

- `determinize(view, seat, rng) -> state`: a full state consistent with what
  `seat` sees (`view` is exactly `game.view(state, Viewer.of_seat(seat))`),
  the hidden parts (deck orders, other players' secrets and private offers)
  sampled with `rng`. It reads nothing but the view, so a bot searching over
  its samples never sees the true hidden state. The seat's view of a sample
  equals the view it was made from.
- `bot_policy(view, legal, rng) -> command`: the game's heuristic player,
  deciding from a seat's view and its legal commands.
- `random_policy(view, legal, rng) -> command`: a random legal player that
  keeps the game going (it does not leave or surrender unless forced).
- `evaluate(state, seat) -> float`: how well `seat` stands, in [0, 1]
  (1: certain win), for searches cut short before the end.

All are pure. A game without them gets the generic fallbacks of the bot
service: no search (the heuristic or random move), uniform random moves, and
an evaluation from `outcome` alone.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

import msgspec


@runtime_checkable
class Determinizable(Protocol):
    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> Any: ...


@runtime_checkable
class HasBotPolicy(Protocol):
    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct: ...


@runtime_checkable
class HasRandomPolicy(Protocol):
    def random_policy(
        self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random
    ) -> msgspec.Struct: ...


@runtime_checkable
class HasEvaluation(Protocol):
    def evaluate(self, state: Any, seat: int) -> float: ...
