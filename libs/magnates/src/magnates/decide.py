"""The decider: the table's commands through the platform (`decide_table`), a seat's command
from the turn's player only. A run-out clock's default move comes checked by the match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from magnates import commands as c
from magnates import events as e
from magnates.flow import Flow
from magnates.rules import actions
from magnates.rules.table import TABLE
from magnates.state import State
from tablehall_rules import DecideContext, GameOver, NotYourTurn, invalid
from tablehall_rules.table import decide_table, is_table_command

HANDLERS: dict[type[msgspec.Struct], Callable[[Flow, Any, int], None]] = {
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


def decide(state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
    """The events `command` produces; raises a rule error. Never changes `state`."""
    if state.phase == "over":
        raise GameOver()
    if is_table_command(command):
        flow = Flow(state, ctx)
        decide_table(flow, command, TABLE)
        return flow.events
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise invalid("UNKNOWN_COMMAND", "Unknown command.", "Неизвестная команда.")
    if ctx.seat is None or ctx.seat != state.turn:
        raise NotYourTurn()
    flow = Flow(state, ctx)
    flow.emit(e.Acted(ctx.seat, ctx.timeout))
    handler(flow, command, ctx.seat)
    return flow.events
