"""The turn: the roll, the King's moves (extra ones on a White 6), one piece's move, the end.

Each step either opens a decision (a `PhaseChanged`) and returns, or goes straight on to the next.
"""

from __future__ import annotations

from collections.abc import Callable

from magnates import board, tables
from magnates import events as e
from magnates.flow import Flow
from magnates.rules import movement, stops
from magnates.rules.elimination import finish
from magnates.rules.options import effective
from magnates.state import Stop


def roll(flow: Flow, seat: int) -> None:
    white, blue = flow.die(), flow.die()
    flow.emit(e.DiceRolled(seat, white, blue))
    king_walk(flow, seat)


def king_walk(flow: Flow, seat: int) -> None:
    stop = stops.king_arrives(flow, seat, flow.state.white)
    if flow.over:
        return
    if not flow.state.players[seat].alive:
        end_turn(flow)
        return
    open_stop_or(flow, seat, stop, after_king)


def open_stop_or(flow: Flow, seat: int, stop: Stop | None, then: Callable[[Flow, int], None]) -> None:
    """Open the stop's decision when it still offers something, else go on with `then`."""
    if stop is not None:
        now = effective(flow.state, seat, stop)
        if now.anything:
            flow.emit(e.PhaseChanged("king_stop" if stop.by_king else "piece_stop", stop))
            return
    then(flow, seat)


def after_king(flow: Flow, seat: int) -> None:
    """The King's stop is done: a White 6 moves it again (at most twice more), else a piece moves."""
    state = flow.state
    if state.white == 6 and state.extra_moves < tables.MAX_EXTRA_MOVES:
        flow.emit(e.KingRolled(seat, flow.die()))
        king_walk(flow, seat)
        return
    if movement.movable(state, seat):
        flow.emit(e.PhaseChanged("move"))
    else:
        end_turn(flow)


def after_piece(flow: Flow, seat: int) -> None:
    end_turn(flow)


def end_turn(flow: Flow) -> None:
    state = flow.state
    if flow.over:
        return
    live = state.live_seats()
    n = len(state.players)
    nxt = next((state.turn + k) % n for k in range(1, n + 1) if (state.turn + k) % n in live)
    rnd = state.round + (1 if nxt <= state.turn else 0)
    if state.round_limit and rnd > state.round_limit:
        finish(flow, "round_limit")
        return
    flow.emit(e.TurnStarted(nxt, rnd))
    flow.emit(e.PhaseChanged("roll"))


def close_stop(flow: Flow, seat: int, stop: Stop) -> None:
    """After an option was taken: the stop stays open while something is left, else goes on."""
    if flow.over:
        return
    if not flow.state.players[seat].alive:
        end_turn(flow)
        return
    then = after_king if stop.by_king else after_piece
    if effective(flow.state, seat, stop).anything:
        flow.emit(e.PhaseChanged(flow.state.phase, stop))
    else:
        then(flow, seat)


def piece_arrives(flow: Flow, seat: int, piece: str, cell: int) -> None:
    """A piece stands on an inner cell after its move: buy, fine or raid, or nothing."""
    state = flow.state
    square = board.square(cell)
    owner = state.owner[cell]
    if square.is_company and owner == -1:
        open_stop_or(flow, seat, Stop(cell, by_king=False, company=True), after_piece)
    elif square.is_company and owner != seat:
        flow.emit(e.PhaseChanged("fine", Stop(cell, by_king=False), piece))
    else:
        end_turn(flow)
