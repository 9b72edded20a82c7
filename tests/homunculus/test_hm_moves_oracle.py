"""Гомункул's moves over tiles against a second, naive implementation written from the seed's
text (not from tablehall_boards' generator): random positions of 2, 3 or 4 players (2-on-2 too)
with tiles of every owner, hidden mines anywhere (passing or standing on one is not the move
generator's business: mines act on landing).

The oracle walks coordinates of the cross: sliders (rook, bishop, queen) go cell by cell and
stop before an own or allied piece, on an enemy piece (taken), before an enemy tile half they
cannot pierce (a wall) or on one they can (strength ≥ the half's number: pawn 1, knight/bishop
3, king 4, rook 5, queen 9); they pass an own or allied half (a bridge) without standing on it.
Knights and kings only look at the target, so a knight jumps any wall. A pawn steps forward
(from its own edge) onto an empty cell, two from its start row when both are empty, takes
diagonally forward (a piece, or an enemy half it can pierce), and becomes a queen on the 8th row
from its edge.
"""

from __future__ import annotations

from functools import cache

import pytest
from hm_helpers import fresh
from hypothesis import given, settings
from hypothesis import strategies as st

from homunculus.board import moves_of, targets_of
from homunculus.state import Mine, PlacedDomino, State
from tablehall_boards import Kind, Piece, cross
from tablehall_rules import clone as copy_state

G = cross.grid()
SIZE = 14
STRENGTH = {Kind.PAWN: 1, Kind.KNIGHT: 3, Kind.BISHOP: 3, Kind.KING: 4, Kind.ROOK: 5, Kind.QUEEN: 9}
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
FORWARD = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}  # south, west, north, east arms
MoveKey = tuple[int, int, bool, Kind | None]


