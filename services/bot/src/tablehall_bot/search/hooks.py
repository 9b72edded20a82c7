"""A game's bot hooks (`tablehall_rules.bots`) with the generic fallbacks.

Games that lack a hook still get a player: the heuristic falls back to the
random player, the random player to a uniform choice, the evaluation to the
outcome alone, and a game that cannot be determinized is not searched. A
game without a ranking has its heuristic's move and random ones compared; a
game without a playout policy is played out by spelling out `legal` and
asking the heuristic (from the mover's view of the sample) each move. A game
whose heuristic reads the descriptors (`bot_policy_moves`) is asked that way
where the bot rendered them itself, without spelling them out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import msgspec

from tablehall_rules import (
    Determinizable,
    Game,
    HasBotPolicy,
    HasBotRanking,
    HasEvaluation,
    HasMovesPolicy,
    HasRandomMovesPolicy,
    HasRandomPolicy,
    HasRolloutPolicy,
    HasSearchHints,
    LegalMove,
    Viewer,
    clone,
)
from tablehall_rules.legal import count_upto, draw, expand_all
from tablehall_stream.codecs import command_codec

# the most commands a bot considers at one decision (descriptors spelled out): the live view's and a search's
LEGAL_LIMIT = 5000

View = dict[str, Any]


def spelled(game_id: str, moves: Sequence[LegalMove]) -> list[msgspec.Struct]:
    """The commands the descriptors spell out, as many as a bot considers (`LEGAL_LIMIT`)."""
    return expand_all(moves, command_codec(game_id), limit=LEGAL_LIMIT)


@dataclass(frozen=True)
class GameHooks:
    game: Game[Any]

    # the game's hooks, looked up once (isinstance on a runtime protocol is slow)
    @cached_property
    def _determinize(self) -> Callable[[View, int, random.Random], Any] | None:
        return self.game.determinize if isinstance(self.game, Determinizable) else None

    @cached_property
    def _policy(self) -> Callable[[View, list[msgspec.Struct], random.Random], msgspec.Struct] | None:
        return self.game.bot_policy if isinstance(self.game, HasBotPolicy) else None

    @cached_property
    def _moves_policy(self) -> Callable[[View, Sequence[LegalMove], random.Random], msgspec.Struct] | None:
        return self.game.bot_policy_moves if isinstance(self.game, HasMovesPolicy) else None

    @cached_property
    def _random(self) -> Callable[[View, list[msgspec.Struct], random.Random], msgspec.Struct] | None:
        return self.game.random_policy if isinstance(self.game, HasRandomPolicy) else None

    @cached_property
    def _random_moves(self) -> Callable[[View, Sequence[LegalMove], random.Random], msgspec.Struct] | None:
        return self.game.random_policy_moves if isinstance(self.game, HasRandomMovesPolicy) else None

    @cached_property
    def _ranking(self) -> Callable[[View, list[msgspec.Struct], random.Random, int], list[msgspec.Struct]] | None:
        return self.game.bot_ranking if isinstance(self.game, HasBotRanking) else None

    @cached_property
    def _playout(self) -> Callable[[Any, int, random.Random], msgspec.Struct | None] | None:
        return self.game.rollout_policy if isinstance(self.game, HasRolloutPolicy) else None

    @cached_property
    def _evaluate(self) -> Callable[[Any, int], float] | None:
        return self.game.evaluate if isinstance(self.game, HasEvaluation) else None

    @cached_property
    def search_hints(self) -> Mapping[str, float]:
        """The game's preferred search shape (horizon, tree_depth, width) and evidence (min_samples,
        confidence), or nothing."""
        return self.game.search_hints() if isinstance(self.game, HasSearchHints) else {}

    @property
    def searchable(self) -> bool:
        return self._determinize is not None

    @property
    def has_playout(self) -> bool:
        return self._playout is not None

    @property
    def has_moves_policy(self) -> bool:
        """Whether the heuristic decides on descriptors (`heuristic_on_moves` spells none out)."""
        return self._moves_policy is not None

    def determinize(self, view: View, seat: int, rng: random.Random) -> Any:
        assert self._determinize is not None
        return self._determinize(view, seat, rng)

    def legal(self, state: Any, seat: int, now_ms: int) -> list[msgspec.Struct]:
        """The seat's legal commands in `state`, spelled out from the game's descriptors."""
        return self.spell(self.game.legal(state, seat, now_ms))

    def spell(self, moves: Sequence[LegalMove]) -> list[msgspec.Struct]:
        """The commands the descriptors spell out, as many as a bot considers."""
        return spelled(self.game.id, moves)

    def heuristic(self, view: View, legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        if self._policy is not None:
            return self._policy(view, legal, rng)
        return self.random(view, legal, rng)

    def heuristic_on_moves(self, view: View, moves: Sequence[LegalMove], rng: random.Random) -> msgspec.Struct:
        """`heuristic(view, spell(moves), rng)`: the same command, decided on the descriptors when
        the game's policy reads them (and they spell out no more than `spell` keeps)."""
        if self._moves_policy is not None and count_upto(moves, LEGAL_LIMIT + 1) <= LEGAL_LIMIT:
            return self._moves_policy(view, moves, rng)
        return self.heuristic(view, self.spell(moves), rng)

    def ranking(
        self, view: View, legal: list[msgspec.Struct], rng: random.Random, count: int
    ) -> list[msgspec.Struct] | None:
        """The heuristic's `count` best distinct moves, best first; None when the game does not rank."""
        return self._ranking(view, legal, rng, count) if self._ranking is not None else None

    def playout(self, state: Any, seat: int, rng: random.Random) -> msgspec.Struct | None:
        """The game's fast playout move for `seat` in a sampled full state (None: none, or no hook)."""
        return self._playout(state, seat, rng) if self._playout is not None else None

    def random_on_moves(
        self, view: View, moves: Sequence[LegalMove], legal: Callable[[], list[msgspec.Struct]], rng: random.Random
    ) -> msgspec.Struct:
        """`random(view, legal(), rng)`: the same command, with the same draws. A game without a
        random policy of its own plays one of the first `LEGAL_LIMIT` commands uniformly, made
        alone from the descriptors (`nth`), not every one spelled out to draw one; a game whose
        random policy reads descriptors (`random_policy_moves`) is asked that way."""
        if self._random is not None:
            if self._random_moves is not None and count_upto(moves, LEGAL_LIMIT + 1) <= LEGAL_LIMIT:
                return self._random_moves(view, moves, rng)
            return self._random(view, legal(), rng)
        return draw(moves, rng, command_codec(self.game.id), LEGAL_LIMIT)

    def random(self, view: View, legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        if self._random is not None:
            return self._random(view, legal, rng)
        return rng.choice(legal)

    def evaluate(self, state: Any, seat: int) -> float:
        if self._evaluate is not None:
            return float(self._evaluate(state, seat))
        outcome = self.game.outcome(state)
        if outcome is None:
            return 0.5
        first = outcome.places[0] if outcome.places else []
        return 1.0 / len(first) if seat in first else 0.0

    def seat_view(self, state: Any, seat: int) -> View:
        view: View = self.game.view(state, Viewer.of_seat(seat))
        return view

    def clone(self, state: Any) -> Any:
        return clone(state)


def command_key(command: msgspec.Struct) -> bytes:
    """A command's identity (tagged structs encode with their tag)."""
    return msgspec.json.encode(command)
