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
from functools import cache

from dragons import commands as c
from dragons.board import FREE, SIDES, Contact, grid, half_of
from dragons.rules.chess import DiceBlocking, generator, movable
from dragons.rules.combos import Window, own_mask, own_windows, window_kinds
from dragons.rules.contour import components, examples, may_close, may_contain
from dragons.rules.enclosure import Enclosure
from dragons.rules.placement import KING, near_domino
from dragons.rules.pockets import domino_may_enclose
from dragons.rules.setup import free_marked
from dragons.state import BLACK, CHESS_FROM_ROUND, DOMINO, SETUP, TURN, State
from tablehall_boards import Kind, Piece
from tablehall_rules import Choice, LegalMove, Rule
from tablehall_rules.legal import move

CONTOUR = "contour"
PROMOTIONS = [2, 3, 4, 5]


def _no_contour() -> Rule:
    return Rule(CONTOUR, examples=[[]])


class _Contours:
    """Contour examples per cell, found once per call (they do not depend on the die's number)."""

    def __init__(self, st: State, seat: int, contact: Contact) -> None:
        self.st = st
        self.seat = seat
        self.own = contact.own
        self.components = components(st.owner, seat) if st.black_left > 0 else []
        self.enclosure = Enclosure(st.owner, seat) if st.black_left > 0 else None
        self.cache: dict[int, list[list[int]]] = {}
        self.pairs: dict[tuple[int, int], list[list[int]]] = {}
        # a working copy of the board that each question changes and puts back
        self.owner, self.face = list(st.owner), list(st.face)

    def at(self, cell: int, number: int) -> list[list[int]]:
        if self.st.black_left <= 0:
            return []
        if cell not in self.cache:
            assert self.enclosure is not None
            if not self.enclosure.may_close_die(cell) or not may_contain(cell, self.components, self.own):
                self.cache[cell] = []
                return []
            owner, face = self.owner, self.face
            saved = owner[cell], face[cell]
            owner[cell], face[cell] = self.seat, number
            own = list(self.own)
            own[cell] = True
            try:
                self.cache[cell] = examples(cell, owner, face, self.seat, self.st.black_left, own_after=own)
            finally:
                owner[cell], face[cell] = saved
        return self.cache[cell]

    def pair(self, cells: list[int]) -> list[list[int]]:
        """Example contours through a half of a domino laid on `cells` (they do not depend on its pips)."""
        if self.st.black_left <= 0:
            return []
        key = (cells[0], cells[1]) if cells[0] < cells[1] else (cells[1], cells[0])
        found = self.pairs.get(key)
        if found is None:
            found = self.pairs[key] = self._pair(*key)
        return found

    def _pair(self, a: int, b: int) -> list[list[int]]:
        if self.enclosure is not None and not self.enclosure.may_close_pair(a, b, self.own):
            return []
        own = self.own  # changed for each question and put back (`examples` copies it)
        found: list[list[int]] = []
        try:
            own[b] = True
            closes = may_close(a, self.components, own)
            own[a], own[b] = True, False
            closes = closes or may_close(b, self.components, own)
            own[b] = True
            if not (closes or domino_may_enclose(a, b, own)):
                return []
            owner, face = self.owner, self.face
            saved = owner[a], owner[b]
            owner[a] = owner[b] = self.seat
            try:
                for half, other in ((a, b), (b, a)):
                    found += [
                        x
                        for x in examples(
                            half, owner, face, self.seat, self.st.black_left, moved={other}, own_after=own
                        )
                        if x not in found
                    ]
            finally:
                owner[a], owner[b] = saved
        finally:
            own[a] = own[b] = False
        return found[:3]


class _Board:
    """What the placements of one listing share, read once from the state: the free cells, their
    contacts and halves, and the line windows a placement on given cells depends on."""

    def __init__(self, st: State, seat: int, contact: Contact) -> None:
        self.st = st
        self.seat = seat
        self.contact = contact
        home = _homes()[seat]
        self.home = home
        self.free = [cell for cell, o in enumerate(st.owner) if o == FREE]
        self.side_free = [cell for cell in self.free if contact.side[cell]]
        self.six_free = [cell for cell in self.free if contact.side[cell] or home[cell]]
        self.own_mask = own_mask(st.owner, seat)
        self._windows: dict[tuple[int, ...], list[Window]] = {}

    def plain(self, number: int) -> list[int]:
        """Cells rules 1 and 4 allow (`placement.die_targets`' first list)."""
        return self.six_free if number == KING else self.side_free

    def corner_only(self, number: int) -> list[int]:
        side, corner, home = self.contact.side, self.contact.corner, self.home
        six = number == KING
        return [cell for cell in self.free if not side[cell] and corner[cell] and not (six and home[cell])]

    def kinds(self, numbers: dict[int, int]) -> str:
        """The combination kinds placing `numbers` ({cell: number}) would form ('' for none)."""
        key = tuple(sorted(numbers))
        found = self._windows.get(key)
        if found is None:
            found = self._windows[key] = own_windows(self.own_mask, list(numbers))
        return window_kinds(found, self.st.face, numbers) if found else ""


