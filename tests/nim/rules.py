"""The rules of Ним: heaps of stones; in turn each seat takes 1 to `max_take` stones
from one heap; whoever takes the last stone wins (the others share second place).

A seat removed from the table is out; when one seat is left it wins. A closed table
ends with every seat still in sharing first place. A run-out clock takes one stone
from the first heap that has any.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from tablehall_rules import Flow, InvalidOptions, LegalMove, NotYourTurn, PendingDecision, SeatInfo, illegal, invalid
from tablehall_rules.afk import AfkLadder
from tablehall_rules.legal import IntRange, move
from tablehall_rules.table import TableRules, evolve_table

DEFAULTS: dict[str, Any] = {"heaps": [7, 9, 11], "max_take": 3, "clock_ms": 30_000}
OPTIONS_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "heaps": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 20},
            "minItems": 1,
            "maxItems": 6,
        },
        "max_take": {"type": "integer", "minimum": 1, "maximum": 20, "default": 3},
        "clock_ms": {"type": "integer", "minimum": 100, "maximum": 600_000, "default": 30_000},
    },
}


# --- commands and events -----------------------------------------------------------------
class Take(msgspec.Struct, frozen=True, tag="Take"):
    heap: int
    count: int


class Started(msgspec.Struct, frozen=True, tag="Started"):
    seats: list[SeatInfo]
    heaps: list[int]
    max_take: int
    clock_ms: int
    at_ms: int = 0


class Took(msgspec.Struct, frozen=True, kw_only=True, tag="Took"):
    seat: int
    heap: int
    count: int
    timeout: bool = False
    at_ms: int = 0


class Left(msgspec.Struct, frozen=True, kw_only=True, tag="Left"):
    seat: int
    at_ms: int = 0


class Ended(msgspec.Struct, frozen=True, kw_only=True, tag="Ended"):
    places: list[list[int]]
    reason: str
    at_ms: int = 0


# --- state ---------------------------------------------------------------------------------
class State(msgspec.Struct):
    seats: list[SeatInfo]
    heaps: list[int]
    max_take: int
    clock_ms: int
    afk: AfkLadder
    out: list[bool]
    turn: int = 0
    turn_no: int = 0
    opened_at_ms: int = 0
    places: list[list[int]] | None = None
    reason: str = ""

    def live(self) -> list[int]:
        return [s for s in range(len(self.seats)) if not self.out[s]]


def parse_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(raw) - set(DEFAULTS)
    if unknown:
        raise InvalidOptions("UNKNOWN_OPTION", f"Unknown options {sorted(unknown)}.", "Неизвестные настройки.")
    opts = {**DEFAULTS, **raw}
    heaps, max_take, clock_ms = opts["heaps"], opts["max_take"], opts["clock_ms"]
    if (
        not isinstance(heaps, list)
        or not 1 <= len(heaps) <= 6
        or any(not isinstance(h, int) or isinstance(h, bool) or not 1 <= h <= 20 for h in heaps)
    ):
        raise InvalidOptions(
            "INVALID_HEAPS", "heaps: 1 to 6 heaps of 1..20 stones.", "Кучки: от 1 до 6, по 1..20 камней."
        )
    if not isinstance(max_take, int) or isinstance(max_take, bool) or not 1 <= max_take <= 20:
        raise InvalidOptions("INVALID_MAX_TAKE", "max_take must be 1..20.", "max_take: от 1 до 20.")
    if not isinstance(clock_ms, int) or isinstance(clock_ms, bool) or not 100 <= clock_ms <= 600_000:
        raise InvalidOptions("INVALID_CLOCK", "clock_ms must be 100..600000.", "Часы: от 100 до 600000 мс.")
    return {"heaps": list(heaps), "max_take": max_take, "clock_ms": clock_ms}


# --- evolve --------------------------------------------------------------------------------
def evolve(state: State | None, event: msgspec.Struct) -> State:
    if isinstance(event, Started):
        n = len(event.seats)
        return State(
            event.seats,
            list(event.heaps),
            event.max_take,
            event.clock_ms,
            AfkLadder.for_seats(n),
            [False] * n,
            opened_at_ms=event.at_ms,
        )
    assert state is not None, "the first event must be Started"
    if evolve_table(state.afk, event):
        return state
    if isinstance(event, Took):
        state.heaps[event.heap] -= event.count
        if event.timeout:
            state.afk.timed_out(turn_decision(state))
        else:
            state.afk.acted(event.seat)
        _advance(state, event.at_ms)
    elif isinstance(event, Left):
        state.out[event.seat] = True
        if state.turn == event.seat:
            _advance(state, event.at_ms)
    elif isinstance(event, Ended):
        state.places = event.places
        state.reason = event.reason
    return state


def _advance(state: State, at_ms: int) -> None:
    n = len(state.seats)
    state.turn = next((s for s in ((state.turn + k) % n for k in range(1, n + 1)) if not state.out[s]), state.turn)
    state.turn_no += 1
    state.opened_at_ms = at_ms


# --- decide --------------------------------------------------------------------------------
class NimFlow(Flow[State]):
    evolve_event = staticmethod(evolve)


def take(flow: NimFlow, command: Take) -> None:
    state = flow.state
    seat = flow.seat
    if seat != state.turn:
        raise NotYourTurn()
    if not 0 <= command.heap < len(state.heaps):
        raise invalid("NO_SUCH_HEAP", f"There is no heap {command.heap}.", f"Кучки {command.heap} нет.")
    if not 1 <= command.count <= state.max_take:
        raise illegal(
            "TAKE_OUT_OF_RANGE", f"Take 1 to {state.max_take} stones.", f"Берут от 1 до {state.max_take} камней."
        )
    if command.count > state.heaps[command.heap]:
        raise illegal("NOT_ENOUGH_STONES", "That heap has fewer stones.", "В этой кучке меньше камней.")
    flow.emit(Took(seat=seat, heap=command.heap, count=command.count, timeout=flow.timed_out is not None))
    if not any(flow.state.heaps):
        others = [s for s in flow.state.live() if s != seat]
        flow.emit(Ended(places=[[seat], others] if others else [[seat]], reason="last_stone"))


class NimTable(TableRules[State]):
    def on_remove(self, flow: Flow[State], seat: int) -> None:
        if flow.state.out[seat]:
            raise illegal("ALREADY_OUT", "That player is out already.", "Этот игрок уже выбыл.")
        flow.emit(Left(seat=seat))
        live = flow.state.live()
        if len(live) == 1:
            gone = [s for s in range(len(flow.state.seats)) if flow.state.out[s]]
            flow.emit(Ended(places=[live, gone], reason="last_seat"))

    def on_close(self, flow: Flow[State], reason: str) -> None:
        live = flow.state.live()
        gone = [s for s in range(len(flow.state.seats)) if flow.state.out[s]]
        flow.emit(Ended(places=[live, gone] if gone else [live], reason=reason))


TABLE = NimTable()


# --- what a seat may do --------------------------------------------------------------------
def turn_decision(state: State) -> PendingDecision:
    seat = state.turn
    return PendingDecision(
        key=f"turn:{state.turn_no}",
        seat=seat,
        kind="take",
        clock="turn",
        opened_at_ms=state.opened_at_ms,
        clock_ms=state.afk.clock_ms(seat, state.clock_ms),
    )


def pending(state: State) -> list[PendingDecision]:
    return [] if state.places is not None else [turn_decision(state)]


def legal(state: State, seat: int) -> list[LegalMove]:
    if state.places is not None or seat != state.turn:
        return []
    return [
        move(Take(heap=h, count=1), count=IntRange(1, min(state.max_take, stones)))
        for h, stones in enumerate(state.heaps)
        if stones
    ]


def default_take(state: State) -> Take:
    """A run-out clock takes one stone from the first heap that has any."""
    return Take(heap=next(h for h, stones in enumerate(state.heaps) if stones), count=1)
