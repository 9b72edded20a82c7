"""The minesweeper (сапёр): where mines are, what opens a cell, the numbers, mines going off.

- Mines stand hidden on cells; an owned mine (the shop's) is seen by its owner and allies.
- The number of a cell is the count of mines of anyone on its 8 neighbours **now** (recomputed
  whenever mines change). A piece coming to stand on a cell by any way (a move, a capture, the
  shop's teleport, castling swap or resurrection) lands on it (`land`): an own or allied mine
  there is taken off; any other explodes: the piece dies (a king is wounded first, killed the
  second time; a shield saves it once), and the mine's owner, if an enemy of the victim, gets
  gold as for taking it. Then the cell opens; when its number is 0, every mine-free cell of the
  5×5 around opens (no further cascade).
- The round die's detonation sets off a random mine (the 8 cells around: pieces die, tiles
  break); its minefield lays new nobody's mines on closed empty cells of the centre.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.board import CAPTURE_GOLD, grid
from homunculus.flow import Flow
from homunculus.rules.end import eliminate
from homunculus.state import State
from tablehall_boards import Kind, cross


def number_at(state: State, cell: int) -> int:
    """How many mines (of anyone) stand on the 8 neighbours of `cell` now."""
    g = cross.grid()
    mined = {m.cell for m in state.mines}
    return sum(1 for n in g.neighbours8(cell) if n in mined)


def numbers(state: State) -> dict[int, int]:
    """`number_at` of every opened cell at once (the view's `numbers`), counted from the mines."""
    g = cross.grid()
    around: dict[int, int] = {}
    for m in state.mines:
        for n in g.neighbours8(m.cell):
            around[n] = around.get(n, 0) + 1
    return {cell: around.get(cell, 0) for cell in state.opened}


def square5(cell: int) -> list[int]:
    """The cells within two of `cell` (the 5×5 square, on the board), `cell` included."""
    g = cross.grid()
    x, y = g.coord(cell)
    out = [g.cell_at(x + dx, y + dy) for dy in range(-2, 3) for dx in range(-2, 3)]
    return sorted(c for c in out if c is not None)


def cells_opened_by(state: State, cell: int) -> list[int]:
    """The cells a piece standing on the mine-free `cell` opens: it, and when its number is 0,
    every mine-free cell of the 5×5 around (no further cascade). Only closed cells are listed."""
    opened = set(state.opened)
    mined = {m.cell for m in state.mines}
    found = {cell}
    if number_at(state, cell) == 0:
        found |= {c for c in square5(cell) if c not in mined}
    return sorted(c for c in found if c not in opened)


def reward(flow: Flow, seat: int, kind: Kind, reason: str) -> None:
    flow.emit(e.GoldPaid(seat, CAPTURE_GOLD[kind], reason))


def land(flow: Flow, player: int, cell: int) -> None:
    """A piece of `player` has just come to stand on `cell`: the mine there, then opening."""
    s = flow.state
    mine = s.mine_at(cell)
    if mine is not None:
        if mine.owner is not None and s.allied(player, mine.owner):
            flow.emit(e.MineCleared(cell))
        else:
            _explode_under(flow, player, cell, mine.owner)
    if flow.state.finished:
        return
    opened = cells_opened_by(flow.state, cell)
    if opened:
        flow.emit(e.CellsOpened(opened))


def _explode_under(flow: Flow, player: int, cell: int, owner: int | None) -> None:
    s = flow.state
    piece = s.pieces[cell]
    flow.emit(e.MineExploded(cell, owner))
    if cell in s.shields:  # the shield saves the piece from the blast
        flow.emit(e.ShieldBroke(cell, "mine"))
        return
    if piece.kind == Kind.KING and not s.wounded[player]:
        flow.emit(e.KingWounded(player, cell))
        return
    flow.emit(e.PieceRemoved(cell, piece.kind, player, "mine", by=owner))
    if owner is not None and not s.allied(owner, player) and s.alive[owner]:
        reward(flow, owner, piece.kind, "mine")
    if piece.kind == Kind.KING:
        eliminate(flow, player, "king")


def detonate(flow: Flow) -> None:
    s = flow.state
    if not s.mines:
        return
    mine = s.mines[flow.rng.randint(0, len(s.mines) - 1)]
    flow.emit(e.MineExploded(mine.cell, mine.owner))
    for cell in grid().neighbours8(mine.cell):
        st = flow.state
        piece = st.pieces.get(cell)
        if piece is not None:
            if cell in st.shields:  # the shield saves it (щит спасает)
                flow.emit(e.ShieldBroke(cell, "blast"))
            elif piece.kind == Kind.KING and not st.wounded[piece.side]:
                flow.emit(e.KingWounded(piece.side, cell))
            else:
                flow.emit(e.PieceRemoved(cell, piece.kind, piece.side, "blast"))
                if piece.kind == Kind.KING:
                    eliminate(flow, piece.side, "king")
                    if flow.state.finished:
                        return
        domino = flow.state.domino_at(cell)
        if domino is not None:
            flow.emit(e.DominoRemoved(domino.id, "blast"))


def lay_mines(flow: Flow, count: int) -> None:
    s = flow.state
    opened = set(s.opened)
    mined = {m.cell for m in s.mines}
    free = [
        c
        for c in sorted(cross.centre())
        if c not in s.pieces and s.domino_at(c) is None and c not in opened and c not in mined
    ]
    cells = sorted(flow.rng.shuffled(free)[:count]) if free else []
    if cells:
        flow.emit(e.MinesLaid(cells))
