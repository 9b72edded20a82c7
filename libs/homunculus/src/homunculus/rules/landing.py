"""What happens when a piece moves: taking, piercing, promotion, then its landing.

- A piece landing on an enemy piece takes it (any piece, the king too: its owner is out). The
  taker gets gold (pawn 1, knight/bishop 2, rook 3, queen/king 5) and, for a non-pawn, a tile
  from the bazaar if it holds fewer than 4.
- A piece landing on an enemy domino half (piercing) removes the whole tile.
- A shielded piece (the shop's shield) is saved once from a capture (the attacker stays where
  it was); the shield is then gone.
- The piece then stands on its cell: the mine there and the opening are the minesweeper's
  (`homunculus.rules.mines.land`).
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.flow import Flow
from homunculus.rules.draws import take_domino
from homunculus.rules.end import eliminate
from homunculus.rules.mines import land, reward
from tablehall_boards import Kind, Move


def resolve_move(flow: Flow, player: int, move: Move) -> None:
    s = flow.state
    target = move.target
    victim = s.pieces.get(target)
    domino = s.domino_at(target)
    if victim is not None and target in s.shields:  # the shield repels the attack: the attacker stays
        flow.emit(e.ShieldBroke(target, "capture"))
        return
    if victim is not None:
        flow.emit(e.PieceRemoved(target, victim.kind, victim.side, "capture", by=player))
        flow.emit(e.PieceMoved(player, move.origin, target, move.promotion))
        reward(flow, player, victim.kind, "capture")
        if victim.kind != Kind.PAWN:
            take_domino(flow, player)
        if victim.kind == Kind.KING:
            eliminate(flow, victim.side, "king")
        land(flow, player, target)  # the taker stands on the cell: it opens as after any move
        return
    if domino is not None:
        flow.emit(e.DominoRemoved(domino.id, "pierced"))
    flow.emit(e.PieceMoved(player, move.origin, target, move.promotion))
    land(flow, player, target)
