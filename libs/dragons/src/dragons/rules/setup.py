"""Options and the start (Начало игры).

Players alternately roll one die of their colour (red first) and put it on one of their marked
cells of the ring around the centre (red NW, N, NE, E; blue SE, S, SW, W) until all eight are
filled; then the sixes go on (0, 5) for red and (0, −5) for blue, and round 1 is rolled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dragons import commands as c
from dragons.board import FREE, other
from dragons.events import Event, GameStarted, SeatEntry, SixesPlaced, StartDiePlaced, StartDieRolled
from dragons.evolve import Flow
from dragons.rules.rounds import start_round
from dragons.state import DEFAULT_CLOCK_MS, SETUP, State
from tablehall_boards import disk
from tablehall_rules import DecideContext, InvalidOptions, NotYourTurn, SeatInfo, illegal

CLOCKS_S = (15, 30, 60, 90, 120)
OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "decision_clock_s": {"type": "integer", "enum": list(CLOCKS_S), "default": DEFAULT_CLOCK_MS // 1000},
    },
}


def parse_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(raw) - {"decision_clock_s"}
    if unknown:
        raise InvalidOptions(
            "UNKNOWN_OPTION", f"Unknown options: {sorted(unknown)}.", f"Неизвестные параметры: {sorted(unknown)}."
        )
    clock = raw.get("decision_clock_s", DEFAULT_CLOCK_MS // 1000)
    if isinstance(clock, bool) or clock not in CLOCKS_S:
        raise InvalidOptions(
            "BAD_OPTION",
            f"Option decision_clock_s must be one of {list(CLOCKS_S)}.",
            f"Параметр decision_clock_s должен быть из {list(CLOCKS_S)}.",
        )
    return {"decision_clock_s": clock}


def start(options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[Event]:
    if len(seats) != 2:
        raise InvalidOptions("SEATS", "Драконы is played by two.", "В «Драконов» играют вдвоём.")
    first = GameStarted(
        at_ms=ctx.now_ms,
        seats=[SeatEntry(seat=i, name=s.name, is_bot=s.is_bot) for i, s in enumerate(seats)],
        clock_ms=int(options.get("decision_clock_s", DEFAULT_CLOCK_MS // 1000)) * 1000,
    )
    return [first, StartDieRolled(at_ms=ctx.now_ms, seat=0, face=ctx.rng.die())]


def free_marked(st: State, seat: int) -> list[int]:
    return [cell for cell in disk.marked_cells(seat) if st.owner[cell] == FREE]


def place_start(f: Flow, cmd: c.PlaceStart, seat: int) -> None:
    st = f.state
    if st.phase != SETUP:
        raise illegal("NOT_SETUP", "The start ring is complete.", "Стартовое кольцо уже выставлено.")
    if st.active != seat:
        raise NotYourTurn()
    if cmd.cell not in free_marked(st, seat):
        raise illegal(
            "NOT_A_START_CELL",
            "Put the die on one of your free marked cells around the centre.",
            "Поставьте кубик на одну из своих свободных отмеченных клеток вокруг центра.",
        )
    f.emit(StartDiePlaced(seat=seat, cell=cmd.cell, face=st.setup_face))
    st = f.state
    if any(free_marked(st, s) for s in (0, 1)):
        nxt = other(seat) if free_marked(st, other(seat)) else seat
        f.emit(StartDieRolled(seat=nxt, face=f.rng.die()))
        return
    f.emit(SixesPlaced(cells=[disk.six_start(0), disk.six_start(1)]))
    start_round(f, 1)
