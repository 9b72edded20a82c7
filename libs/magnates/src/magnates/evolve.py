"""evolve: the state after an event. Total, deterministic, never draws; updates in place."""

from __future__ import annotations

from functools import singledispatch

import msgspec

from magnates import board, tables
from magnates import events as e
from magnates.state import BANK, Player, State
from tablehall_rules import AfkLadder, PendingDecision
from tablehall_rules.dispatch import ByType
from tablehall_rules.table import evolve_table


def evolve(state: State | None, event: msgspec.Struct) -> State:
    if type(event) is e.Started:  # an isinstance that fails costs 0.3 µs an event (a struct's metaclass)
        return _start(event)
    assert state is not None, "the first event must be Started"
    if not evolve_table(state.afk, event):
        _apply_by_type(event, state)
    return state


def _start(event: e.Started) -> State:
    players = []
    for seat, corner in enumerate(event.corners):
        offices = board.offices(corner)
        pieces = dict(zip(tables.START_PIECES, offices, strict=True))
        players.append(Player(seat=seat, corner=corner, cash=event.start_cash, king=corner, pieces=pieces))
    n = len(event.seats)
    return State(
        seats=list(event.seats),
        players=players,
        owner=[BANK] * len(board.squares()),
        level=[0] * len(board.squares()),
        afk=AfkLadder.for_seats(n, bots=[s.seat for s in event.seats if s.is_bot]),
        round_limit=event.round_limit,
        clock_ms=event.clock_ms,
        opened_at_ms=event.at_ms,
    )


@singledispatch
def _apply(event: object, state: State) -> None:
    raise TypeError(f"not a Магнаты event: {event!r}")


@_apply.register
def _acted(event: e.Acted, state: State) -> None:
    if event.timeout:
        decision = PendingDecision(state.key(), event.seat, state.phase, "decision", state.opened_at_ms, 0)
        state.afk.timed_out(decision)
    else:
        state.afk.acted(event.seat)


@_apply.register
def _dice(event: e.DiceRolled, state: State) -> None:
    state.white, state.blue, state.extra_moves = event.white, event.blue, 0


@_apply.register
def _king_roll(event: e.KingRolled, state: State) -> None:
    state.white = event.white
    state.extra_moves += 1


@_apply.register
def _king_moved(event: e.KingMoved, state: State) -> None:
    state.players[event.seat].king = event.end


@_apply.register
def _paid(event: e.Paid, state: State) -> None:
    if event.payer != BANK:
        state.players[event.payer].cash -= event.amount
    if event.payee != BANK:
        state.players[event.payee].cash += event.amount


@_apply.register
def _company(event: e.CompanyChanged, state: State) -> None:
    state.owner[event.cell] = event.owner
    state.level[event.cell] = event.level


@_apply.register
def _piece_moved(event: e.PieceMoved, state: State) -> None:
    state.players[event.seat].pieces[event.piece] = event.to


@_apply.register
def _piece_lost(event: e.PieceLost, state: State) -> None:
    state.players[event.seat].pieces.pop(event.piece, None)


@_apply.register
def _piece_placed(event: e.PiecePlaced, state: State) -> None:
    state.players[event.seat].pieces[event.piece] = event.cell


@_apply.register
def _fact(event: e.DuelFought | e.RaidFought | e.ArbitrageRolled, state: State) -> None:
    """Facts told for the journal; their effects come as their own events."""


@_apply.register
def _phase(event: e.PhaseChanged, state: State) -> None:
    state.phase = event.phase
    state.stop = event.stop
    state.piece = event.piece
    state.decision_no += 1
    state.opened_at_ms = event.at_ms


@_apply.register
def _turn(event: e.TurnStarted, state: State) -> None:
    state.turn, state.round = event.seat, event.round
    state.white = state.blue = state.extra_moves = 0
    state.stop, state.piece = None, ""


@_apply.register
def _eliminated(event: e.Eliminated, state: State) -> None:
    player = state.players[event.seat]
    player.alive = False
    player.king = -1
    player.pieces = {}
    player.cash = 0
    for cell, owner in enumerate(state.owner):
        if owner == event.seat:
            state.owner[cell], state.level[cell] = BANK, 0
    state.out_order.append(event.seat)


@_apply.register
def _finished(event: e.Finished, state: State) -> None:
    state.phase = "over"
    state.stop, state.piece = None, ""
    state.places = [list(p) for p in event.places]
    state.end_reason = event.reason
    state.scores = dict(event.scores)
    state.decision_no += 1


# the implementations above, found once per event type (a rebuild evolves thousands of events)
_apply_by_type: ByType[None] = ByType(_apply)
