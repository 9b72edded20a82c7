"""The decider: checks who may send a command, runs the topic's rule and settles
what follows (turn passing, the end of the game).

Seat commands need `ctx.seat`; the table's commands (the platform's four and
`HostProposeEnd`) need `ctx.seat is None`. A run-out clock's default move
(`ctx.timed_out`, checked by the match: open, past its deadline, the default)
writes `ClockExpired` first; the ladder reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from puzzipolia import commands as c
from puzzipolia.events import BackFromAfk, ClockExpired
from puzzipolia.flow import Flow
from puzzipolia.rules import (
    building,
    buying,
    cards_play,
    debts,
    jail,
    mortgage,
    trades,
    turn,
    vote,
)
from puzzipolia.rules.end import end_game
from puzzipolia.rules.table import TABLE
from puzzipolia.state import State
from tablehall_rules import DecideContext, GameOver, illegal, invalid
from tablehall_rules.errors import clock_only, no_such_seat, system_only
from tablehall_rules.table import CloseTable, decide_table, is_table_command

SeatHandler = Callable[[Flow, Any, int], None]

SEAT_HANDLERS: dict[type[c.Command], SeatHandler] = {
    c.RollForOrder: turn.roll_for_order,
    c.Roll: turn.roll,
    c.EndTurn: turn.end_turn,
    c.PayJailFine: jail.pay_jail_fine,
    c.UseJailCard: jail.use_jail_card,
    c.Choose67: cards_play.choose_67,
    c.Buy: buying.buy,
    c.DeclineBuy: buying.decline_buy,
    c.Bid: buying.bid,
    c.PassAuction: buying.pass_auction,
    c.CloseAuction: buying.close_auction,
    c.Build: building.build,
    c.SellBuilding: building.sell_building,
    c.Mortgage: mortgage.mortgage,
    c.Unmortgage: mortgage.unmortgage,
    c.PayDebt: debts.pay_debt,
    c.CollectDebt: debts.collect_debt,
    c.Surrender: debts.surrender,
    c.Leave: debts.leave,
    c.ProposeTrade: trades.propose_trade,
    c.AcceptTrade: trades.accept_trade,
    c.DeclineTrade: trades.decline_trade,
    c.WithdrawTrade: trades.withdraw_trade,
    c.ProposeEnd: vote.propose_end,
    c.VoteEnd: vote.vote_end,
    c.CloseVote: vote.close_vote,
}
CLOCK_ONLY = frozenset({c.CloseAuction, c.CloseVote})


def decide(state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
    """The events `command` produces; raises a rule error. Never changes `state`."""
    if state.phase == "over":
        raise GameOver()
    f = Flow(state, ctx)
    kind = type(command)
    if kind in c.RETIRED_CLOSE:  # an old stream's (or an old client's) close
        command = CloseTable(reason=c.RETIRED_CLOSE[kind])
    if is_table_command(command):
        decide_table(f, command, TABLE)
    elif isinstance(command, c.HostProposeEnd):
        if ctx.seat is not None:
            raise system_only()
        vote.host_propose_end(f, command)
    elif kind in SEAT_HANDLERS:
        _seat_command(f, state, command, ctx)
    else:
        raise invalid("UNKNOWN_COMMAND", f"Unknown command {kind.__name__}.", f"Неизвестная команда {kind.__name__}.")
    settle(f)
    return f.events


def _seat_command(f: Flow, state: State, command: Any, ctx: DecideContext) -> None:
    seat = ctx.seat
    if seat is None:
        raise illegal("SEAT_REQUIRED", "This command is sent for a seat.", "Эта команда подаётся от места игрока.")
    if not state.has_seat(seat):
        raise no_such_seat(seat)
    if not state.player(seat).is_playing:
        raise illegal("NOT_IN_GAME", "You are out of the game.", "Ты выбыл из игры.")
    decision = ctx.timed_out
    if decision is not None:
        f.emit(ClockExpired(seat=seat, kind=decision.kind, key=decision.key))
    elif type(command) in CLOCK_ONLY:
        raise clock_only()
    elif state.afk.is_afk(seat):
        f.emit(BackFromAfk(seat=seat))
    if isinstance(command, c.DeclineTrade) and decision is not None:
        trades.decline_trade(f, command, seat, expired=True)
    else:
        SEAT_HANDLERS[type(command)](f, command, seat)


def settle(f: Flow) -> None:
    """What follows by itself: the end of the game, the order, a vote, the next turn."""
    st = f.state
    if st.phase == "over":
        return
    if len(st.live_seats()) <= 1:
        end_game(f, "last_standing")
        return
    if st.vote is not None:
        vote.pass_if_unanimous(f)
        if st.phase == "over":
            return
    if st.phase == "order":
        turn.finish_order_if_decided(f)
        return
    if st.auction is not None:
        buying.close_if_settled(f)
    if f.state.phase != "auction" and not f.state.player(f.state.active).is_playing:
        turn.advance_turn(f)
