"""The bot hooks: the easy bot (bot_policy), the random player and the evaluation of a state.

The easy bot scores each legal command by the points it makes now (line combinations, a declared
contour, a king-six taken) and takes the best; with no points it prefers placing a die next to
many own dice over giving one up, keeps its dominoes for scoring, and takes a domino while its
hand is small and rounds remain.
"""

from __future__ import annotations

import math
import random
from typing import Any

import msgspec

from dragons import commands as c
from dragons.board import all_neighbours, supports
from dragons.determinize import determinize
from dragons.rules.combos import kept_windows, own_mask, window_points
from dragons.rules.end import final_score
from dragons.state import OVER, ROUNDS, State
from tablehall_rules import Determinizable, HasBotPolicy, HasEvaluation, HasRandomPolicy

KING = 6
# a lead of this many points makes a seat a near-certain winner in `evaluate`
EVALUATION_SCALE = 40.0


class Scorer:
    """The points each command would score now on one board (the engine's scoring, without
    deciding), for every legal command of a decision: the seat's own cells are one bit mask, a
    placement's windows come from the kept table the listing uses (`kept_windows`), and numbers
    are read through the placed ones, so no board is copied per command."""

    def __init__(self, st: State, seat: int) -> None:
        self.face = st.face
        self.owner = st.owner
        self.seat = seat
        self.own = own_mask(st.owner, seat)

    def points(self, command: msgspec.Struct) -> int:
        face = self.face
        own = self.own
        bonus = 0
        if isinstance(command, c.PlaceDie):
            cells: tuple[int, ...] = (command.cell,)
            placed = {command.cell: command.face}
        elif isinstance(command, c.ChessMove):
            origin, target = command.origin, command.target
            piece = face[origin]
            if self.owner[target] == 1 - self.seat and face[target] == KING:
                bonus = KING
            cells = (target,)
            placed = {target: command.promotion or piece, origin: 0}
            own &= ~(1 << origin)  # the piece leaves its cell: no window through it is own
        elif isinstance(command, c.PlaceDomino):
            cells = tuple(command.cells)
            placed = dict(zip(cells, (command.first, command.second), strict=True))
        else:
            return 0
        points = bonus + window_points(kept_windows(own, cells), face, placed)
        return points + sum(placed[x] if x in placed else face[x] for x in command.contour)


def _shape(st: State, seat: int, command: msgspec.Struct) -> float:
    """A tie-break among moves that score the same: grow compact, keep dice and dominoes."""
    if isinstance(command, c.PlaceDie):
        near = sum(1 for n in all_neighbours()[command.cell] if supports(st.owner[n], seat))
        return 1.0 + near * 0.1 + (0.05 if command.face == KING else 0.0)
    if isinstance(command, c.DiscardDie):
        return -2.0
    return -1.0


def choose(view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    if not legal:
        raise ValueError("no legal command")
    seat = view["me"]["seat"]
    first = legal[0]
    if isinstance(first, c.TakeDomino):
        me = view["players"][seat]
        want = me["hand_size"] < 3 and view["round"] < ROUNDS - 3
        return next((x for x in legal if isinstance(x, c.TakeDomino) and x.take == want), first)
    if not isinstance(first, c.PlaceDie | c.ChessMove | c.PlaceDomino | c.DiscardDie):
        return rng.choice(legal)
    st = determinize(view, seat, rng)
    scorer = Scorer(st, seat)
    best: list[msgspec.Struct] = []
    best_value = float("-inf")
    for command in legal:
        value = scorer.points(command) * 10 + _shape(st, seat, command)
        if value > best_value:
            best, best_value = [command], value
        elif value == best_value:
            best.append(command)
    return rng.choice(best)


def evaluate(st: State, seat: int) -> float:
    """1 for a sole winner; in play, the lead in final-score terms (a king-six kept, hand pips
    counted) squashed into (0, 1)."""
    if st.phase == OVER:
        first = st.places[0] if st.places else []
        return 1.0 / len(first) if seat in first else 0.0
    lead = final_score(st, seat) - final_score(st, 1 - seat)
    return 0.5 + 0.5 * math.tanh(lead / EVALUATION_SCALE)


class DragonsBot(Determinizable, HasBotPolicy, HasRandomPolicy, HasEvaluation):
    """The game's bot hooks (`tablehall_rules.bots`)."""

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return determinize(view, seat, rng)

    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return choose(view, legal, rng)

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return rng.choice(legal)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(state, seat)
