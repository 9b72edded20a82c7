"""The Магнаты game object the platform loads (`magnates.game:GAME`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from magnates import bot, determinize, journal, pending, policy, setup, view
from magnates import decide as deciding
from magnates.commands import COMMAND_TYPES, CloseTable, RemovePlayer, SetController, SetPresence
from magnates.events import EVENT_TYPES
from magnates.evolve import evolve
from magnates.legal import legal_moves
from magnates.rules.elimination import places
from magnates.state import State
from tablehall_rules import (
    DecideContext,
    Determinizable,
    Game,
    HasBotPolicy,
    HasBotRanking,
    HasEvaluation,
    HasRandomPolicy,
    HasStandings,
    Journaled,
    LegalMove,
    Outcome,
    PendingDecision,
    SeatInfo,
    TableControl,
    Viewer,
)
from tablehall_rules.journal import JournalEntry


class Magnates(
    Game[State],
    TableControl,
    Journaled,
    HasStandings,
    Determinizable,
    HasBotPolicy,
    HasBotRanking,
    HasRandomPolicy,
    HasEvaluation,
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

    def search_hints(self) -> Mapping[str, float]:
        # a rollout of 16 moves, about four turns (two rounds heads-up), then `evaluate`, which
        # weighs the lead by the rounds still to play; longer rollouts only buy fewer, noisier
        # samples. The dice make one sample worth little: the heuristic's move stands unless
        # another leads it over 8 samples by 2 standard errors of the paired difference
        return {"horizon": 16, "min_samples": 8, "confidence": 2.0}

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        return setup.parse_options(raw)

    def start(self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
        return setup.start(options, seats, ctx)

    def decide(self, state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        return deciding.decide(state, command, ctx)

    def evolve(self, state: State | None, event: msgspec.Struct) -> State:
        """Updates `state` in place and returns it."""
        return evolve(state, event)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.view(state, viewer)

    def legal(self, state: State, seat: int, now_ms: int) -> list[LegalMove]:
        return legal_moves(state, seat, now_ms)

    def pending(self, state: State) -> list[PendingDecision]:
        return pending.pending(state)

    def default_command(self, state: State, decision: PendingDecision) -> msgspec.Struct:
        return pending.default_command(state, decision)

    def presence_command(self, seat: int, present: bool) -> msgspec.Struct | None:
        return SetPresence(seat=seat, present=present)

    def controller_command(self, seat: int, by_bot: bool) -> msgspec.Struct | None:
        return SetController(seat=seat, by_bot=by_bot)

    def remove_command(self, seat: int) -> msgspec.Struct | None:
        return RemovePlayer(seat=seat)

    def close_command(self, reason: str) -> msgspec.Struct | None:
        return CloseTable(reason=reason)

    def journal(self, state_before: State | None, event: msgspec.Struct) -> list[JournalEntry]:
        names = state_before if state_before is not None else evolve(None, event)
        return journal.entries(names, event)

    def standings(self, state: State) -> list[list[int]]:
        """Live places by net worth (everything is public)."""
        if state.phase == "over":
            return [list(p) for p in state.places]
        return places(state, by_worth=True)

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return determinize.determinize(view, seat, rng)

    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return bot.choose(view, legal, rng)

    def bot_ranking(
        self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random, count: int
    ) -> list[msgspec.Struct]:
        """The strong heuristic's (`bot.STRONG`) best moves, its own move first: the strong bot's
        search plays that one unless the evidence overrules it."""
        return bot.ranked(view, legal, rng, count, bot.STRONG)

    def rollout_policy(self, state: State, seat: int, rng: random.Random) -> msgspec.Struct:
        """The strong heuristic (`bot.STRONG`) read from the full state (no view built, the legal
        commands listed directly): what the strong bot's search plays out, for every seat."""
        return bot.choose_in_state(state, seat, rng, bot.STRONG)

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return bot.random_choice(legal, rng)

    def evaluate(self, state: State, seat: int) -> float:
        """The seat's chance to win (`policy.win_chance`): exact when over, 0 when out."""
        return policy.win_chance(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(places=[list(p) for p in state.places], reason=state.end_reason, scores=dict(state.scores))


GAME = Magnates()
