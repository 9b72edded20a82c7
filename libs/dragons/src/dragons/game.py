"""The Драконы game object the platform loads (`dragons.game:GAME`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from dragons import decide, legal, pending, view
from dragons.bot import DragonsBot
from dragons.commands import COMMAND_TYPES
from dragons.events import EVENT_TYPES
from dragons.evolve import evolve
from dragons.journal import LINES
from dragons.rules import end, setup
from dragons.state import MAX_COMMANDS, State
from tablehall_rules.afk import BOTS_NEVER_AFK
from tablehall_rules.contract import DecideContext, Game, Outcome, PendingDecision, SeatInfo, Viewer
from tablehall_rules.journal import HasStandings, Journaled, JournalEntry
from tablehall_rules.legal import LegalMove
from tablehall_rules.nature import GameNature
from tablehall_rules.table import SeatedGame


class Dragons(Game[State], SeatedGame, DragonsBot, Journaled, HasStandings):
    id: ClassVar[str] = "dragons"
    rules_version: ClassVar[str] = "1.2.0"  # 1.2.0: a bot seat is never AFK; 1.1.0: pinched figure-eights refused
    earlier_rules: ClassVar[Mapping[str, str]] = {"1.1.0": BOTS_NEVER_AFK}
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
    # hidden: the opponent's dominoes and sealed answers; simultaneous: both seats answer the domino choice
    nature: ClassVar[GameNature] = GameNature(
        hidden_information=True, chance=True, simultaneous=True, max_commands=MAX_COMMANDS
    )

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        return setup.parse_options(raw)

    def start(self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
        return list(setup.start(options, seats, ctx))

    def decide(self, state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        return decide.decide(state, command, ctx)

    def evolve(self, state: State | None, event: msgspec.Struct) -> State:  # in place
        return evolve(state, event)  # type: ignore[arg-type]

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.view(state, viewer)

    def legal(self, state: State, seat: int, now_ms: int) -> Sequence[LegalMove]:
        return legal.legal_moves(state, seat, now_ms)

    def pending(self, state: State) -> list[PendingDecision]:
        return pending.pending(state)

    def default_command(self, state: State, decision: PendingDecision) -> msgspec.Struct:
        return pending.default_command(state, decision)

    def outcome(self, state: State) -> Outcome | None:
        return end.outcome(state)

    def journal(self, state_before: State | None, event: msgspec.Struct) -> list[JournalEntry]:
        return LINES.entries(state_before if state_before is not None else self.evolve(None, event), event)

    def standings(self, state: State) -> list[list[int]]:
        return end.standings(state)


GAME = Dragons()
