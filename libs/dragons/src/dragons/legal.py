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

The listing makes the plain descriptors at once, from the board read as byte masks
(`rules.masks`); the corner-only ones (their line combinations) and everything a contour search
finds are `Later` parts, found when a reader reaches them, on copies of the board.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache, cached_property, partial

from dragons import commands as c
from dragons.board import FREE, all_neighbours
from dragons.rules.chess import generator
from dragons.rules.combos import Completions, Window, completes, completions, kept_windows, window_kinds
from dragons.rules.combos import prepare as prepare_windows
from dragons.rules.contour import components, examples, may_close
from dragons.rules.enclosure import Floods
from dragons.rules.masks import (
    HOME,
    POSITION,
    Masks,
    Slots,
    cells_of,
    numbers_of,
    position_bits,
    position_flags,
    slot_cells,
)
from dragons.rules.masks import prepare as prepare_slots
from dragons.rules.placement import KING
from dragons.rules.pockets import Rings, may_enclose
from dragons.rules.setup import free_marked
from dragons.state import BLACK, CHESS_FROM_ROUND, DOMINO, SETUP, TURN, State
from tablehall_boards import Kind, Piece, Verdict
from tablehall_rules import Choice, LegalMove, LegalMoves, Rule
from tablehall_rules.legal import Later, move

CONTOUR = "contour"
PROMOTIONS = [2, 3, 4, 5]


def _no_contour() -> Rule:
    return Rule(CONTOUR, examples=[[]])


