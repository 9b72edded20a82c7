"""What happens when a piece moves: taking, piercing, mines, opening cells, promotion.

- A piece landing on an enemy piece takes it (any piece, the king too: its owner is out). The
  taker gets gold (pawn 1, knight/bishop 2, rook 3, queen/king 5) and, for a non-pawn, a tile
  from the bazaar if it holds fewer than 4.
- A piece landing on an enemy domino half (piercing) removes the whole tile.
- A piece coming to stand on a cell by any way (a move, a capture, the shop's teleport, castling
  swap or resurrection) opens it (`land`). On a mine: an own or allied mine is simply taken off;
  any other mine explodes: the piece dies (a king is wounded first, killed the second time),
  and the mine's owner, if an enemy of the victim, gets gold as for taking it.
- A mine-free cell opens; when its number is 0, every mine-free cell of the 5×5 around opens.
- A shielded piece (the shop's shield) is saved once from a capture (the attacker stays where
  it was) or from a mine under it (it stays on the cell); the shield is then gone.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.board import CAPTURE_GOLD, DOMINO_HAND_LIMIT, cells_opened_by
from homunculus.rules.turn import eliminate
from homunculus.tx import Tx
from tablehall_boards import Kind, Move
from tablehall_boards.dominoes import draw_tile


def resolve_move(tx: Tx, player: int, move: Move) -> None:
    s = tx.state
    target = move.target
    victim = s.pieces.get(target)
    domino = s.domino_at(target)
    if victim is not None and target in s.shields:  # the shield repels the attack: the attacker stays
        tx.emit(e.ShieldBroke(target, "capture"))
        return
    if victim is not None:
        tx.emit(e.PieceRemoved(target, victim.kind, victim.side, "capture", by=player))
        tx.emit(e.PieceMoved(player, move.origin, target, move.promotion))
        _reward(tx, player, victim.kind, "capture")
        if victim.kind != Kind.PAWN:
            take_domino(tx, player)
        if victim.kind == Kind.KING:
            eliminate(tx, victim.side, "king")
        land(tx, player, target)  # the taker stands on the cell: it opens as after any move
        return
    if domino is not None:
        tx.emit(e.DominoRemoved(domino.id, "pierced"))
    tx.emit(e.PieceMoved(player, move.origin, target, move.promotion))
    land(tx, player, target)


def take_domino(tx: Tx, player: int) -> None:
    s = tx.state
    if len(s.domino_hands[player]) >= DOMINO_HAND_LIMIT or not s.bazaar.tiles:
        return
    _, tile = draw_tile(s.bazaar, tx.ctx.rng)
    tx.emit(e.DominoTaken(player, tile))


def _reward(tx: Tx, seat: int, kind: Kind, reason: str) -> None:
    tx.emit(e.GoldPaid(seat, CAPTURE_GOLD[kind], reason))


def land(tx: Tx, player: int, cell: int) -> None:
    """A piece of `player` has just come to stand on `cell`: the mine there, then opening."""
    s = tx.state
    mine = s.mine_at(cell)
    if mine is not None:
        if mine.owner is not None and s.allied(player, mine.owner):
            tx.emit(e.MineCleared(cell))
        else:
            _explode_under(tx, player, cell, mine.owner)
    if tx.state.finished:
        return
    opened = cells_opened_by(tx.state, cell)
    if opened:
        tx.emit(e.CellsOpened(opened))


def _explode_under(tx: Tx, player: int, cell: int, owner: int | None) -> None:
    s = tx.state
    piece = s.pieces[cell]
    tx.emit(e.MineExploded(cell, owner))
    if cell in s.shields:  # the shield saves the piece from the blast
        tx.emit(e.ShieldBroke(cell, "mine"))
        return
    if piece.kind == Kind.KING and not s.wounded[player]:
        tx.emit(e.KingWounded(player, cell))
        return
    tx.emit(e.PieceRemoved(cell, piece.kind, player, "mine", by=owner))
    if owner is not None and not s.allied(owner, player) and s.alive[owner]:
        _reward(tx, owner, piece.kind, "mine")
    if piece.kind == Kind.KING:
        eliminate(tx, player, "king")
