"""Legal-move descriptors: what a seat may do now (see docs/rules/dragons.md, «Legal moves»).

A turn's descriptors, per rolled number `f` of the seat:

- `PlaceDie(face=f)` with `cell` a `Choice` of the cells rules 1 and 4 allow, `contour` the rule
  `contour` (example `[]`: none declared);
- `PlaceDie(face=f)` with `cell` the rule `corner:<kinds>` whose examples are the corner-only
  cells where the die forms those line combinations (`straight_line`, `four_diagonal`, …);
- `PlaceDie(face=f)` with `cell` the rule `corner:contour` (examples: corner-only cells where a
  contour through the die is found) and `contour` the rule `contour` without examples: a corner
  placement justified by the contour it declares;
- `PlaceDie(face=f, cell=c)` with `contour` the rule `contour` and example cycles through `c`;
- from round 3, `ChessMove` per own die (`origin`): `face` a `Choice` of the rolled numbers,
  `target` a `Choice` (and `promotion` a `Choice` of 2–5 on the last cell of a pawn's column);
  per move that closes a contour, `ChessMove(origin, target, promotion)` with example cycles;
- from round 3, `PlaceDomino` per domino in hand: `cells` a `Choice` of [first cell, second cell]
  pairs (rules 1/4 for a half) or the rule `corner:<kinds>` (corner-only, with the combinations
  formed) or `corner:contour` (examples: the pairs where a contour was found); per placement
  that closes a contour, `PlaceDomino(first, second, cells)` with example cycles;
- `DiscardDie` only when none of the above exists.
"""

from __future__ import annotations

from collections.abc import Iterator

from dragons import commands as c
from dragons.board import FREE, Contact, grid
from dragons.chess import movable, moves_from
from dragons.combos import kinds
from dragons.contour import components, examples, may_close, may_contain
from dragons.events import Combo
from dragons.placement import (
    combos_if_placed,
    die_targets,
    domino_cells_ok,
    domino_half_corner,
    domino_half_plain,
    near_domino,
)
from dragons.pockets import domino_may_enclose
from dragons.rules.setup import free_marked
from dragons.state import BLACK, CHESS_FROM_ROUND, DOMINO, SETUP, TURN, State
from tablehall_boards import dominoes
from tablehall_rules import Choice, LegalMove, Rule
from tablehall_rules.legal import move

CONTOUR = "contour"
PROMOTIONS = [2, 3, 4, 5]


def _no_contour() -> Rule:
    return Rule(CONTOUR, examples=[[]])


