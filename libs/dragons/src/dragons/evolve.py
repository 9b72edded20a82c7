"""The evolver: applies one event to the state, in place, and returns it; and the working copy of
`decide` that follows it (`Flow`).

Total and deterministic: no draws, no clock. `evolve(None, GameStarted)` creates the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import tablehall_rules
from dragons import events as ev
from dragons.board import BLACK, FREE, NO_DOMINO
from dragons.state import BLACK as BLACK_PHASE
from dragons.state import DOMINO, OVER, SETUP, TURN, OpenContour, PlacedDomino, Player, State
from tablehall_boards.dominoes import double_six, tile
from tablehall_rules import AfkLadder, PendingDecision
from tablehall_rules.table import evolve_table


def _create(e: ev.GameStarted) -> State:
    players = [Player(seat=s.seat, name=s.name, is_bot=s.is_bot, bazaar=list(double_six())) for s in e.seats]
    return State(
        clock_ms=e.clock_ms,
        players=players,
        afk=AfkLadder.for_seats(len(players), bots=[s.seat for s in e.seats if s.is_bot]),
        phase_at_ms=e.at_ms,
    )


def _open(s: State, phase: str, at_ms: int) -> None:
    s.phase = phase
    s.phase_at_ms = at_ms
    s.turn_seq += 1


def _start_rolled(s: State, e: ev.StartDieRolled) -> None:
    s.setup_face = e.face
    s.active = e.seat
    _open(s, SETUP, e.at_ms)


def _put(s: State, seat: int, cell: int, number: int) -> None:
    s.owner[cell] = seat
    s.face[cell] = number


def _start_placed(s: State, e: ev.StartDiePlaced) -> None:
    _put(s, e.seat, e.cell, e.face)
    s.player(e.seat).dice_left -= 1
    s.setup_face = 0


def _sixes(s: State, e: ev.SixesPlaced) -> None:
    for seat, cell in enumerate(e.cells):
        _put(s, seat, cell, 6)
        s.player(seat).dice_left -= 1


def _round(s: State, e: ev.RoundStarted) -> None:
    s.round = e.round
    s.rolled = [list(r) for r in e.rolled]


def _turn(s: State, e: ev.TurnStarted) -> None:
    s.active = e.seat
    s.turn_index = e.index
    _open(s, TURN, e.at_ms)


def _use_die(s: State, seat: int, number: int, combos: list[ev.Combo]) -> None:
    s.rolled[seat].remove(number)
    p = s.player(seat)
    p.dice_left -= 1
    p.score += sum(c.points for c in combos)


def _die_placed(s: State, e: ev.DiePlaced) -> None:
    _put(s, e.seat, e.cell, e.face)
    _use_die(s, e.seat, e.face, e.combos)


def _piece_moved(s: State, e: ev.PieceMoved) -> None:
    s.owner[e.origin] = FREE
    s.face[e.origin] = 0
    _put(s, e.seat, e.target, e.promotion or e.piece)
    _use_die(s, e.seat, e.face, e.combos)


def _domino_placed(s: State, e: ev.DominoPlaced) -> None:
    for cell, pips in zip(e.cells, e.pips, strict=True):
        _put(s, e.seat, cell, pips)
        s.domino[cell] = e.id
    s.dominoes.append(PlacedDomino(id=e.id, seat=e.seat, cells=list(e.cells), pips=list(e.pips)))
    s.player(e.seat).hand.remove(tile(*e.pips))
    _use_die(s, e.seat, e.face, e.combos)


def _discarded(s: State, e: ev.DieDiscarded) -> None:
    _use_die(s, e.seat, e.face, [])


def _contour(s: State, e: ev.ContourScored) -> None:
    s.player(e.seat).score += e.points
    s.black_left -= 1
    s.contour = OpenContour(seat=e.seat, cells=list(e.cells), face=e.black_face, inside=list(e.inside))
    s.active = e.seat
    _open(s, BLACK_PHASE, e.at_ms)


def _black(s: State, e: ev.BlackPlaced) -> None:
    s.owner[e.cell] = BLACK
    s.face[e.cell] = e.face
    s.domino[e.cell] = NO_DOMINO
    s.contour = None


def _domino_choice(s: State, e: ev.DominoChoiceOpened) -> None:
    s.domino_wait = list(e.seats)
    s.domino_answered, s.domino_taking = [], []
    _open(s, DOMINO, e.at_ms)


def _answered(s: State, e: ev.DominoAnswered) -> None:
    s.domino_wait.remove(e.seat)
    s.domino_answered.append(e.seat)
    if e.take:
        s.domino_taking.append(e.seat)


def _settled(s: State, seat: int) -> None:
    # streams recorded before answers were sealed take or decline at once, straight from the wait
    for seats in (s.domino_wait, s.domino_answered, s.domino_taking):
        if seat in seats:
            seats.remove(seat)


def _taken(s: State, e: ev.DominoTaken) -> None:
    p = s.player(e.seat)
    p.hand = sorted([*p.hand, e.tile])
    p.bazaar.remove(e.tile)
    _settled(s, e.seat)


def _declined(s: State, e: ev.DominoDeclined) -> None:
    _settled(s, e.seat)


def _clock(s: State, e: ev.ClockExpired) -> None:
    s.afk.timed_out(PendingDecision(e.key, e.seat, e.kind, "decision", 0, 0))


def _acted(s: State, e: ev.SeatActed) -> None:
    s.afk.acted(e.seat)


def _ended(s: State, e: ev.GameEnded) -> None:
    s.phase = OVER
    s.end_reason = e.reason
    s.places = [list(p) for p in e.places]
    s.final = list(e.final)
    s.contour = None
    s.domino_wait, s.domino_answered, s.domino_taking = [], [], []


_HANDLERS: dict[type[Any], Callable[[State, Any], None]] = {
    ev.StartDieRolled: _start_rolled,
    ev.StartDiePlaced: _start_placed,
    ev.SixesPlaced: _sixes,
    ev.RoundStarted: _round,
    ev.TurnStarted: _turn,
    ev.DiePlaced: _die_placed,
    ev.PieceMoved: _piece_moved,
    ev.DominoPlaced: _domino_placed,
    ev.DieDiscarded: _discarded,
    ev.ContourScored: _contour,
    ev.BlackPlaced: _black,
    ev.DominoChoiceOpened: _domino_choice,
    ev.DominoTaken: _taken,
    ev.DominoDeclined: _declined,
    ev.DominoAnswered: _answered,
    ev.ClockExpired: _clock,
    ev.SeatActed: _acted,
    ev.GameEnded: _ended,
}


def evolve(state: State | None, event: ev.GameEvent) -> State:
    if type(event) is ev.GameStarted:  # an isinstance that fails costs 0.3 µs an event (a struct's metaclass)
        s = _create(event)
    else:
        if state is None:
            raise ValueError(f"{type(event).__name__} before GameStarted")
        s = state
        if not evolve_table(s.afk, event):
            _HANDLERS[type(event)](s, event)
    s.last_at_ms = event.at_ms
    return s


class DragonsFlow(tablehall_rules.Flow[State]):
    evolve_event = staticmethod(evolve)


# the working copy of one `decide` the rules read and emit on
Flow: TypeAlias = tablehall_rules.Flow[State]
