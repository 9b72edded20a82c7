"""The decider: who may send a command, clocks and AFK, then the topic's rule.

Seat commands need `ctx.seat`; system commands need `ctx.seat is None`. A command sent as a
run-out clock's move (`ctx.timed_out`) must be that open decision's default, after its deadline.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dragons import commands as c
from dragons.errors import illegal, invalid
from dragons.events import ClockExpired, DominoAnswered, DominoDeclined, DominoTaken, Event, SeatActed
from dragons.flow import Flow
from dragons.pending import default_command, pending
from dragons.rules import setup, table, turn
from dragons.rules.rounds import start_round
from dragons.state import DOMINO, State
from tablehall_boards.dominoes import Bazaar, draw_tile
from tablehall_rules import DecideContext, GameOver, PendingDecision

SeatHandler = Callable[[Flow, Any, int], None]
SystemHandler = Callable[[Flow, Any], None]


def take_domino(f: Flow, cmd: c.TakeDomino, seat: int) -> None:
    st = f.state
    if st.phase != DOMINO or seat not in st.domino_wait:
        raise illegal(
            "NO_DOMINO_CHOICE", "You have no domino to decide on now.", "Сейчас вам не нужно решать о доминошке."
        )
    # sealed until every seat has answered: the choice is simultaneous (issue 30)
    f.emit(DominoAnswered(seat=seat, take=cmd.take))
    if f.state.domino_wait:
        return
    for answered in list(f.state.domino_answered):
        if answered in f.state.domino_taking:
            _, drawn = draw_tile(Bazaar(tuple(f.state.player(answered).bazaar)), f.rng)
            f.emit(DominoTaken(seat=answered, tile=drawn))
        else:
            f.emit(DominoDeclined(seat=answered))
    start_round(f, f.state.round + 1)


SEAT_HANDLERS: dict[type[c.Command], SeatHandler] = {
    c.PlaceStart: setup.place_start,
    c.PlaceDie: turn.place_die,
    c.ChessMove: turn.chess_move,
    c.PlaceDomino: turn.place_domino,
    c.DiscardDie: turn.discard_die,
    c.PlaceBlack: turn.place_black,
    c.TakeDomino: take_domino,
}
SYSTEM_HANDLERS: dict[type[c.Command], SystemHandler] = {
    c.SetPresence: table.set_presence,
    c.SetController: table.set_controller,
    c.RemovePlayer: table.remove_player,
    c.CloseTable: table.close_table,
}


def decide(state: State, command: Any, ctx: DecideContext) -> list[Event]:
    """The events `command` produces; raises a rule error. Never changes `state`."""
    if state.phase == "over":
        raise GameOver()
    kind = type(command)
    if kind in SYSTEM_HANDLERS:
        if ctx.seat is not None:
            raise illegal(
                "SYSTEM_COMMAND", "Only the table itself sends this command.", "Эту команду подаёт только стол."
            )
        f = Flow(state, ctx.now_ms, ctx.rng)
        SYSTEM_HANDLERS[kind](f, command)
        return f.events
    if kind not in SEAT_HANDLERS:
        raise invalid("UNKNOWN_COMMAND", f"Unknown command {kind.__name__}.", f"Неизвестная команда {kind.__name__}.")
    seat = ctx.seat
    if seat is None:
        raise illegal("SEAT_REQUIRED", "This command is sent for a seat.", "Эта команда подаётся от места игрока.")
    if not state.has_seat(seat):
        raise invalid("NO_SUCH_SEAT", "There is no such seat.", "Такого места нет.")
    f = Flow(state, ctx.now_ms, ctx.rng)
    if ctx.timed_out is not None:
        _timeout(f, state, command, seat, ctx.timed_out)
    elif state.afk.afk[seat] or state.afk.strikes[seat]:
        f.emit(SeatActed(seat=seat))
    SEAT_HANDLERS[kind](f, command, seat)
    return f.events


def _timeout(f: Flow, state: State, command: Any, seat: int, decision: PendingDecision) -> None:
    if decision.seat != seat or decision not in pending(state) or default_command(state, decision) != command:
        raise illegal("NO_SUCH_DECISION", "No open decision has this default.", "Нет открытого решения с таким ходом.")
    if f.now_ms < decision.deadline_ms:
        raise illegal("CLOCK_NOT_EXPIRED", "The clock has not run out yet.", "Время ещё не вышло.")
    f.emit(ClockExpired(seat=seat, kind=decision.kind, key=decision.key))