def on_cross(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE and not ((x < 3 or x > 10) and (y < 3 or y > 10))


def row_from_edge(arm: int, x: int, y: int) -> int:
    return {0: y, 1: x, 2: SIZE - 1 - y, 3: SIZE - 1 - x}[arm]


def oracle(state: State, player: int) -> set[MoveKey]:
    allied = state.allied
    halves = {cell: (d.owner, d.pips_at(cell)) for d in state.dominoes for cell in d.cells}
    out: set[MoveKey] = set()

    def look(x: int, y: int, piece: Piece) -> str:
        """What the square is for this piece: off, own, enemy, bridge, wall, pierce, empty."""
        if not on_cross(x, y):
            return "off"
        cell = G.cell(x, y)
        other = state.pieces.get(cell)
        if other is not None:
            return "own" if allied(player, other.side) else "enemy"
        if cell in halves:
            owner, pips = halves[cell]
            if allied(player, owner):
                return "bridge"
            return "pierce" if STRENGTH[piece.kind] >= pips else "wall"
        return "empty"

    for origin, piece in state.pieces.items():
        if piece.side != player:
            continue
        x0, y0 = G.coord(origin)
        kind = piece.kind
        if kind in (Kind.ROOK, Kind.BISHOP, Kind.QUEEN):
            rays = {Kind.ROOK: ORTHO, Kind.BISHOP: DIAG, Kind.QUEEN: ORTHO + DIAG}[kind]
            for dx, dy in rays:
                x, y = x0 + dx, y0 + dy
                while True:
                    seen = look(x, y, piece)
                    if seen == "empty":
                        out.add((origin, G.cell(x, y), False, None))
                    elif seen in ("enemy", "pierce"):
                        out.add((origin, G.cell(x, y), True, None))
                        break
                    elif seen != "bridge":
                        break
                    x, y = x + dx, y + dy
        elif kind in (Kind.KNIGHT, Kind.KING):
            for dx, dy in KNIGHT if kind == Kind.KNIGHT else ORTHO + DIAG:
                seen = look(x0 + dx, y0 + dy, piece)
                if seen in ("empty", "enemy", "pierce"):
                    out.add((origin, G.cell(x0 + dx, y0 + dy), seen != "empty", None))
        else:
            arm = state.arms[player]
            fx, fy = FORWARD[arm]

            steps: list[tuple[int, int, bool]] = []
            if look(x0 + fx, y0 + fy, piece) == "empty":
                steps.append((x0 + fx, y0 + fy, False))
                if row_from_edge(arm, x0, y0) == 1 and look(x0 + 2 * fx, y0 + 2 * fy, piece) == "empty":
                    steps.append((x0 + 2 * fx, y0 + 2 * fy, False))
            for sx, sy in ((fy, fx), (-fy, -fx)):  # the two diagonals forward
                x, y = x0 + fx + sx, y0 + fy + sy
                if look(x, y, piece) in ("enemy", "pierce"):
                    steps.append((x, y, True))
            for x, y, capture in steps:
                promote = Kind.QUEEN if row_from_edge(arm, x, y) == 7 else None
                out.add((origin, G.cell(x, y), capture, promote))
    return out


@cache
def table(players: int, teams: bool) -> State:
    return fresh(players, teams)


@st.composite
def positions(draw: st.DrawFn) -> State:
    players = draw(st.sampled_from([2, 3, 4]))
    teams = players == 4 and draw(st.booleans())
    s = copy_state(table(players, teams))
    cells = draw(st.lists(st.integers(0, len(G) - 1), unique=True, min_size=2, max_size=40))
    s.pieces = {
        cell: Piece(draw(st.sampled_from(list(Kind))), draw(st.integers(0, players - 1))) for cell in cells[:28]
    }
    taken = set(s.pieces)
    s.dominoes = []
    for i, first in enumerate(cells[28:]):
        x, y = G.coord(first)
        dx, dy = draw(st.sampled_from(ORTHO))
        if first in taken or not on_cross(x + dx, y + dy) or G.cell(x + dx, y + dy) in taken:
            continue
        second = G.cell(x + dx, y + dy)
        pips = (draw(st.integers(0, 6)), draw(st.integers(0, 6)))
        s.dominoes.append(PlacedDomino(i, draw(st.integers(0, players - 1)), *pips, first, second))
        taken |= {first, second}
    free = [c for c in range(len(G)) if c not in taken]
    s.mines = [Mine(c) for c in sorted(draw(st.lists(st.sampled_from(free), unique=True, max_size=8)))]
    return s


def ours(state: State, player: int) -> set[MoveKey]:
    return {(m.origin, m.target, m.capture, m.promotion) for m in moves_of(state, player)}


def check(state: State) -> None:
    for player in range(state.players):
        want = oracle(state, player)
        assert ours(state, player) == want, f"player {player}"
        # the bot's threatened cells: the targets alone, found without building the moves
        assert targets_of(state, player) == {target for _, target, _, _ in want}, f"player {player}"


@settings(max_examples=200, deadline=None)
@given(state=positions())
def test_moves_over_tiles_equal_the_naive_reading_of_the_rules(state: State) -> None:
    check(state)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(state=positions())
def test_many_more_positions_over_tiles_equal_the_naive_reading(state: State) -> None:
    check(state)


def test_the_oracle_sees_walls_bridges_piercing_and_jumps() -> None:
    """A fixed position with each tile rule, so the comparison covers them for sure."""
    s = fresh(2)
    s.pieces = {
        G.parse("d4"): Piece(Kind.ROOK, 0),
        G.parse("g4"): Piece(Kind.KNIGHT, 0),
        G.parse("h4"): Piece(Kind.PAWN, 0),
        G.parse("g14"): Piece(Kind.KING, 1),
    }
    s.dominoes = [
        PlacedDomino(0, 0, 2, 2, G.parse("d5"), G.parse("d6")),  # own: a bridge for the rook
        PlacedDomino(1, 1, 6, 5, G.parse("d8"), G.parse("d9")),  # enemy 6: a wall for the rook
        PlacedDomino(2, 1, 1, 6, G.parse("g5"), G.parse("g6")),  # enemy: the pawn pierces 1 diagonally
    ]
    s.mines = []
    found = oracle(s, 0)
    assert (G.parse("d4"), G.parse("d7"), False, None) in found  # over the bridge
    assert not any(t in (G.parse("d5"), G.parse("d6"), G.parse("d8")) for o, t, *_ in found if o == G.parse("d4"))
    assert (G.parse("h4"), G.parse("g5"), True, None) in found  # piercing the 1
    assert (G.parse("g4"), G.parse("f6"), False, None) in found  # the knight over the tile
    assert found == ours(s, 0)