def _grouped(found: dict[int, list[Combo]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for cell, combos in sorted(found.items()):
        out.setdefault(kinds(combos), []).append(cell)
    return out


class _Contours:
    """Contour examples per cell, found once per call (they do not depend on the die's number)."""

    def __init__(self, st: State, seat: int, contact: Contact) -> None:
        self.st = st
        self.seat = seat
        self.own = contact.own
        self.components = components(st.owner, seat) if st.black_left > 0 else []
        self.cache: dict[int, list[list[int]]] = {}
        self.pairs: dict[tuple[int, int], list[list[int]]] = {}

    def at(self, cell: int, number: int) -> list[list[int]]:
        if self.st.black_left <= 0:
            return []
        if cell not in self.cache:
            if not may_contain(cell, self.components, self.own):
                self.cache[cell] = []
                return []
            owner, face = list(self.st.owner), list(self.st.face)
            owner[cell], face[cell] = self.seat, number
            own = list(self.own)
            own[cell] = True
            self.cache[cell] = examples(cell, owner, face, self.seat, self.st.black_left, own_after=own)
        return self.cache[cell]

    def pair(self, cells: list[int]) -> list[list[int]]:
        """Example contours through a half of a domino laid on `cells` (they do not depend on its pips)."""
        if self.st.black_left <= 0:
            return []
        key = (min(cells), max(cells))
        if key not in self.pairs:
            a, b = key
            with_a, with_b = list(self.own), list(self.own)
            with_a[a] = with_b[b] = True
            found: list[list[int]] = []
            both = list(with_a)
            both[b] = True
            if (
                may_close(a, self.components, with_b)
                or may_close(b, self.components, with_a)
                or domino_may_enclose(a, b, both)
            ):
                owner, face = list(self.st.owner), list(self.st.face)
                owner[a] = owner[b] = self.seat
                with_a[b] = True
                for half, other in ((a, b), (b, a)):
                    found += [
                        x
                        for x in examples(
                            half, owner, face, self.seat, self.st.black_left, moved={other}, own_after=with_a
                        )
                        if x not in found
                    ]
            self.pairs[key] = found[:3]
        return self.pairs[key]


def _die_moves(st: State, seat: int, number: int, contours: _Contours, contact: Contact) -> Iterator[LegalMove]:
    owner, face = list(st.owner), list(st.face)
    plain_cells, corner, only_contour = die_targets(owner, face, seat, number, contact)
    template = c.PlaceDie(face=number, cell=0)
    if plain_cells:
        yield move(template, cell=Choice(plain_cells), contour=_no_contour())
    for names, cells in _grouped(corner).items():
        yield move(template, cell=Rule(f"corner:{names}", examples=cells), contour=_no_contour())
    if st.black_left > 0:
        if only_contour:
            found = [cell for cell in only_contour if contours.at(cell, number)]
            yield move(template, cell=Rule("corner:contour", examples=found), contour=Rule(CONTOUR))
        for cell in sorted({*plain_cells, *corner, *only_contour}):
            cycles = contours.at(cell, number)
            if cycles:
                yield move(c.PlaceDie(face=number, cell=cell), contour=Rule(CONTOUR, examples=cycles))


def _move_contours(st: State, seat: int, contours: _Contours, origin: int, target: int, number: int) -> list[list[int]]:
    """Example contours a chess move closes at its target (the board after the move)."""
    if st.black_left <= 0:
        return []
    own = list(contours.own)
    own[origin] = False
    if not may_contain(target, contours.components, own):
        return []
    owner, face = list(st.owner), list(st.face)
    owner[origin], face[origin] = FREE, 0
    owner[target], face[target] = seat, number
    own[target] = True
    return examples(target, owner, face, seat, st.black_left, own_after=own)


def _chess_moves(st: State, seat: int, faces: list[int], contours: _Contours) -> Iterator[LegalMove]:
    for origin in movable(st.owner, st.domino, seat):
        found = moves_from(st.owner, st.face, st.domino, seat, origin)
        for m in found:
            number = int(m.promotion) if m.promotion else st.face[origin]
            cycles = _move_contours(st, seat, contours, origin, m.target, number)
            if cycles:
                yield move(
                    c.ChessMove(face=0, origin=origin, target=m.target, promotion=int(m.promotion or 0)),
                    face=Choice(faces),
                    contour=Rule(CONTOUR, examples=cycles),
                )
        quiet = sorted({m.target for m in found if m.promotion is None})
        if quiet:
            yield move(
                c.ChessMove(face=0, origin=origin, target=0),
                face=Choice(faces),
                target=Choice(quiet),
                contour=_no_contour(),
            )
        for target in sorted({m.target for m in found if m.promotion is not None}):
            yield move(
                c.ChessMove(face=0, origin=origin, target=target, promotion=2),
                face=Choice(faces),
                promotion=Choice(PROMOTIONS),
                contour=_no_contour(),
            )


def _domino_moves(st: State, seat: int, faces: list[int], contact: Contact, contours: _Contours) -> Iterator[LegalMove]:
    hand = sorted(set(st.player(seat).hand))
    if not hand:
        return
    owner, face = list(st.owner), list(st.face)
    near = near_domino(st.domino)
    pairs = [
        [a, b]
        for a, b in dominoes.placements(grid(), lambda x: owner[x] == FREE and not near[x])
        if domino_cells_ok(owner, near, [a, b])
    ]
    for t in hand:
        pips = [t.low, t.high]
        plain: list[list[int]] = []
        corner: dict[str, list[list[int]]] = {}
        contour_only: list[list[int]] = []
        closing: list[tuple[list[int], list[list[int]]]] = []
        for cells in pairs:
            if t.is_double and cells[0] > cells[1]:
                continue
            if domino_half_plain(contact, cells, pips, seat):
                plain.append(cells)
            elif domino_half_corner(contact, cells):
                combos = combos_if_placed(owner, face, seat, cells, pips)
                if combos:
                    corner.setdefault(kinds(combos), []).append(cells)
                else:
                    contour_only.append(cells)
                    continue
            else:
                continue
            cycles = contours.pair(cells)
            if cycles:
                closing.append((cells, cycles))
        template = c.PlaceDomino(face=0, first=t.low, second=t.high, cells=[])
        if plain:
            yield move(template, face=Choice(faces), cells=Choice(plain), contour=_no_contour())
        for names, found in sorted(corner.items()):
            yield move(
                template, face=Choice(faces), cells=Rule(f"corner:{names}", examples=found), contour=_no_contour()
            )
        if contour_only and st.black_left > 0:
            shut = [(cells, cycles) for cells in contour_only if (cycles := contours.pair(cells))]
            yield move(
                template,
                face=Choice(faces),
                cells=Rule("corner:contour", examples=[x for x, _ in shut]),
                contour=Rule(CONTOUR),
            )
            closing += shut
        for cells, cycles in closing:
            yield move(
                c.PlaceDomino(face=0, first=t.low, second=t.high, cells=cells),
                face=Choice(faces),
                contour=Rule(CONTOUR, examples=cycles),
            )


def turn_moves(st: State, seat: int) -> list[LegalMove]:
    faces = sorted(set(st.rolled[seat]))
    contact = Contact(st.owner, seat)
    contours = _Contours(st, seat, contact)
    out: list[LegalMove] = []
    for number in faces:
        out.extend(_die_moves(st, seat, number, contours, contact))
    if st.round >= CHESS_FROM_ROUND:
        out.extend(_chess_moves(st, seat, faces, contours))
        out.extend(_domino_moves(st, seat, faces, contact, contours))
    return out


def turn_legal(st: State, seat: int) -> list[LegalMove]:
    """The turn's descriptors; `DiscardDie` is added when no other use spells out a command."""
    out = turn_moves(st, seat)
    if not any(lm.size() for lm in out):
        out += [LegalMove(c.DiscardDie(face=number)) for number in sorted(set(st.rolled[seat]))]
    return out


def has_use(st: State, seat: int) -> bool:
    """Whether some rolled die of the seat can be placed or given up for a move (else it is discarded)."""
    return any(lm.size() for lm in turn_moves(st, seat))


def legal_moves(st: State, seat: int, now_ms: int) -> list[LegalMove]:
    if st.phase == SETUP and st.active == seat:
        return [move(c.PlaceStart(cell=0), cell=Choice(free_marked(st, seat)))]
    if st.phase == TURN and st.active == seat:
        return turn_legal(st, seat)
    if st.phase == BLACK and st.contour is not None and st.contour.seat == seat:
        return [move(c.PlaceBlack(cell=0), cell=Choice(list(st.contour.inside)))]
    if st.phase == DOMINO and seat in st.domino_wait:
        return [LegalMove(c.TakeDomino(take=True)), LegalMove(c.TakeDomino(take=False))]
    return []
