"""A game's bot hooks (`tablehall_rules.bots`) with the generic fallbacks.

Games that lack a hook still get a player: the heuristic falls back to the
random player, the random player to a uniform choice, the evaluation to the
outcome alone, and a game that cannot be determinized is not searched.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import msgspec

from tablehall_rules import (
    Determinizable,
    Game,
    HasBotPolicy,
    HasEvaluation,
    HasRandomPolicy,
    Viewer,
)
from tablehall_rules.legal import expand_all
from tablehall_stream.codecs import command_codec

# the most commands a bot considers at one decision (descriptors spelled out): the live view's and a search's
LEGAL_LIMIT = 5000

View = dict[str, Any]

# rollout moves after a search's tree when the game names no `search_horizon` of its own
DEFAULT_HORIZON = 40


@dataclass(frozen=True)
class GameHooks:
    game: Game[Any]

    @property
    def searchable(self) -> bool:
        return isinstance(self.game, Determinizable)

    @property
    def horizon(self) -> int:
        """The game's own rollout length (`search_horizon`: a move is worth less or more in different
        games, and so is a sample), else DEFAULT_HORIZON."""
        return int(getattr(self.game, "search_horizon", DEFAULT_HORIZON))

    def determinize(self, view: View, seat: int, rng: random.Random) -> Any:
        assert isinstance(self.game, Determinizable)
        return self.game.determinize(view, seat, rng)

    def legal(self, state: Any, seat: int, now_ms: int) -> list[msgspec.Struct]:
        """The seat's legal commands in `state`, spelled out from the game's descriptors."""
        moves = self.game.legal(state, seat, now_ms)
        return expand_all(moves, command_codec(self.game.id), limit=LEGAL_LIMIT)

    def heuristic(self, view: View, legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        if isinstance(self.game, HasBotPolicy):
            return self.game.bot_policy(view, legal, rng)
        return self.random(view, legal, rng)

    def random(self, view: View, legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        if isinstance(self.game, HasRandomPolicy):
            return self.game.random_policy(view, legal, rng)
        return rng.choice(legal)

    def evaluate(self, state: Any, seat: int) -> float:
        if isinstance(self.game, HasEvaluation):
            return float(self.game.evaluate(state, seat))
        outcome = self.game.outcome(state)
        if outcome is None:
            return 0.5
        first = outcome.places[0] if outcome.places else []
        return 1.0 / len(first) if seat in first else 0.0

    def seat_view(self, state: Any, seat: int) -> View:
        view: View = self.game.view(state, Viewer.of_seat(seat))
        return view

    def clone(self, state: Any) -> Any:
        return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=self.game.state_type)


def command_key(command: msgspec.Struct) -> bytes:
    """A command's identity (tagged structs encode with their tag)."""
    return msgspec.json.encode(command)
