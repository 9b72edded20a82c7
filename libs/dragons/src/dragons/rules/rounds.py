"""Rounds (Круги): five dice rolled by the server, five turns, then the domino choice.

Odd rounds roll 3 red and 2 blue dice and go R B R B R; even rounds 3 blue and 2 red, B R B R B.
After each round but the last, each player whose hand holds fewer than four dominoes (and whose
set is not used up) decides whether to take a random one of its colour; the answers are sealed
until every such seat has answered, then the tiles are drawn. The game ends after round 22.
"""

from __future__ import annotations

from dragons import commands as c
from dragons.events import DominoAnswered, DominoChoiceOpened, DominoDeclined, DominoTaken, RoundStarted, TurnStarted
from dragons.evolve import Flow
from dragons.rules.end import end_game
from dragons.state import DOMINO, HAND_LIMIT, ROUNDS, State, round_order
from tablehall_boards.dominoes import Bazaar, draw_tile
from tablehall_rules import illegal


def start_round(f: Flow, number: int) -> None:
    order = round_order(number)
    first = order[0]
    rolled: list[list[int]] = [[], []]
    rolled[first] = [f.rng.die() for _ in range(3)]
    rolled[1 - first] = [f.rng.die() for _ in range(2)]
    f.emit(RoundStarted(round=number, rolled=rolled))
    f.emit(TurnStarted(seat=order[0], round=number, index=0))


def may_take(st: State, seat: int) -> bool:
    p = st.player(seat)
    return len(p.hand) < HAND_LIMIT and bool(p.bazaar)


def advance(f: Flow) -> None:
    """After a turn is complete: the next turn, the domino choice, the next round or the end."""
    st = f.state
    if st.turn_index < 4:
        index = st.turn_index + 1
        f.emit(TurnStarted(seat=round_order(st.round)[index], round=st.round, index=index))
        return
    if st.round >= ROUNDS:
        end_game(f, "rounds")
        return
    seats = [s for s in range(len(st.players)) if may_take(st, s)]
    if seats:
        f.emit(DominoChoiceOpened(round=st.round, seats=seats))
    else:
        start_round(f, st.round + 1)


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
