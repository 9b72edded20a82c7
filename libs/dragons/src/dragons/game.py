"""The Драконы game object the platform loads (`dragons.game:GAME`)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from dragons import bot, determinize, legal, pending, view
from dragons import decide as deciding
from dragons.commands import COMMAND_TYPES
from dragons.events import EVENT_TYPES
from dragons.evolve import evolve
from dragons.journal import LINES
from dragons.rules import setup
from dragons.rules.end import final_score, places_by
from dragons.state import OVER, State
from tablehall_rules import (
    DecideContext,
    Determinizable,
    Game,
    GameNature,
    HasBotPolicy,
    HasEvaluation,
    HasRandomPolicy,
    HasStandings,
    Journaled,
    LegalMove,
    Outcome,
    PendingDecision,
    SeatInfo,
    Viewer,
)
from tablehall_rules.journal import JournalEntry
from tablehall_rules.table import SeatedGame

# a lead of this many points makes a seat a near-certain winner in `evaluate`
EVALUATION_SCALE = 40.0


class Dragons(
    Game[State],
    SeatedGame,
    Journaled,
    HasStandings,
    Determinizable,
    HasBotPolicy,
    HasRandomPolicy,
    HasEvaluation,
):
    id: ClassVar[str] = "dragons"
    rules_version: ClassVar[str] = "1.1.0"  # 1.1.0: pinched figure-eights refused; domino answers sealed
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    state_type: ClassVar[type[Any]] = State
    command_types: ClassVar[Sequence[type[msgspec.Struct]]] = COMMAND_TYPES
    event_types: ClassVar[Sequence[type[msgspec.Struct]]] = EVENT_TYPES
    title: ClassVar[Mapping[str, str]] = {
        "en": "Dragons play more than poker",
        "ru": "Драконы играют не только в покер",
    }
    options_schema: ClassVar[Mapping[str, Any]] = setup.OPTIONS_SCHEMA
    # the opponent's domino hand and sealed answers are hidden; the server rolls every die; both
    # seats answer the domino choice at once. Commands: the start ring's 8 dice, 22 rounds of 5
    # turns, at most 18 black dice placed and 2 domino answers after each of rounds 1-21
    nature: ClassVar[GameNature] = GameNature(
        hidden_information=True, chance=True, simultaneous=True, max_commands=8 + 22 * 5 + 18 + 2 * 21
    )

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        return setup.parse_options(raw)

    def start(self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
        return list(setup.start(options, seats, ctx))

    def decide(self, state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        return deciding.decide(state, command, ctx)

    def evolve(self, state: State | None, event: msgspec.Struct) -> State:
        """Updates `state` in place and returns it."""
        return evolve(state, event)  # type: ignore[arg-type]

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.view(state, viewer)

    def legal(self, state: State, seat: int, now_ms: int) -> list[LegalMove]:
        return legal.legal_moves(state, seat, now_ms)

    def pending(self, state: State) -> list[PendingDecision]:
        return pending.pending(state)

    def default_command(self, state: State, decision: PendingDecision) -> msgspec.Struct:
        return pending.default_command(state, decision)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        return Outcome(
            places=[list(p) for p in state.places],
            reason=state.end_reason,
            scores=dict(enumerate(state.final)),
        )

    # the projection's hooks
    def journal(self, state_before: State | None, event: msgspec.Struct) -> list[JournalEntry]:
        return LINES.entries(state_before if state_before is not None else self.evolve(None, event), event)

    def standings(self, state: State) -> list[list[int]]:
        """Live places by score (public), final places once over."""
        if state.phase == OVER:
            return [list(p) for p in state.places]
        return places_by([p.score for p in state.players])

    # bot hooks
    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return determinize.determinize(view, seat, rng)

    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return bot.choose(view, legal, rng)

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return bot.random_choice(legal, rng)

    def evaluate(self, state: State, seat: int) -> float:
        """1 for a sole winner; in play, the lead in final-score terms (a king-six kept, hand pips
        counted) squashed into (0, 1)."""
        if state.phase == OVER:
            first = state.places[0] if state.places else []
            return 1.0 / len(first) if seat in first else 0.0
        lead = final_score(state, seat) - final_score(state, 1 - seat)
        return 0.5 + 0.5 * math.tanh(lead / EVALUATION_SCALE)


GAME = Dragons()
