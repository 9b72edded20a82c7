"""The bot hooks: the easy bot (bot_policy), the random player and the evaluation of a state.

The easy bot scores each legal command by the points it makes now (line combinations, a declared
contour, a king-six taken) and takes the best; with no points it prefers placing a die next to
many own dice over giving one up, keeps its dominoes for scoring, and takes a domino while its
hand is small and rounds remain. It decides on the spelled-out commands (`choose`, `bot_policy`)
or, the same choice with the same draws, on the descriptors (`choose_moves`, `bot_policy_moves`:
the bot service's own views), where only the chosen command is made.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Any

import msgspec

from dragons import commands as c
from dragons.board import all_neighbours
from dragons.determinize import Board, determinize, sample_board
from dragons.rules.combos import Window, completes, completions, kept_windows, live_windows, reach, window_points
from dragons.rules.end import final_score
from dragons.rules.masks import cell_bits, numbers_of, own_of, position_flags
from dragons.state import OVER, ROUNDS, State
from tablehall_rules import (
    Determinizable,
    HasBotPolicy,
    HasEvaluation,
    HasMovesPolicy,
    LegalMove,
    Rule,
    StructCodec,
)
from tablehall_rules.legal import expand_all, spell, values

KING = 6
# a lead of this many points makes a seat a near-certain winner in `evaluate`
EVALUATION_SCALE = 40.0


# a command's own fields: no descriptor values replace them
AS_IS: Mapping[str, Any] = MappingProxyType({})
SCORED = (c.PlaceDie, c.ChessMove, c.PlaceDomino, c.DiscardDie)
# the field that says where a given-up die's chess move or domino lands
LANDS = {c.ChessMove: "target", c.PlaceDomino: "cells"}
# the value of a chess move or a domino that scores nothing (its shape): below any placed die's
QUIET = -1.0
CODEC = StructCodec(c.COMMAND_TYPES)


class Scorer:
    """The points each command would score now on one board (the engine's scoring, without
    deciding), for every legal command of a decision: the seat's own cells are one bit mask, a
    placement's windows come from the kept table the listing uses (`kept_windows`), those that
    may score kept per cells for the decision (`windows`), and numbers are read through the
    placed ones, so no board is copied per command.

    A command is read as it is, or as a descriptor's template whose parameters take the values
    `fields` (one option of a descriptor, scored without making its command)."""

    def __init__(self, st: State | Board, seat: int) -> None:
        self.face = st.face
        self.owner = st.owner
        self.seat = seat
        own = own_of(st.owner, seat)
        self.own = cell_bits(own)  # `own_mask`
        # where a placement may complete a window at all: most are answered by this alone
        self.completions = completions(numbers_of(own, st.face))
        # the same per cell, read by index in the loops over a descriptor's places
        self.one, self.east, self.north = (position_flags(m) for m in self.completions)
        self._windows: dict[tuple[tuple[int, ...], int | None], tuple[Window, ...]] = {}

    def value(self, command: msgspec.Struct, fields: Mapping[str, Any] = AS_IS) -> float:
        """What the easy bot maximises: the points, then `shape` among equal points."""
        return self.points(command, fields) * 10 + self.shape(command, fields)

    def points(self, command: msgspec.Struct, fields: Mapping[str, Any] = AS_IS) -> int:
        f = fields
        if isinstance(command, c.PlaceDie):
            return self.die(f.get("face", command.face), f.get("cell", command.cell), f.get("contour", command.contour))
        if isinstance(command, c.ChessMove):
            target, promotion = f.get("target", command.target), f.get("promotion", command.promotion)
            return self.chess(f.get("origin", command.origin), target, promotion, f.get("contour", command.contour))
        if isinstance(command, c.PlaceDomino):
            first, second = f.get("first", command.first), f.get("second", command.second)
            return self.domino(first, second, f.get("cells", command.cells), f.get("contour", command.contour))
        return 0

    def die(self, number: int, cell: int, contour: list[int]) -> int:
        placed = {cell: number}
        return self._lines(self.windows((cell,)), placed) + self._contour(contour, placed)

    def chess(self, origin: int, target: int, promotion: int, contour: list[int]) -> int:
        face = self.face
        bonus = KING if self.owner[target] == 1 - self.seat and face[target] == KING else 0
        placed = {target: promotion or face[origin], origin: 0}
        return bonus + self._lines(self.windows((target,), origin), placed) + self._contour(contour, placed)

    def domino(self, first: int, second: int, cells: list[int], contour: list[int]) -> int:
        a, b = cells
        placed = {a: first, b: second}
        return self._lines(self.windows((a, b) if a < b else (b, a)), placed) + self._contour(contour, placed)

    def windows(self, cells: tuple[int, ...], leaving: int | None = None) -> tuple[Window, ...]:
        """The line windows own dice placed on `cells` (sorted) complete that may score
        (`live_windows`), found once per decision: the cells are asked for each number and tile.
        `leaving`: the cell a chess piece leaves (no window through it is own)."""
        key = (cells, leaving)
        found = self._windows.get(key)
        if found is None:
            if not completes(self.completions, cells):  # (without `leaving`'s die: no fewer windows)
                found = ()
            elif leaving is not None and not reach(cells) >> leaving & 1:
                found = self.windows(cells)  # no window through `cells` holds the cell left: the same
            else:
                own = self.own if leaving is None else self.own & ~(1 << leaving)
                found = live_windows(kept_windows(own, cells), self.face, cells)
            self._windows[key] = found
        return found

    # most placements make no line and declare no contour: those answer without a call or a sum
    def _lines(self, found: tuple[Window, ...], placed: dict[int, int]) -> int:
        return window_points(found, self.face, placed) if found else 0

    def _contour(self, contour: list[int], placed: dict[int, int]) -> int:
        if not contour:
            return 0
        face = self.face
        return sum(placed[x] if x in placed else face[x] for x in contour)

    def shape(self, command: msgspec.Struct, fields: Mapping[str, Any] = AS_IS) -> float:
        """A tie-break among moves that score the same: grow compact, keep dice and dominoes."""
        if isinstance(command, c.PlaceDie):
            return self.die_shape(fields.get("cell", command.cell), fields.get("face", command.face))
        if isinstance(command, c.DiscardDie):
            return -2.0
        return QUIET

    def die_shape(self, cell: int, number: int) -> float:
        near = (_neighbours()[cell] & self.own).bit_count()  # the own ones
        return 1.0 + near * 0.1 + (0.05 if number == KING else 0.0)

    def plain_dice(self, number: int, cells: list[int]) -> list[float]:
        """`value(PlaceDie(face=number, cell=x, contour=[]))` for each of `cells`: a die that
        completes no window scores nothing, its value is its shape (0 * 10 + shape)."""
        one, near, own = self.one, _neighbours(), self.own
        king = 0.05 if number == KING else 0.0
        out: list[float] = []
        for cell in cells:
            shape = 1.0 + (near[cell] & own).bit_count() * 0.1 + king  # `die_shape`, inline
            out.append(self.die(number, cell, []) * 10 + shape if one[cell] else shape)
        return out

    def give_ups(self, command: msgspec.Struct, places: list[Any]) -> list[float]:
        """`value(command, {where: x, "contour": []})` for each place x of a chess move with its
        promotion set (a target) or of a tile (its cells): the points (`chess`, `domino`
        without a contour) times 10, plus the shape `QUIET`."""
        face, out = self.face, []
        if isinstance(command, c.ChessMove):
            origin, enemy = command.origin, 1 - self.seat
            number, owner = command.promotion or face[origin], self.owner
            for target in places:
                found = self.windows((target,), origin)
                points = KING if owner[target] == enemy and face[target] == KING else 0
                if found:
                    points += window_points(found, face, {target: number, origin: 0})
                out.append(points * 10 + QUIET)
            return out
        assert isinstance(command, c.PlaceDomino)
        first, second = command.first, command.second
        for a, b in places:
            found = self.windows((a, b) if a < b else (b, a))
            points = window_points(found, face, {a: first, b: second}) if found else 0
            out.append(points * 10 + QUIET)
        return out

    def scoring_places(self, command: msgspec.Struct, places: list[Any]) -> list[Any]:
        """The places of `places` where `may_score(command, x)`, in order: those where nothing
        can complete a window (`completions`) and no king is taken are left out at once."""
        one = self.one
        if isinstance(command, c.ChessMove):  # `may_score`, inline
            owner, face, enemy, origin, windows = self.owner, self.face, 1 - self.seat, command.origin, self.windows
            return [
                x
                for x in places
                if (owner[x] == enemy and face[x] == KING) or (one[x] and windows((x,)) and windows((x,), origin))
            ]
        east, north, windows = self.east, self.north, self.windows
        out = []
        for x in places:  # `completes` then `may_score` on each tile's cells, inline (a turn asks hundreds)
            a, b = x
            if a > b:
                a, b = b, a
            # (cells run row by row: the east neighbour is the next cell)
            if (one[a] or one[b] or (east[a] if b == a + 1 else north[a])) and windows((a, b)):
                out.append(x)
        return out

    def may_score(self, command: msgspec.Struct, where: Any) -> bool:
        """Whether the chess move `command` to `where` (a target) or the domino `command` on
        `where` (its cells) may score when it declares no contour: it completes a line window
        (`windows` finds one) or takes a king. False: its points are 0, as `points` finds."""
        if isinstance(command, c.ChessMove):
            if self.owner[where] == 1 - self.seat and self.face[where] == KING:
                return True
            # the windows without the piece's cell are among those with it, which most targets
            # share with the placements of dice
            return bool(self.windows((where,))) and bool(self.windows((where,), command.origin))
        a, b = where
        return bool(self.windows((a, b) if a < b else (b, a)))


@cache
def _neighbours() -> tuple[int, ...]:
    """Per cell, the bit mask of its 8 neighbours."""
    return tuple(sum(1 << n for n in near) for near in all_neighbours())


def choose(view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    if not legal:
        raise ValueError("no legal command")
    seat = view["me"]["seat"]
    first = legal[0]
    if isinstance(first, c.TakeDomino):
        me = view["players"][seat]
        want = me["hand_size"] < 3 and view["round"] < ROUNDS - 3
        return next((x for x in legal if isinstance(x, c.TakeDomino) and x.take == want), first)
    if not isinstance(first, SCORED):
        return rng.choice(legal)
    scorer = Scorer(sample_board(view, seat, rng), seat)  # determinize's board, its draws
    best: list[msgspec.Struct] = []
    best_value = float("-inf")
    for command in legal:
        value = scorer.value(command)
        if value > best_value:
            best, best_value = [command], value
        elif value == best_value:
            best.append(command)
    return rng.choice(best)


Option = tuple[LegalMove, tuple[Any, ...]]  # a descriptor and its parameters' values


def choose_moves(view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random) -> msgspec.Struct:
    """`choose` on the descriptors: the command `choose(view, expand_all(moves, ...), rng)` picks,
    with the same draws of `rng`, each option scored from its descriptor's values and only the
    chosen command made (a turn spells out hundreds, most of them a domino or a chess move once
    per rolled number that gives it up)."""
    first = next((lm for lm in moves if lm.size()), None)
    if first is None or not isinstance(first.command, SCORED):  # no turn: a few commands at most
        return choose(view, expand_all(moves, CODEC), rng)
    seat = view["me"]["seat"]
    scorer = Scorer(sample_board(view, seat, rng), seat)  # determinize's board, its draws
    best: list[Option] = []
    best_value = float("-inf")
    for lm in moves:
        value, options = _best_options(scorer, lm, best_value)
        if value > best_value:
            best, best_value = options, value
        elif value == best_value:
            best += options
    chosen, params = rng.choice(best)
    return spell(chosen, params, CODEC)


def _best_options(scorer: Scorer, lm: LegalMove, floor: float) -> tuple[float, list[Option]]:
    """The best value among the commands `lm` spells out, and those that have it, in `expand`'s
    order; those below `floor` (the best value so far) may be left out."""
    if floor > QUIET and _quiet_chess(lm) and not scorer.scoring_places(lm.command, list(values(lm.params[1].domain))):
        return float("-inf"), []  # most chess moves: none may score (as below, without the rest)
    names = [p.field for p in lm.params]
    domains = [list(values(p.domain)) for p in lm.params]
    where = LANDS.get(type(lm.command), "")
    if floor > QUIET and where in names and not _declares_contour(lm.command, names, domains):
        # a give-up that scores nothing is worth its shape, below the best so far: only the
        # places where it may score are scored (most dominoes make no line)
        i = names.index(where)
        domains[i] = scorer.scoring_places(lm.command, domains[i])
    # the number given up for a chess move or a domino (the outermost parameter) scores nothing:
    # the rest is scored once, not once per rolled number
    outer = 1 if names[:1] == ["face"] and not isinstance(lm.command, c.PlaceDie) else 0
    inner = list(itertools.product(*domains[outer:]))
    if not inner or not all(domains[:outer]):
        return float("-inf"), []
    command = lm.command
    if isinstance(command, c.PlaceDie) and names == ["cell", "contour"] and domains[1] == [[]]:
        scores = scorer.plain_dice(command.face, domains[0])  # the plain placements: most of a turn's
    elif outer and names[1:] == [where, "contour"] and domains[2] == [[]]:
        scores = scorer.give_ups(command, domains[1])  # a quiet chess move's targets, a tile's cells
    else:
        scores = [scorer.value(command, dict(zip(names[outer:], combo, strict=True))) for combo in inner]
    top = max(scores)
    tops = [combo for combo, score in zip(inner, scores, strict=True) if score == top]
    return top, [(lm, head + combo) for head in itertools.product(*domains[:outer]) for combo in tops]


def _quiet_chess(lm: LegalMove) -> bool:
    """Whether `lm` is a chess move by the target, declaring no contour (`face`, `target`,
    `contour` [[]])."""
    if type(lm.command) is not c.ChessMove or len(lm.params) != 3:
        return False
    face, target, contour = lm.params
    return (
        (face.field, target.field, contour.field) == ("face", "target", "contour")
        and isinstance(contour.domain, Rule)
        and contour.domain.examples == [[]]
    )


def _declares_contour(template: msgspec.Struct, names: list[str], domains: list[list[Any]]) -> bool:
    """Whether some command of the descriptor declares a contour (one that scores its cells)."""
    if "contour" in names:
        return any(domains[names.index("contour")])
    return bool(getattr(template, "contour", None))


def evaluate(st: State, seat: int) -> float:
    """1 for a sole winner; in play, the lead in final-score terms (a king-six kept, hand pips
    counted) squashed into (0, 1)."""
    if st.phase == OVER:
        first = st.places[0] if st.places else []
        return 1.0 / len(first) if seat in first else 0.0
    lead = final_score(st, seat) - final_score(st, 1 - seat)
    return 0.5 + 0.5 * math.tanh(lead / EVALUATION_SCALE)


class DragonsBot(Determinizable, HasBotPolicy, HasMovesPolicy, HasEvaluation):
    """The game's bot hooks (`tablehall_rules.bots`). No random player of its own: the platform's
    uniform draw over the legal commands, which the bot makes on the descriptors (`nth`)."""

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return determinize(view, seat, rng)

    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return choose(view, legal, rng)

    def bot_policy_moves(self, view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random) -> msgspec.Struct:
        return choose_moves(view, moves, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(state, seat)
