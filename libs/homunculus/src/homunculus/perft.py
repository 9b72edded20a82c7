"""Perft under Гомункул's rules: node counts of the piece-move tree with tiles and mines.

`perft(state, order, depth)` counts the move sequences of `depth` plies, the players of `order`
moving in turn (the eliminated skipped), each ply one move of any own piece (`board.moves_of`),
made as the engine makes it (`rules.landing.resolve_move`: taking, the shield, piercing a tile,
mines with wounds and gold, elimination with the army and its tiles leaving). No cards and no
turn structure: it pins down the pieces' moves over tiles and mines with numbers. A finished
game (one player or team left) ends its branch. Leaves are counted in bulk.

Perft files (`tests/homunculus/data/*.perft`) are `tablehall_boards.perft` records with grid
`homunculus-cross`, `order` the players moving, and a `setup` of `;`-separated parts:

    players 4 teams                    # 2, 3 or 4 players (arms as in the game); 2-on-2
    standard                           # the armies in their starting places, or:
    pieces 0:Kh1 1:Qd4                 # player:letter cell
    tiles 0:2-5@e5,e6                  # owner:pips on the first cell-pips on the second@cells
    mines f6:- g7:1                    # cell:owner (- nobody's)
    wounded 1                          # players whose king is wounded
    shields d4                         # cells of shielded pieces
"""

from __future__ import annotations

from collections.abc import Sequence

from homunculus.board import grid, moves_of
from homunculus.flow import Flow
from homunculus.rules.landing import resolve_move
from homunculus.setup import start
from homunculus.state import Mine, PlacedDomino, State
from tablehall_boards import Kind, Move, Piece, cross
from tablehall_rules import DecideContext, DrawSource, SeatInfo

SOURCE = b"perft"  # tile draws after a capture do not change any move


def perft(state: State, order: Sequence[int], depth: int) -> int:
    """The number of move sequences of `depth` plies from `state`, `order[0]` (or the next live
    player of `order`) to move."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    return _count(state, tuple(order), 0, depth)


def divide(state: State, order: Sequence[int], depth: int) -> dict[Move, int]:
    """Per first move, the perft of the rest (to find where two counts part)."""
    if depth < 1:
        raise ValueError("divide needs depth at least 1")
    sides = tuple(order)
    pos = _live_at(state, sides, 0)
    if pos is None or state.finished:
        return {}
    player = sides[pos]
    return {move: _count(play(state, player, move), sides, pos + 1, depth - 1) for move in moves_of(state, player)}


def play(state: State, player: int, move: Move) -> State:
    """The state after `player` makes `move` (a copy; `state` is unchanged)."""
    flow = Flow(state, DecideContext(None, 0, DrawSource(SOURCE)))
    resolve_move(flow, player, move)
    return flow.state


def _live_at(state: State, order: tuple[int, ...], pos: int) -> int | None:
    for step in range(len(order)):
        i = (pos + step) % len(order)
        if state.alive[order[i]]:
            return i
    return None


def _count(state: State, order: tuple[int, ...], pos: int, depth: int) -> int:
    if depth == 0:
        return 1
    if state.finished:
        return 0
    at = _live_at(state, order, pos)
    if at is None:
        return 0
    player = order[at]
    moves = moves_of(state, player)
    if depth == 1:
        return len(moves)
    return sum(_count(play(state, player, move), order, at + 1, depth - 1) for move in moves)


# --- set-ups of perft records --------------------------------------------------------------


def setup_state(setup: str) -> State:
    """The table a perft record's `setup` describes (see the module docstring)."""
    parts = {}
    for part in setup.split(";"):
        key, _, rest = part.strip().partition(" ")
        parts[key] = rest.split()
    if "players" not in parts:
        raise ValueError(f"perft setup without players: {setup!r}")
    players = int(parts["players"][0])
    teams = "teams" in parts["players"][1:]
    seats = [SeatInfo(i, f"perft-{i}", f"Player {i}") for i in range(players)]
    events = start({"teams": teams}, seats, DecideContext(None, 0, DrawSource(SOURCE)))
    state = events[0].state  # type: ignore[attr-defined]
    assert isinstance(state, State)
    g = grid()
    if "standard" in parts:
        placed = {}
        for p, arm in enumerate(state.arms):
            placed.update({c: Piece(piece.kind, p) for c, piece in cross.army(arm).items()})
        state.pieces = placed
    else:
        state.pieces = {}
    for item in parts.get("pieces", []):
        side, _, spec = item.partition(":")
        state.pieces[g.parse(spec[1:])] = Piece(Kind.from_letter(spec[0]), int(side))
    state.dominoes = []
    for i, item in enumerate(parts.get("tiles", [])):
        owner, _, rest = item.partition(":")
        pips, _, cells = rest.partition("@")
        first, second = (int(x) for x in pips.split("-"))
        a, b = (g.parse(x) for x in cells.split(","))
        state.dominoes.append(PlacedDomino(i, int(owner), first, second, a, b))
    state.next_domino_id = len(state.dominoes)
    mines = []
    for item in parts.get("mines", []):
        where, _, owner = item.partition(":")
        mines.append(Mine(g.parse(where), None if owner in ("", "-") else int(owner)))
    state.mines = sorted(mines, key=lambda m: m.cell)
    state.wounded = [str(p) in parts.get("wounded", []) for p in range(players)]
    state.shields = sorted(g.parse(x) for x in parts.get("shields", []))
    state.opened = []
    return state
