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
from dragons.board import FREE, all_neighbours, supports
from dragons.determinize import determinize
from dragons.rules.combos import line_combos
from dragons.rules.end import final_score
from dragons.rules.placement import combos_if_placed
from dragons.state import OVER, ROUNDS, State
from tablehall_rules import Determinizable, HasBotPolicy, HasEvaluation, HasRandomPolicy

KING = 6
# a lead of this many points makes a seat a near-certain winner in `evaluate`
EVALUATION_SCALE = 40.0


def points_of(st: State, seat: int, command: msgspec.Struct) -> int:
    """The points `command` would score now (the engine's scoring, without deciding)."""
    owner, face = list(st.owner), list(st.face)
    if isinstance(command, c.PlaceDie):
        owner[command.cell], face[command.cell] = seat, command.face
        points = sum(x.points for x in line_combos(owner, face, seat, [command.cell]))
        return points + sum(face[x] for x in command.contour)
    if isinstance(command, c.ChessMove):
        piece = face[command.origin]
        taken = face[command.target] if owner[command.target] == 1 - seat else 0
        owner[command.origin], face[command.origin] = FREE, 0
        owner[command.target], face[command.target] = seat, command.promotion or piece
        points = sum(x.points for x in line_combos(owner, face, seat, [command.target]))
        return points + (KING if taken == KING else 0) + sum(face[x] for x in command.contour)
    if isinstance(command, c.PlaceDomino):
        cells = list(command.cells)
        points = sum(x.points for x in combos_if_placed(owner, face, seat, cells, [command.first, command.second]))
        for cell, pips in zip(cells, (command.first, command.second), strict=True):
            face[cell] = pips
        return points + sum(face[x] for x in command.contour)
    return 0


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
    best: list[msgspec.Struct] = []
    best_value = float("-inf")
    for command in legal:
        value = points_of(st, seat, command) * 10 + _shape(st, seat, command)
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