@cache
def _adjacent_pairs() -> tuple[tuple[int, int], ...]:
    """The side-neighbour pairs a domino may cover, in `dominoes.placements`' order."""
    return grid().adjacent_pairs()


@cache
def _homes() -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Per side, per cell: on that side's own half (rule 4)."""
    return tuple(tuple(half_of(cell) == side for cell in range(len(grid()))) for side in SIDES)  # type: ignore[return-value]


def _die_moves(st: State, seat: int, number: int, contours: _Contours, board: _Board) -> Iterator[LegalMove]:
    plain_cells = board.plain(number)
    corner: dict[str, list[int]] = {}
    only_contour: list[int] = []
    for cell in board.corner_only(number):
        names = board.kinds({cell: number})
        if names:
            corner.setdefault(names, []).append(cell)
        else:
            only_contour.append(cell)
    template = c.PlaceDie(face=number, cell=0)
    if plain_cells:
        yield move(template, cell=Choice(list(plain_cells)), contour=_no_contour())
    for names, cells in corner.items():
        yield move(template, cell=Rule(f"corner:{names}", examples=cells), contour=_no_contour())
    if st.black_left > 0:
        if only_contour:
            found = [cell for cell in only_contour if contours.at(cell, number)]
            yield move(template, cell=Rule("corner:contour", examples=found), contour=Rule(CONTOUR))
        for cell in sorted({*plain_cells, *(x for cells in corner.values() for x in cells), *only_contour}):
            cycles = contours.at(cell, number)
            if cycles:
                yield move(c.PlaceDie(face=number, cell=cell), contour=Rule(CONTOUR, examples=cycles))


def _move_contours(st: State, seat: int, contours: _Contours, origin: int, target: int, number: int) -> list[list[int]]:
    """Example contours a chess move closes at its target (the board after the move)."""
    if st.black_left <= 0 or contours.enclosure is None or not contours.enclosure.may_close_move(origin, target):
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
    blocking = DiceBlocking(st.owner, st.domino, seat)  # one table for every origin
    pieces = generator()
    for origin in movable(st.owner, st.domino, seat):
        found = pieces.piece_moves(origin, Piece(Kind(st.face[origin]), seat), blocking)
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


def _domino_moves(st: State, seat: int, faces: list[int], board: _Board, contours: _Contours) -> Iterator[LegalMove]:
    hand = sorted(set(st.player(seat).hand))
    if not hand:
        return
    owner = st.owner
    near = near_domino(st.domino)
    side, corner_contact, home = board.contact.side, board.contact.corner, board.home
    # (cells, a half touches by a side, a half touches by a corner, first / second on the own half);
    # a pair touching nothing is allowed only to a six on the own half (rule 4)
    fits = [o == FREE and not n for o, n in zip(owner, near, strict=True)]
    touch = [s or c for s, c in zip(side, corner_contact, strict=True)]
    sixes = any(t.low == KING or t.high == KING for t in hand)
    pairs: list[tuple[list[int], bool, bool, bool, bool]] = []  # every pair, for a six (rule 4)
    touching: list[tuple[list[int], bool, bool, bool, bool]] = []
    for a, b in _adjacent_pairs():
        if not (fits[a] and fits[b]) or not (sixes or touch[a] or touch[b]):
            continue
        by_side, by_corner = side[a] or side[b], corner_contact[a] or corner_contact[b]
        both = (([a, b], by_side, by_corner, home[a], home[b]), ([b, a], by_side, by_corner, home[b], home[a]))
        if sixes:
            pairs += both
        if by_side or by_corner:
            touching += both
    for t in hand:
        low, high = t.low, t.high
        six = low == KING or high == KING
        plain: list[list[int]] = []
        corner: dict[str, list[list[int]]] = {}
        contour_only: list[list[int]] = []
        closing: list[tuple[list[int], list[list[int]]]] = []
        for cells, by_side, by_corner, home_a, home_b in pairs if six else touching:
            a, b = cells
            if t.is_double and a > b:
                continue
            if by_side or (low == KING and home_a) or (high == KING and home_b):
                plain.append(cells)
            elif by_corner:
                names = board.kinds({a: low, b: high})
                if names:
                    corner.setdefault(names, []).append(cells)
                else:
                    contour_only.append(cells)
                    continue
            else:
                continue
            cycles = contours.pair(cells)
            if cycles:
                closing.append((cells, cycles))
        template = c.PlaceDomino(face=0, first=low, second=high, cells=[])
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
                c.PlaceDomino(face=0, first=low, second=high, cells=cells),
                face=Choice(faces),
                contour=Rule(CONTOUR, examples=cycles),
            )


def turn_moves(st: State, seat: int) -> list[LegalMove]:
    faces = sorted(set(st.rolled[seat]))
    contact = Contact(st.owner, seat)
    contours = _Contours(st, seat, contact)
    board = _Board(st, seat, contact)
    out: list[LegalMove] = []
    for number in faces:
        out.extend(_die_moves(st, seat, number, contours, board))
    if st.round >= CHESS_FROM_ROUND:
        out.extend(_chess_moves(st, seat, faces, contours))
        out.extend(_domino_moves(st, seat, faces, board, contours))
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
