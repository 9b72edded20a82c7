"""The decider: who may send a command, the clock of a timed-out default, then the rule.

Seat commands need `ctx.seat` to be the turn's player (there is one open decision at a time);
system commands need `ctx.seat is None`. A command sent as a run-out clock's move must be the
open decision's default, and its deadline must have passed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from magnates import commands as c
from magnates import events as e
from magnates.errors import illegal, invalid
from magnates.flow import Flow
from magnates.pending import default_command, pending
from magnates.rules import actions, table
from magnates.state import State
from tablehall_rules import DecideContext, GameOver, NotYourTurn

SEAT_HANDLERS: dict[type[msgspec.Struct], Callable[[Flow, Any, int], None]] = {
    c.Roll: actions.roll,
    c.BuyCompany: actions.buy_company,
    c.Upgrade: actions.upgrade,
    c.ArbitrageBuy: actions.arbitrage_buy,
    c.BuyPiece: actions.buy_piece,
    c.AttackKing: actions.attack_king,
    c.EndStop: actions.end_stop,
    c.MovePiece: actions.move_piece,
    c.PassMove: actions.pass_move,
    c.PayFine: actions.pay_fine,
    c.Raid: actions.raid,
}
SYSTEM_HANDLERS: dict[type[msgspec.Struct], Callable[[Flow, Any], None]] = {
    c.SetPresence: table.set_presence,
    c.SetController: table.set_controller,
    c.RemovePlayer: table.remove_player,
    c.CloseTable: table.close_table,
}


def decide(state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
    """The events `command` produces; raises a rule error. Never changes `state`."""
    if state.phase == "over":
        raise GameOver()
    kind = type(command)
    if kind in SYSTEM_HANDLERS:
        if ctx.seat is not None:
            raise illegal("SYSTEM_ONLY", "Only the table sends this command.", "Эту команду подаёт только стол.")
        flow = Flow(state, ctx.now_ms, ctx.rng)
        SYSTEM_HANDLERS[kind](flow, command)
        return flow.events
    handler = SEAT_HANDLERS.get(kind)
    if handler is None:
        raise invalid("UNKNOWN_COMMAND", "Unknown command.", "Неизвестная команда.")
    if ctx.seat is None or ctx.seat != state.turn:
        raise NotYourTurn()
    if ctx.timed_out is not None:
        _check_timeout(state, command, ctx)
    flow = Flow(state, ctx.now_ms, ctx.rng)
    flow.emit(e.Acted(ctx.seat, ctx.timeout))
    handler(flow, command, ctx.seat)
    return flow.events


def _check_timeout(state: State, command: msgspec.Struct, ctx: DecideContext) -> None:
    decision = ctx.timed_out
    assert decision is not None
    if decision not in pending(state) or decision.seat != ctx.seat:
        raise illegal("NO_SUCH_DECISION", "No such open decision.", "Нет такого решения.")
    if ctx.now_ms < decision.deadline_ms:
        raise illegal("CLOCK_NOT_EXPIRED", "The clock has not run out.", "Часы ещё идут.")
    if command != default_command(state, decision):
        raise illegal(
            "NOT_THE_DEFAULT",
            "A run-out clock makes the default move only.",
            "По истечении часов — только ход по умолчанию.",
        )