class _Contours:
    """Contour examples per cell, found once per listing (they do not depend on the die's number).

    It holds copies of the board (the state may evolve in place before a later part is read) and
    builds its search tables (`components`, the enclosure's floods, the rings, the own cells) on
    the first question."""

    def __init__(self, st: State, seat: int, masks: Masks) -> None:
        self.seat = seat
        self.black_left = st.black_left
        self.masks = masks  # (immutable)
        self.cache: dict[int, list[list[int]]] = {}
        self.pairs: dict[tuple[int, int], list[list[int]]] = {}
        # a working copy of the board that each question changes and puts back
        self.owner, self.face = list(st.owner), list(st.face)

    @cached_property
    def own(self) -> list[bool]:
        """Per cell, own before the move (a working copy, changed and put back like the board)."""
        return self.masks.own_flags()

    @cached_property
    def rings(self) -> Rings:
        """The ring tests for every cell and tile: `contour.may_contain` is `may_enclose` (its
        `may_close` holds only where `may_enclose` does: two clusters of own cells around a
        cell are two runs of the ring, with not-own runs between; tests: every ring pattern)."""
        return Rings(position_bits(self.masks.own))

    @cached_property
    def components(self) -> list[int]:
        return components(self.owner, self.seat)

    @cached_property
    def enclosure(self) -> Floods:
        """`Enclosure`'s answers, a flood fill per cell asked (a listing asks a few)."""
        return Floods(position_bits(self.masks.own), position_bits(self.masks.free))

    def at(self, cell: int, number: int) -> list[list[int]]:
        if self.black_left <= 0:
            return []
        if cell not in self.cache:
            # the ring test first (`may_contain`: see `rings`); the enclosure, a whole-board
            # search, only for the few cells that pass it
            if not self.rings.die >> POSITION[cell] & 1 or not self.enclosure.may_close_die(cell):
                self.cache[cell] = []
                return []
            owner, face = self.owner, self.face
            saved = owner[cell], face[cell]
            owner[cell], face[cell] = self.seat, number
            own = list(self.own)
            own[cell] = True
            try:
                self.cache[cell] = examples(cell, owner, face, self.seat, self.black_left, own_after=own)
            finally:
                owner[cell], face[cell] = saved
        return self.cache[cell]

    def pair(self, cells: list[int]) -> list[list[int]]:
        """Example contours through a half of a domino laid on `cells` (they do not depend on its pips)."""
        if self.black_left <= 0:
            return []
        key = (cells[0], cells[1]) if cells[0] < cells[1] else (cells[1], cells[0])
        found = self.pairs.get(key)
        if found is None:
            found = self.pairs[key] = self._pair(*key)
        return found

    def closing(self, pairs: list[list[int]]) -> list[tuple[list[int], list[list[int]]]]:
        """The pairs of `pairs` (in order) where a tile closes a contour, with `pair`'s examples:
        the rings (`Rings.either`) leave most out before `pair` is asked."""
        if self.black_left <= 0:
            return []
        east, north = self.either
        out = []
        for cells in pairs:
            a, b = cells
            if a > b:
                a, b = b, a
            # (cells run row by row: the east neighbour is the next cell)
            if (east[a] if b == a + 1 else north[a]) and (cycles := self.pair(cells)):
                out.append((cells, cycles))
        return out

    @cached_property
    def either(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """`Rings.either` per cell (the tile by its lower cell)."""
        east, north = self.rings.either
        return position_flags(east), position_flags(north)

    def _pair(self, a: int, b: int) -> list[list[int]]:
        # both tests must pass: the local one (the ring around the tile does not read its
        # cells) before the enclosure, a whole-board search; most tiles fail the rings at once
        # (`may_close` of a cell holds only where its ring splits, see `rings`)
        at, rings = POSITION[a], self.rings
        k = 0 if POSITION[b] == at + 1 else 1
        if not rings.either[k] >> at & 1:
            return []
        own = self.own  # changed for each question and put back (`examples` copies it)
        found: list[list[int]] = []
        try:
            if not rings.tile[k] >> at & 1:  # `domino_may_enclose`
                own[b] = True
                closes = may_close(a, self.components, own)
                own[a], own[b] = True, False
                if not (closes or may_close(b, self.components, own)):
                    return []
            if not self.enclosure.shuts_both(a, b) or not self.enclosure.may_close_pair(a, b, own):
                return []
            own[a] = own[b] = True
            owner, face = self.owner, self.face
            saved = owner[a], owner[b]
            owner[a] = owner[b] = self.seat
            try:
                for half, other in ((a, b), (b, a)):
                    found += [
                        x
                        for x in examples(half, owner, face, self.seat, self.black_left, moved={other}, own_after=own)
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

    def __init__(self, st: State, seat: int, masks: Masks) -> None:
        self.face = list(st.face)  # a copy: the corner parts may be read after the state evolved
        self.seat = seat
        self.masks = masks
        free, side = masks.free, masks.side
        self.side_free = cells_of(free & side)
        self.six_free = cells_of(free & (side | HOME[seat]))
        self.own_mask = masks.own_cells_mask()
        self._windows: dict[tuple[int, ...], tuple[Window, ...]] = {}

    def plain(self, number: int) -> list[int]:
        """Cells rules 1 and 4 allow (`placement.die_targets`' first list)."""
        return self.six_free if number == KING else self.side_free

    def corner_only(self, number: int) -> int:
        """The mask of free cells touching an own cell by a corner only (not the own half for a six)."""
        m = self.masks
        return m.free & m.corner & ~m.side & ~(HOME[self.seat] if number == KING else 0)

    @cached_property
    def completions(self) -> Completions:
        return completions(numbers_of(self.masks.own, self.face))

    @cached_property
    def flags(self) -> tuple[tuple[int, ...], ...]:
        """`completions` per cell (a tile by its lower cell)."""
        return tuple(position_flags(m) for m in self.completions)

    def windows(self, cells: tuple[int, ...]) -> tuple[Window, ...]:
        """`kept_windows` of sorted `cells` on this board, asked once per listing (every number,
        tile and orientation placed there shares them); none where no window may score."""
        if not completes(self.completions, cells):
            return ()
        found = self._windows.get(cells)
        if found is None:
            found = self._windows[cells] = kept_windows(self.own_mask, cells)
        return found

    def kinds(self, cell: int, number: int) -> str:
        """The combination kinds placing `number` on `cell` would form ('' for none)."""
        found = self.windows((cell,))
        return window_kinds(found, self.face, {cell: number}) if found else ""

    def pair_kinds(self, a: int, b: int, first: int, second: int) -> str:
        """The kinds placing `first` on `a` and `second` on `b` would form, without building the
        question when no window is full."""
        found = self.windows((a, b) if a < b else (b, a))
        return window_kinds(found, self.face, {a: first, b: second}) if found else ""


class _DieCorners:
    """A die's corner-only cells (`mask`), found when first read: by the line combinations the
    die forms there (in cell order of their first cell), and those only a contour may allow."""

    def __init__(self, number: int, board: _Board) -> None:
        self.number = number
        self.board = board
        self.mask = board.corner_only(number)

    @cached_property
    def split(self) -> tuple[dict[str, list[int]], list[int]]:
        corner: dict[str, list[int]] = {}
        only_contour: list[int] = []
        number, board = self.number, self.board
        one = board.flags[0]
        for cell in cells_of(self.mask):
            # (`kinds` is '' where no window may score: most cells, answered here)
            names = board.kinds(cell, number) if one[cell] else ""
            if names:
                corner.setdefault(names, []).append(cell)
            else:
                only_contour.append(cell)
        return corner, only_contour


def _die_moves(number: int, contours: _Contours, board: _Board) -> Iterator[LegalMove | Later]:
    plain_cells = board.plain(number)
    template = c.PlaceDie(face=number, cell=0)
    if plain_cells:
        yield move(template, cell=Choice(list(plain_cells)), contour=_no_contour())
    corners = _DieCorners(number, board)
    if corners.mask:
        yield partial(_die_corners, template, corners)
    if contours.black_left > 0:
        yield partial(_die_contours, number, contours, plain_cells, corners)


def _die_corners(template: c.PlaceDie, corners: _DieCorners) -> list[LegalMove]:
    """The die's corner-only placements allowed by the line combinations it forms, by kinds."""
    return [
        move(template, cell=Rule(f"corner:{names}", examples=cells), contour=_no_contour())
        for names, cells in corners.split[0].items()
    ]


def _die_contours(
    number: int, contours: _Contours, plain_cells: list[int], corners: _DieCorners
) -> Iterator[LegalMove]:
    """The die's placements that exist through a contour: corner cells only a contour allows,
    then each cell with its example cycles."""
    corner, only_contour = corners.split
    template = c.PlaceDie(face=number, cell=0)
    if only_contour:
        found = [cell for cell in only_contour if contours.at(cell, number)]
        yield move(template, cell=Rule("corner:contour", examples=found), contour=Rule(CONTOUR))
    for cell in sorted({*plain_cells, *(x for cells in corner.values() for x in cells), *only_contour}):
        cycles = contours.at(cell, number)
        if cycles:
            yield move(c.PlaceDie(face=number, cell=cell), contour=Rule(CONTOUR, examples=cycles))


def _move_contours(seat: int, contours: _Contours, origin: int, target: int, number: int) -> list[list[int]]:
    """Example contours a chess move closes at its target (the board after the move)."""
    if contours.black_left <= 0:
        return []
    # the ring test before the enclosure (a whole-board search): both must pass; the ring
    # read before the move is the same unless the die leaves it
    if origin in all_neighbours()[target]:
        own = list(contours.own)
        own[origin] = False
        split = may_enclose(target, own)
    else:
        split = bool(contours.rings.die >> POSITION[target] & 1)
    if not split or not contours.enclosure.may_close_move(origin, target):
        return []
    own = list(contours.own)
    own[origin] = False
    owner, face = list(contours.owner), list(contours.face)
    owner[origin], face[origin] = FREE, 0
    owner[target], face[target] = seat, number
    own[target] = True
    return examples(target, owner, face, seat, contours.black_left, own_after=own)


def _chess_contours(
    seat: int, faces: list[int], contours: _Contours, origin: int, piece: int, blocking: _Blocking
) -> Iterator[LegalMove]:
    """The moves of the die on `origin` (number `piece`) that close a contour, with example cycles."""
    for m in generator().piece_moves(origin, _piece(piece, seat), blocking):
        number = int(m.promotion) if m.promotion else piece
        cycles = _move_contours(seat, contours, origin, m.target, number)
        if cycles:
            yield move(
                c.ChessMove(face=0, origin=origin, target=m.target, promotion=int(m.promotion or 0)),
                face=Choice(faces),
                contour=Rule(CONTOUR, examples=cycles),
            )


class _Blocking:
    """`chess.DiceBlocking`'s verdicts, from the listing's masks (immutable)."""

    __slots__ = ("verdict",)

    def __init__(self, verdict: bytes) -> None:
        self.verdict = verdict

    def verdicts(self, piece: Piece) -> Sequence[Verdict]:
        return self.verdict  # type: ignore[return-value]  # the verdicts' values (IntEnum)


@cache
def _piece(number: int, seat: int) -> Piece:
    return Piece(Kind(number), seat)


def _chess_moves(
    st: State, seat: int, faces: list[int], contours: _Contours, masks: Masks
) -> Iterator[LegalMove | Later]:
    blocking = _Blocking(masks.verdicts(st.owner))  # one table for every origin
    pieces = generator()
    face = st.face
    for origin in masks.movable():
        piece = face[origin]
        quiet, promoting = pieces.piece_targets(origin, _piece(piece, seat), blocking.verdict)
        if contours.black_left > 0:
            yield partial(_chess_contours, seat, faces, contours, origin, piece, blocking)
        if quiet:
            yield move(
                c.ChessMove(face=0, origin=origin, target=0),
                face=Choice(faces),
                target=Choice(sorted(quiet)),
                contour=_no_contour(),
            )
        for target in sorted(promoting):
            yield move(
                c.ChessMove(face=0, origin=origin, target=target, promotion=2),
                face=Choice(faces),
                promotion=Choice(PROMOTIONS),
                contour=_no_contour(),
            )


class _Spots:
    """Where the tiles of one listing may go, per kind of tile (a six at either end, a double),
    from the listing's masks (`Masks.domino_slots`): the pairs in `dominoes.placements`' order,
    each orientation in turn (a double once, first < second)."""

    def __init__(self, masks: Masks) -> None:
        self.masks = masks  # (immutable)
        self._kinds: dict[tuple[bool, bool, bool], tuple[list[list[int]], Slots, Slots]] = {}
        self._corners: dict[tuple[bool, bool, bool], list[list[int]]] = {}
        self._every: dict[tuple[bool, bool, bool], list[list[int]]] = {}

    @staticmethod
    def _key(low: int, high: int) -> tuple[bool, bool, bool]:
        return (low == KING, high == KING, low == high)

    def _kind(self, low: int, high: int) -> tuple[list[list[int]], Slots, Slots]:
        kind = self._key(low, high)
        found = self._kinds.get(kind)
        if found is None:
            plain, corner, every = self.masks.domino_slots(*kind)
            found = self._kinds[kind] = (slot_cells(plain), corner, every)
        return found

    def plain(self, low: int, high: int) -> list[list[int]]:
        """The cells [first, second] a tile may cover by rules 1/4 (tiles of one kind share them)."""
        return self._kind(low, high)[0]

    def any_corner(self, low: int, high: int) -> bool:
        """Whether some pair touches an own cell by a corner only for this tile."""
        return any(self._kind(low, high)[1])

    def corner(self, low: int, high: int) -> list[list[int]]:
        """The cells [first, second] touching by a corner only (tiles of one kind share them)."""
        kind = self._key(low, high)
        found = self._corners.get(kind)
        if found is None:
            found = self._corners[kind] = slot_cells(self._kind(low, high)[1])
        return found

    def every(self, low: int, high: int) -> list[list[int]]:
        """Both, in the pairs' order (tiles of one kind share them)."""
        kind = self._key(low, high)
        found = self._every.get(kind)
        if found is None:
            found = self._every[kind] = slot_cells(self._kind(low, high)[2])
        return found


class _TileCorners:
    """A tile's corner-only placements (`candidates`), found when first read: by the line
    combinations they form, and those only a contour may allow."""

    def __init__(self, low: int, high: int, board: _Board, spots: _Spots) -> None:
        self.low, self.high = low, high
        self.board = board
        self.spots = spots

    @cached_property
    def split(self) -> tuple[dict[str, list[list[int]]], list[list[int]]]:
        corner: dict[str, list[list[int]]] = {}
        contour_only: list[list[int]] = []
        low, high, board = self.low, self.high, self.board
        one, east, north = board.flags
        for cells in self.spots.corner(low, high):
            a, b = cells
            if a > b:
                a, b = b, a
            # (`pair_kinds` is '' where no window may score: most pairs, answered here; cells
            # run row by row: the east neighbour is the next cell)
            if one[a] or one[b] or (east[a] if b == a + 1 else north[a]):
                names = board.pair_kinds(cells[0], cells[1], low, high)
            else:
                names = ""
            if names:
                corner.setdefault(names, []).append(cells)
            else:
                contour_only.append(cells)
        return corner, contour_only


def _domino_moves(st: State, faces: list[int], board: _Board, contours: _Contours) -> Iterator[LegalMove | Later]:
    hand = sorted(set(st.player(contours.seat).hand))
    if not hand:
        return
    spots = _Spots(board.masks)
    for t in hand:
        low, high = t.low, t.high
        plain = spots.plain(low, high)
        template = c.PlaceDomino(face=0, first=low, second=high, cells=[])
        if plain:
            yield move(template, face=Choice(faces), cells=Choice(list(plain)), contour=_no_contour())
        corners = _TileCorners(low, high, board, spots)
        if spots.any_corner(low, high):
            yield partial(_domino_corners, template, faces, corners)
        if contours.black_left > 0:
            yield partial(_domino_contours, low, high, faces, contours, spots, corners)


def _domino_corners(template: c.PlaceDomino, faces: list[int], corners: _TileCorners) -> list[LegalMove]:
    """The tile's corner-only placements allowed by the line combinations they form, by kinds."""
    return [
        move(template, face=Choice(faces), cells=Rule(f"corner:{names}", examples=found), contour=_no_contour())
        for names, found in sorted(corners.split[0].items())
    ]


def _domino_contours(
    low: int, high: int, faces: list[int], contours: _Contours, spots: _Spots, corners: _TileCorners
) -> Iterator[LegalMove]:
    """The tile's placements that exist through a contour: the corner pairs only a contour
    allows, then each placement that closes one with its example cycles (the others first, in
    the pairs' order)."""
    contour_only = corners.split[1]
    only = {id(cells) for cells in contour_only}
    allowed = [cells for cells in spots.every(low, high) if id(cells) not in only]
    closing = contours.closing(allowed)
    if contour_only:
        shut = contours.closing(contour_only)
        yield move(
            c.PlaceDomino(face=0, first=low, second=high, cells=[]),
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


def turn_moves(st: State, seat: int) -> LegalMoves:
    """The turn's uses of the rolled dice: every descriptor the board allows directly is made
    now; those that exist only through a contour are found when a reader reaches them."""
    faces = sorted(set(st.rolled[seat]))
    masks = Masks(st.owner, st.domino, seat)
    contours = _Contours(st, seat, masks)
    board = _Board(st, seat, masks)
    parts: list[LegalMove | Later] = []
    for number in faces:
        parts.extend(_die_moves(number, contours, board))
    if st.round >= CHESS_FROM_ROUND:
        parts.extend(_chess_moves(st, seat, faces, contours, masks))
        parts.extend(_domino_moves(st, faces, board, contours))
    return LegalMoves(parts)


def turn_legal(st: State, seat: int) -> Sequence[LegalMove]:
    """The turn's descriptors; `DiscardDie` is added when no other use spells out a command."""
    out = turn_moves(st, seat)
    if any(lm.size() for lm in out):
        return out
    return [*out, *(LegalMove(c.DiscardDie(face=number)) for number in sorted(set(st.rolled[seat])))]


def has_use(st: State, seat: int) -> bool:
    """Whether some rolled die of the seat can be placed or given up for a move (else it is discarded)."""
    return any(lm.size() for lm in turn_moves(st, seat))


def legal_moves(st: State, seat: int, now_ms: int) -> Sequence[LegalMove]:
    if st.phase == SETUP and st.active == seat:
        return [move(c.PlaceStart(cell=0), cell=Choice(free_marked(st, seat)))]
    if st.phase == TURN and st.active == seat:
        return turn_legal(st, seat)
    if st.phase == BLACK and st.contour is not None and st.contour.seat == seat:
        return [move(c.PlaceBlack(cell=0), cell=Choice(list(st.contour.inside)))]
    if st.phase == DOMINO and seat in st.domino_wait:
        return [LegalMove(c.TakeDomino(take=True)), LegalMove(c.TakeDomino(take=False))]
    return []


def _prepare() -> None:
    """Build the fixed tables a listing reads (line windows, move generation, domino slots)
    when the module loads, not in the first listing (tens of milliseconds)."""
    prepare_windows()
    generator()
    prepare_slots()


_prepare()
