"""Optional hooks a game may implement for the bot service.

- `determinize(view, seat, rng) -> state`: a full state consistent with what
  `seat` sees (`view` is `game.view(state, Viewer.of_seat(seat))` as JSON decodes
  it: what a bot has, string keys and all),
  the hidden parts (deck orders, other players' secrets and private offers)
  sampled with `rng`. It reads nothing but the view, so a bot searching over
  its samples never sees the true hidden state. The seat's view of a sample
  equals the view it was made from.
- `bot_policy(view, legal, rng) -> command`: the game's heuristic player,
  deciding from a seat's view and its legal commands.
- `bot_policy_moves(view, moves, rng) -> command`: the same player deciding
  from the seat's descriptors (`legal.LegalMoves`, what `legal` answers)
  instead of the commands they spell out: the command `bot_policy(view,
  expand_all(moves, codec), rng)` would choose, with the same `rng` draws,
  for a bot that renders the descriptors itself (it need not make a command
  per option to score them).
- `random_policy(view, legal, rng) -> command`: a random legal player that
  keeps the game going (it does not leave or surrender unless forced).
- `random_policy_moves(view, moves, rng) -> command`: the same player on the
  descriptors: the command `random_policy(view, expand_all(moves, codec), rng)`
  would choose, with the same draws, spelling out only the one it plays.
- `evaluate(state, seat) -> float`: how well `seat` stands, in [0, 1]
  (1: certain win), for searches cut short before the end.
- `bot_ranking(view, legal, rng, count) -> [command]`: the heuristic's
  `count` best distinct legal commands, best first: the moves a search
  compares at its root, the first being the search's own move, the one that
  stands unless the evidence overrules it (without it: the heuristic's move
  and random ones). It may rank by a stronger heuristic than `bot_policy`
  (which the easy level plays).
- `rollout_policy(state, seat, rng) -> command | None`: a fast playout move
  for one of `seat`'s open decisions, chosen from a full state (None: the
  seat has no decision there). A search calls it only inside its own sampled
  worlds (made by `determinize` from a view), never on a true state, so
  reading the state there is legitimate; it should still not play on the
  sample's hidden facts the mover could not know (a hidden mine, say), or
  its playouts are clairvoyant. It need not spell out the descriptors: a few
  good candidates built from the state are enough. Its commands should be
  accepted by `decide` (a refused one costs the search the slow path).
  Without it, playouts spell out `legal` and ask `bot_policy` each move.
- `search_hints() -> {"horizon": n, "tree_depth": n, "width": n,
  "min_samples": n, "confidence": x}`: the search shape that suits the game
  (any of the keys; a bot's own settings override them): how many playout
  moves before `evaluate` scores, how deep the tree grows, how many moves a
  node compares, and the evidence a move needs to overrule the heuristic's
  (samples, and standard errors of the paired difference).

`bot_policy` and `random_policy` raise `NoMove` when the seat has nothing a
bot would do (leaving the game, say, is all that is legal): the bot service
then makes no move, and a clocked decision is left to the timer's default. A
bot never leaves a game on its own.

All are pure. A game without them gets the generic fallbacks of the bot
service: no search (the heuristic or random move), uniform random moves, and
an evaluation from `outcome` alone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import msgspec

from tablehall_rules.legal import LegalMove


class NoMove(ValueError):
    """The seat has no move a bot would make (only leaving, say): the bot makes none."""


@runtime_checkable
class Determinizable(Protocol):
    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> Any: ...


@runtime_checkable
class HasBotPolicy(Protocol):
    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct: ...


@runtime_checkable
class HasMovesPolicy(Protocol):
    def bot_policy_moves(
        self, view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random
    ) -> msgspec.Struct: ...


@runtime_checkable
class HasRandomMovesPolicy(Protocol):
    def random_policy_moves(
        self, view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random
    ) -> msgspec.Struct: ...


@runtime_checkable
class HasRandomPolicy(Protocol):
    def random_policy(
        self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random
    ) -> msgspec.Struct: ...


@runtime_checkable
class HasEvaluation(Protocol):
    def evaluate(self, state: Any, seat: int) -> float: ...


@runtime_checkable
class HasBotRanking(Protocol):
    def bot_ranking(
        self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random, count: int
    ) -> list[msgspec.Struct]: ...


@runtime_checkable
class HasRolloutPolicy(Protocol):
    def rollout_policy(self, state: Any, seat: int, rng: random.Random) -> msgspec.Struct | None: ...


@runtime_checkable
class HasSearchHints(Protocol):
    def search_hints(self) -> Mapping[str, float]: ...
