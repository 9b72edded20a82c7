"""Ним on the platform: the whole wiring a game on the kit needs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from nim import rules
from nim.journal import LINES
from tablehall_rules import (
    DecideContext,
    Game,
    GameNature,
    GameOver,
    Journaled,
    LegalMove,
    Outcome,
    PendingDecision,
    SeatInfo,
    Viewer,
    invalid,
)
from tablehall_rules.journal import JournalEntry
from tablehall_rules.setups import Setup
from tablehall_rules.table import TABLE_COMMANDS, TABLE_EVENTS, SeatedGame, decide_table, is_table_command


class Nim(Game[rules.State], SeatedGame, Journaled):
    id: ClassVar[str] = "nim"
    rules_version: ClassVar[str] = "1"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    state_type: ClassVar[type[Any]] = rules.State
    command_types: ClassVar[Sequence[type[msgspec.Struct]]] = (rules.Take, *TABLE_COMMANDS)
    event_types: ClassVar[Sequence[type[msgspec.Struct]]] = (
        rules.Started,
        rules.Took,
        rules.Left,
        rules.Ended,
        *TABLE_EVENTS,
    )
    title: ClassVar[Mapping[str, str]] = {"en": "Nim (test game)", "ru": "Ним (тестовая игра)"}
    options_schema: ClassVar[Mapping[str, Any]] = rules.OPTIONS_SCHEMA
    # every take removes a stone: at most 6 heaps of 20
    nature: ClassVar[GameNature] = GameNature(
        hidden_information=False, chance=False, simultaneous=False, max_commands=120
    )
    conformance_setups: ClassVar[Sequence[Setup]] = (
        Setup(2, {"heaps": [4, 6, 3], "max_take": 3}, examples=3),
        Setup(3, {"heaps": [4, 6, 3], "max_take": 3}, examples=3),
    )

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        return rules.parse_options(raw)

    def start(self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
        opts = rules.parse_options(options)
        return [rules.Started(list(seats), opts["heaps"], opts["max_take"], opts["clock_ms"], ctx.now_ms)]

    def decide(self, state: rules.State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        if state.places is not None:
            raise GameOver()
        flow = rules.NimFlow(state, ctx)
        if is_table_command(command):
            decide_table(flow, command, rules.TABLE)
        elif isinstance(command, rules.Take):
            rules.take(flow, command)
        else:
            raise invalid("UNKNOWN_COMMAND", "Unknown command.", "Неизвестная команда.")
        return flow.events

    def evolve(self, state: rules.State | None, event: msgspec.Struct) -> rules.State:
        return rules.evolve(state, event)

    def view(self, state: rules.State, viewer: Viewer) -> dict[str, Any]:
        return {
            "heaps": list(state.heaps),
            "turn": state.turn,
            "out": list(state.out),
            "afk": list(state.afk.afk),
            "places": state.places,
        }

    def legal(self, state: rules.State, seat: int, now_ms: int) -> list[LegalMove]:
        return rules.legal(state, seat)

    def pending(self, state: rules.State) -> list[PendingDecision]:
        return rules.pending(state)

    def default_command(self, state: rules.State, decision: PendingDecision) -> msgspec.Struct:
        return rules.default_take(state)

    def outcome(self, state: rules.State) -> Outcome | None:
        return None if state.places is None else Outcome(places=state.places, reason=state.reason)

    def journal(self, state_before: rules.State | None, event: msgspec.Struct) -> list[JournalEntry]:
        return LINES.entries(state_before if state_before is not None else rules.evolve(None, event), event)


GAME = Nim()
