"""The decider: the platform's table commands, then who may send a seat's command, a run-out
clock and the AFK ladder, then the topic's rule.

A run-out clock's move comes with `ctx.timed_out`, checked by the match (the decision is open,
its deadline passed, the command is its default): here it only counts as the clock's doing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from dragons import commands as c
from dragons.events import ClockExpired, SeatActed
from dragons.evolve import DragonsFlow, Flow
from dragons.rules import rounds, setup, turn
from dragons.rules.table import TABLE
from dragons.state import OVER, State
from tablehall_rules import DecideContext, GameOver, NotYourTurn, invalid
from tablehall_rules.errors import no_such_seat
from tablehall_rules.table import decide_table, is_table_command

SeatHandler = Callable[[Flow, Any, int], None]

SEAT_HANDLERS: dict[type[msgspec.Struct], SeatHandler] = {
    c.PlaceStart: setup.place_start,
    c.PlaceDie: turn.place_die,
    c.ChessMove: turn.chess_move,
    c.PlaceDomino: turn.place_domino,
    c.DiscardDie: turn.discard_die,
    c.PlaceBlack: turn.place_black,
    c.TakeDomino: rounds.take_domino,
}


def decide(state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
    """The events `command` produces; raises a rule error. Never changes `state`."""
    if state.phase == OVER:
        raise GameOver()
    if is_table_command(command):
        flow = DragonsFlow(state, ctx)
        decide_table(flow, command, TABLE)
        return flow.events
    handler = SEAT_HANDLERS.get(type(command))
    if handler is None:
        raise invalid("UNKNOWN_COMMAND", "Unknown command.", "Неизвестная команда.")
    seat = ctx.seat
    if seat is None:  # the table itself has no turn
        raise NotYourTurn()
    if not state.has_seat(seat):
        raise no_such_seat(seat)
    flow = DragonsFlow(state, ctx)
    if ctx.timed_out is not None:
        flow.emit(ClockExpired(seat=seat, kind=ctx.timed_out.kind, key=ctx.timed_out.key))
    elif state.afk.afk[seat] or state.afk.strikes[seat]:
        flow.emit(SeatActed(seat=seat))
    handler(flow, command, seat)
    return flow.events
