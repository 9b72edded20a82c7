"""Rounds (Круги): five dice rolled by the server, five turns, then the domino choice.

Odd rounds roll 3 red and 2 blue dice and go R B R B R; even rounds 3 blue and 2 red, B R B R B.
After each round but the last, each player whose hand holds fewer than four dominoes (and whose
set is not used up) decides whether to take a random one of its colour. The game ends after
round 22.
"""

from __future__ import annotations

from dragons.events import DominoChoiceOpened, RoundStarted, TurnStarted
from dragons.flow import Flow
from dragons.rules.end import end_game
from dragons.state import HAND_LIMIT, ROUNDS, State, round_order


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
