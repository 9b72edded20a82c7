"""The `tablehall_rules.Game` object of Гомункул (the `tablehall.games` entry point `homunculus`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from homunculus import bot
from homunculus import commands as c
from homunculus.commands import COMMAND_TYPES
from homunculus.decide import decide
from homunculus.determinize import determinize
from homunculus.events import EVENT_TYPES
from homunculus.evolve import evolve
from homunculus.journal import journal, standings
from homunculus.legal import legal
from homunculus.outcome import outcome
from homunculus.pending import default_command, pending
from homunculus.policy import evaluate, random_policy, rollout_policy
from homunculus.setup import parse_options, start, teams_for
from homunculus.state import State
from homunculus.view import view
from tablehall_rules import (
    DecideContext,
    Determinizable,
    Game,
    HasBotPolicy,
    HasBotRanking,
    HasEvaluation,
    HasRandomPolicy,
    HasRolloutPolicy,
    HasSearchHints,
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


class Homunculus(
    Game[State],
    TableControl,
    Determinizable,
    HasBotPolicy,
    HasBotRanking,
    HasRandomPolicy,
    HasRolloutPolicy,
    HasSearchHints,
    HasEvaluation,
    Journaled,
    HasStandings,
):
    id: ClassVar[str] = "homunculus"
    rules_version: ClassVar[str] = "0.3"  # 0.3: a capture and the castling swap open the cells they land on
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    state_type: ClassVar[type[Any]] = State
    command_types: ClassVar[Sequence[type[msgspec.Struct]]] = COMMAND_TYPES
    event_types: ClassVar[Sequence[type[msgspec.Struct]]] = EVENT_TYPES
    title: ClassVar[Mapping[str, str]] = {"en": "Homunculus", "ru": "Гомункул"}
    options_schema: ClassVar[Mapping[str, Any]] = {
        "type": "object",
        "properties": {
            "teams": {"type": "boolean", "description": "2-on-2 at four players (opposite arms allied)"},
            "clock_ms": {"type": "integer", "minimum": 5000, "maximum": 600000},
        },
        "additionalProperties": False,
    }
    supports_teams: ClassVar[bool] = True

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        return parse_options(raw)

    def start(self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
        return start(options, seats, ctx)

    def decide(self, state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        return decide(state, command, ctx)

    def evolve(self, state: State | None, event: msgspec.Struct) -> State:
        return evolve(state, event)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def legal(self, state: State, seat: int, now_ms: int) -> list[LegalMove]:
        return legal(state, seat, now_ms)

    def pending(self, state: State) -> list[PendingDecision]:
        return pending(state)

    def default_command(self, state: State, decision: PendingDecision) -> msgspec.Struct:
        return default_command(state, decision)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state)

    def teams(self, options: Mapping[str, Any], seat_count: int) -> list[list[int]]:
        return teams_for(options, seat_count)

    # --- table control ---------------------------------------------------------------------

    def presence_command(self, seat: int, present: bool) -> msgspec.Struct | None:
        return None

    def controller_command(self, seat: int, by_bot: bool) -> msgspec.Struct | None:
        return None

    def remove_command(self, seat: int) -> msgspec.Struct | None:
        return c.RemoveSeat(seat)

    def close_command(self, reason: str) -> msgspec.Struct | None:
        return c.CloseTable(reason)

    # --- projection ------------------------------------------------------------------------

    def journal(self, state_before: Any, event: msgspec.Struct) -> list[JournalEntry]:
        return journal(state_before, event)

    def standings(self, state: Any) -> list[list[int]]:
        return standings(state)

    # --- bots ------------------------------------------------------------------------------

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return determinize(view, seat, rng)

    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return bot.choose(view, legal, rng)

    def bot_ranking(
        self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random, count: int
    ) -> list[msgspec.Struct]:
        return bot.ranked(view, legal, rng, count)

    def rollout_policy(self, state: State, seat: int, rng: random.Random) -> msgspec.Struct | None:
        return rollout_policy(state, seat, rng)

    def search_hints(self) -> Mapping[str, float]:
        # playouts of 8 moves (about four turns heads-up) scored by `evaluate`, one tree level:
        # enough samples in a fifth of a second to tell the ranked moves apart
        return {"horizon": 8, "tree_depth": 1, "width": 4}

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return random_policy(view, legal, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(state, seat)


GAME = Homunculus()
