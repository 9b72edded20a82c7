"""The decider: checks who may send a command, handles clocks and AFK, runs
the topic's rule and settles what follows (turn passing, the end of the game).

Seat commands need `ctx.seat`; system commands (`SetPresence`, `HostProposeEnd`,
`OperatorClose`, `IdleClose`) need `ctx.seat is None`. A command sent as a
run-out clock's move (`ctx.timed_out`, the decision the platform says timed
out) must be that open decision's default, and its clock must have run out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from puzzipolia import commands as c
from puzzipolia.errors import illegal, invalid
from puzzipolia.events import AfkChanged, ClockExpired, Event
from puzzipolia.flow import Flow
from puzzipolia.pending import PERSONAL_KINDS, default_command, pending
from puzzipolia.rules import (
    building,
    buying,
    cards_play,
    debts,
    jail,
    mortgage,
    table,
    trades,
    turn,
    vote,
)
from puzzipolia.rules.end import end_game
from puzzipolia.state import State
from tablehall_rules import DecideContext, GameOver, PendingDecision

SeatHandler = Callable[[Flow, Any, int], None]
SystemHandler = Callable[[Flow, Any], None]

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
SYSTEM_HANDLERS: dict[type[c.Command], SystemHandler] = {
    c.SetPresence: table.set_presence,
    c.SetController: table.set_controller,
    c.RemovePlayer: table.remove_player,
    c.HostProposeEnd: vote.host_propose_end,
    c.OperatorClose: table.operator_close,
    c.IdleClose: table.idle_close,
}
CLOCK_DRIVEN_ONLY = frozenset({c.CloseAuction, c.CloseVote})


def decide(state: State, command: Any, ctx: DecideContext) -> list[Event]:
    """The events `command` produces; raises a rule error. Never changes `state`."""
    if state.phase == "over":
        raise GameOver()
    kind = type(command)
    if kind in SYSTEM_HANDLERS:
        if ctx.seat is not None:
            raise illegal(
                "SYSTEM_COMMAND",
                "Only the table itself sends this command.",
                "Эту команду подаёт только стол.",
            )
        f = Flow(state, ctx.now_ms, ctx.rng)
        SYSTEM_HANDLERS[kind](f, command)
    elif kind in SEAT_HANDLERS:
        seat = ctx.seat
        if seat is None:
            raise illegal("SEAT_REQUIRED", "This command is sent for a seat.", "Эта команда подаётся от места игрока.")
        if not state.has_seat(seat):
            raise invalid("NO_SUCH_SEAT", "There is no such seat.", "Такого места нет.")
        if not state.player(seat).is_playing:
            raise illegal("NOT_IN_GAME", "You are out of the game.", "Ты выбыл из игры.")
        f = Flow(state, ctx.now_ms, ctx.rng)
        if ctx.timeout:
            _timeout(f, state, command, seat, ctx.timed_out)
        else:
            if kind in CLOCK_DRIVEN_ONLY:
                raise illegal(
                    "CLOCK_DRIVEN_ONLY",
                    "Only a run-out clock does this.",
                    "Это делает только истёкшее время.",
                )
            if state.player(seat).afk:
                f.emit(AfkChanged(seat=seat, afk=False))
        if kind is c.DeclineTrade and ctx.timeout:
            trades.decline_trade(f, command, seat, expired=True)
        else:
            SEAT_HANDLERS[kind](f, command, seat)
    else:
        raise invalid("UNKNOWN_COMMAND", f"Unknown command {kind.__name__}.", f"Неизвестная команда {kind.__name__}.")
    settle(f)
    return f.events


def _timeout(f: Flow, state: State, command: Any, seat: int, decision: PendingDecision | None) -> None:
    is_open = decision is not None and decision.seat == seat and decision in pending(state)
    if decision is None or not is_open or default_command(state, decision) != command:
        raise illegal("NO_SUCH_DECISION", "No open decision has this default.", "Нет открытого решения с таким ходом.")
    if f.now_ms < decision.deadline_ms:
        raise illegal("CLOCK_NOT_EXPIRED", "The clock has not run out yet.", "Время ещё не вышло.")
    f.emit(ClockExpired(seat=seat, kind=decision.kind, key=decision.key))
    if decision.kind in PERSONAL_KINDS and not state.player(seat).afk:
        f.emit(AfkChanged(seat=seat, afk=True))


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
