"""A turn (Ход): the active seat uses one of its rolled dice.

It places the die (rules 1–4), or from round 3 gives it up for a chess move of an own die or
for a domino from its hand. A move that closes a contour may declare it; the engine judges the
cycle (`contour.judge`), the server rolls a black die and the seat places it inside (`BLACK`
phase). A die may be given up with nothing done only when no other use of any rolled die exists.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dragons import commands as c
from dragons.board import CELLS, FREE, NO_DOMINO, Contact, touches_corner
from dragons.events import BlackPlaced, Combo, ContourScored, DieDiscarded, DiePlaced, DominoPlaced, PieceMoved
from dragons.evolve import Flow
from dragons.legal import has_use
from dragons.rules.chess import moves_from
from dragons.rules.combos import line_combos
from dragons.rules.contour import judge
from dragons.rules.placement import (
    combos_if_placed,
    domino_cells_ok,
    domino_half_corner,
    domino_half_plain,
    near_domino,
    plain,
)
from dragons.rules.rounds import advance
from dragons.state import BLACK, CHESS_FROM_ROUND, TURN, State
from tablehall_boards.dominoes import tile
from tablehall_boards.grid import Cell
from tablehall_rules import NotYourTurn, illegal, invalid

KING = 6
KING_POINTS = 6


def _cell(value: int, name: str = "cell") -> Cell:
    if not 0 <= value < CELLS:
        raise invalid("BAD_CELL", f"{name} is not a cell of the board.", f"{name}: такой клетки на поле нет.")
    return value


def _rolled(st: State, seat: int, face: int) -> None:
    if face not in st.rolled[seat]:
        raise illegal(
            "NOT_ROLLED", "You have no rolled die with that number.", "Среди ваших выпавших кубиков такого числа нет."
        )


def _turn(st: State, seat: int) -> None:
    if st.phase != TURN or st.active != seat:
        raise NotYourTurn()


def _from_round_3(st: State) -> None:
    if st.round < CHESS_FROM_ROUND:
        raise illegal(
            "NOT_BEFORE_ROUND_3",
            "Giving a die up for a chess move or a domino starts in round 3.",
            "Менять кубик на шахматный ход или доминошку можно с третьего круга.",
        )


def _no_contact(corner: bool) -> Exception:
    if corner:
        return illegal(
            "CORNER_NEEDS_COMBINATION",
            "Touching your dice only by a corner is allowed when the die forms a scoring combination.",
            "Касаться своих кубиков только углом можно, если кубик образует зачётную комбинацию.",
        )
    return illegal(
        "NOT_TOUCHING",
        "A placed die must touch one of your dice (or a black die) by a side.",
        "Выставляемый кубик должен касаться стороной вашего (или чёрного) кубика.",
    )


def _contour(f: Flow, seat: int, cells: Sequence[int], moved: Collection[int]) -> None:
    st = f.state
    judged = judge(cells, st.owner, st.face, seat, moved, st.black_left)
    f.emit(
        ContourScored(
            seat=seat, cells=judged.cells, points=judged.points, black_face=f.rng.die(), inside=judged.inside_free
        )
    )


def _finish(f: Flow) -> None:
    if f.state.phase != BLACK:
        advance(f)


def place_die(f: Flow, cmd: c.PlaceDie, seat: int) -> None:
    st = f.state
    _turn(st, seat)
    _rolled(st, seat, cmd.face)
    cell = _cell(cmd.cell)
    if st.owner[cell] != FREE:
        raise illegal("CELL_TAKEN", "That cell is taken.", "Эта клетка занята.")
    combos = combos_if_placed(list(st.owner), list(st.face), seat, [cell], [cmd.face])
    if not plain(st.owner, cell, seat, cmd.face):
        corner = touches_corner(st.owner, cell, seat)
        if not corner or not (combos or cmd.contour):
            raise _no_contact(corner)
    f.emit(DiePlaced(seat=seat, face=cmd.face, cell=cell, combos=combos))
    if cmd.contour:
        _contour(f, seat, cmd.contour, {cell})
    _finish(f)


def chess_move(f: Flow, cmd: c.ChessMove, seat: int) -> None:
    st = f.state
    _turn(st, seat)
    _from_round_3(st)
    _rolled(st, seat, cmd.face)
    origin, target = _cell(cmd.origin, "origin"), _cell(cmd.target, "target")
    if st.owner[origin] != seat or st.domino[origin] != NO_DOMINO:
        raise illegal(
            "NOT_YOUR_PIECE",
            "Only your own dice on the board move (not dominoes, not black dice).",
            "Ходить можно только своими кубиками на поле (не доминошками и не чёрными кубиками).",
        )
    promotion = cmd.promotion or None
    found = [m for m in moves_from(st.owner, st.face, st.domino, seat, origin) if m.target == target]
    if not found:
        raise illegal("ILLEGAL_MOVE", "That piece cannot move there.", "Эта фигура туда не ходит.")
    move = next((m for m in found if (m.promotion or None) == promotion), None)
    if move is None:
        raise illegal(
            "BAD_PROMOTION",
            "A pawn on the last cell of its column becomes a 2, 3, 4 or 5; elsewhere no promotion.",
            "Пешка на последней клетке своей вертикали превращается в 2, 3, 4 или 5; в других случаях превращения нет.",
        )
    piece = st.face[origin]
    captured = st.face[target] if move.capture else 0
    owner, face = list(st.owner), list(st.face)
    owner[origin], face[origin] = FREE, 0
    owner[target], face[target] = seat, int(move.promotion) if move.promotion else piece
    combos = line_combos(owner, face, seat, [target])
    if captured == KING:
        combos.append(Combo(kind="king_taken", cells=[target], points=KING_POINTS))
    f.emit(
        PieceMoved(
            seat=seat,
            face=cmd.face,
            origin=origin,
            target=target,
            piece=piece,
            promotion=int(move.promotion) if move.promotion else 0,
            captured=captured,
            combos=combos,
        )
    )
    if cmd.contour:
        _contour(f, seat, cmd.contour, {target})
    _finish(f)


def place_domino(f: Flow, cmd: c.PlaceDomino, seat: int) -> None:
    st = f.state
    _turn(st, seat)
    _from_round_3(st)
    _rolled(st, seat, cmd.face)
    if not (0 <= cmd.first <= 6 and 0 <= cmd.second <= 6) or len(cmd.cells) != 2:
        raise invalid(
            "BAD_DOMINO",
            "A domino has two halves of 0–6 on two cells.",
            "У доминошки две половинки 0–6 на двух клетках.",
        )
    if tile(cmd.first, cmd.second) not in st.player(seat).hand:
        raise illegal("NOT_IN_HAND", "You have no such domino.", "У вас нет такой доминошки.")
    cells = [_cell(x) for x in cmd.cells]
    pips = [cmd.first, cmd.second]
    if not domino_cells_ok(st.owner, near_domino(st.domino), cells):
        raise illegal(
            "DOMINO_CELLS",
            "A domino covers two free side-neighbouring cells and touches no other domino, even by a corner.",
            "Доминошка занимает две свободные соседние по стороне клетки и не касается других доминошек даже углом.",
        )
    combos = combos_if_placed(list(st.owner), list(st.face), seat, cells, pips)
    contact = Contact(st.owner, seat)
    if not domino_half_plain(contact, cells, pips, seat):
        corner = domino_half_corner(contact, cells)
        if not corner or not (combos or cmd.contour):
            raise _no_contact(corner)
    f.emit(DominoPlaced(seat=seat, face=cmd.face, id=len(st.dominoes), cells=cells, pips=pips, combos=combos))
    if cmd.contour:
        _contour(f, seat, cmd.contour, set(cells))
    _finish(f)


def discard_die(f: Flow, cmd: c.DiscardDie, seat: int) -> None:
    st = f.state
    _turn(st, seat)
    _rolled(st, seat, cmd.face)
    if has_use(st, seat):
        raise illegal(
            "DIE_HAS_USE",
            "A rolled die of yours can still be placed or given up for a move.",
            "Ваш выпавший кубик ещё можно выставить или обменять на ход.",
        )
    f.emit(DieDiscarded(seat=seat, face=cmd.face))
    _finish(f)


def place_black(f: Flow, cmd: c.PlaceBlack, seat: int) -> None:
    st = f.state
    if st.phase != BLACK or st.contour is None or st.contour.seat != seat:
        raise illegal("NO_BLACK_DIE", "You have no black die to place.", "Вам нечего ставить: чёрного кубика нет.")
    if cmd.cell not in st.contour.inside:
        raise illegal(
            "NOT_INSIDE",
            "The black die goes on a free cell inside the contour.",
            "Чёрный кубик ставится на свободную клетку внутри контура.",
        )
    f.emit(BlackPlaced(seat=seat, cell=cmd.cell, face=st.contour.face))
    advance(f)
