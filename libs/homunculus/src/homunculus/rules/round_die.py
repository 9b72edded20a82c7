"""The round die (Кубик), rolled after every round; its event acts on everybody.

1. Detonation (детонация): a random mine explodes; the pieces on the 8 cells around die (a king
   is wounded first, killed the second time; a shield saves a piece), the tiles there break.
   2. Gold rush (золотая жила): +3 gold each. 3. Reinforcements (подкрепление): a card each. 4. Reverse (смена направления):
   the order turns. 5. Minefield (минное поле): 2 new hidden mines (nobody's) on closed empty
   cells of the centre. 6. Bazaar (базар): a tile each, for those with fewer than 4, while any.
Per-player effects go in player order, live players only.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.board import grid
from homunculus.rules.landing import take_domino
from homunculus.rules.turn import draw_cards, eliminate
from homunculus.tx import Tx
from tablehall_boards import Kind, cross

DETONATION, GOLD_RUSH, REINFORCEMENTS, REVERSE, MINEFIELD, BAZAAR = 1, 2, 3, 4, 5, 6
GOLD_RUSH_GOLD = 3
NEW_MINES = 2


def roll_round_die(tx: Tx) -> None:
    face = tx.ctx.rng.die()
    tx.emit(e.RoundDie(face))
    s = tx.state
    if face == DETONATION:
        detonate(tx)
    elif face == GOLD_RUSH:
        for p in s.live_players():
            tx.emit(e.GoldPaid(p, GOLD_RUSH_GOLD, "gold_rush"))
    elif face == REINFORCEMENTS:
        for p in s.live_players():
            draw_cards(tx, p, 1, "reinforcement")
    elif face == REVERSE:
        tx.emit(e.DirectionReversed(-s.direction))
    elif face == MINEFIELD:
        lay_mines(tx, NEW_MINES)
    else:
        for p in s.live_players():
            take_domino(tx, p)


def detonate(tx: Tx) -> None:
    s = tx.state
    if not s.mines:
        return
    mine = s.mines[tx.ctx.rng.randint(0, len(s.mines) - 1)]
    tx.emit(e.MineExploded(mine.cell, mine.owner))
    for cell in grid().neighbours8(mine.cell):
        st = tx.state
        piece = st.pieces.get(cell)
        if piece is not None:
            if cell in st.shields:  # the shield saves it (щит спасает)
                tx.emit(e.ShieldBroke(cell, "blast"))
            elif piece.kind == Kind.KING and not st.wounded[piece.side]:
                tx.emit(e.KingWounded(piece.side, cell))
            else:
                tx.emit(e.PieceRemoved(cell, piece.kind, piece.side, "blast"))
                if piece.kind == Kind.KING:
                    eliminate(tx, piece.side, "king")
                    if tx.state.finished:
                        return
        domino = tx.state.domino_at(cell)
        if domino is not None:
            tx.emit(e.DominoRemoved(domino.id, "blast"))


def lay_mines(tx: Tx, count: int) -> None:
    s = tx.state
    opened = set(s.opened)
    mined = {m.cell for m in s.mines}
    free = [
        c
        for c in sorted(cross.centre())
        if c not in s.pieces and s.domino_at(c) is None and c not in opened and c not in mined
    ]
    cells = sorted(tx.ctx.rng.shuffled(free)[:count]) if free else []
    if cells:
        tx.emit(e.MinesLaid(cells))
