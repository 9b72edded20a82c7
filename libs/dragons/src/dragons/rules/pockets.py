"""Pockets: the contours a die closes around the cells it shuts off from the board's edge.

After a move, a pocket is a group of side-connected cells that are not the player's own (free
cells and the opponent's pieces) that touches the die's cell by a side or a corner, does not
reach the edge of the board and holds a free cell (the finder looks at pockets of at most
`POCKET_MAX` cells). Any cycle of own dice that encloses a free
cell encloses the whole pocket of that cell (a side-connected group cannot cross a cycle whose
links are sides or corners), so the pockets next to the die are where its contours are.

The cycle offered for a pocket is the ring of own dice right around it (Moore neighbour tracing:
walk around the pocket keeping it on one hand), through the die, each die once (where the ring
passes a die twice, the loop between is cut out). These are examples for clients and bots; the
engine judges every declared cycle by the rule `contour` (`dragons.rules.contour.judge`), whatever
finder proposed it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import cache, cached_property

from dragons.board import FREE, grid, side_neighbours
from dragons.rules.masks import SIZE, WIDTH
from tablehall_boards.grid import Cell

# clockwise, starting north (y grows to the north)
RING_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
WEST = 6
POCKET_MAX = 16  # a bigger group counts as open: the finder's bound (the engine judges any size)


@cache
def _ring(cell: Cell) -> tuple[Cell | None, ...]:
    """The 8 neighbours of `cell` clockwise from the north (None: off the board)."""
    x, y = grid().coord(cell)
    return tuple(grid().cell_at(x + dx, y + dy) for dx, dy in RING_STEPS)


def edge_cells() -> tuple[bool, ...]:
    """Per cell: it has a side off the board (no contour can enclose it)."""
    return _rim()


@cache
def _rim() -> tuple[bool, ...]:
    """Cells with a side off the board: a group holding one reaches the board's edge."""
    return tuple(len(n) < 4 for n in side_neighbours())


@cache
def _block_ring(a: Cell, b: Cell) -> tuple[Cell | None, ...]:
    """The 10 cells around two side neighbours `a`, `b` (a domino), clockwise."""
    g = grid()
    (ax, ay), (bx, by) = g.coord(a), g.coord(b)
    (x0, y0), (x1, y1) = min((ax, ay), (bx, by)), max((ax, ay), (bx, by))
    if y0 == y1:  # side by side: west cell (x0, y), east cell (x1, y)
        steps = [(x0, y0 + 1), (x1, y0 + 1), (x1 + 1, y0 + 1), (x1 + 1, y0), (x1 + 1, y0 - 1)]
        steps += [(x1, y0 - 1), (x0, y0 - 1), (x0 - 1, y0 - 1), (x0 - 1, y0), (x0 - 1, y0 + 1)]
    else:  # one above the other: south (x, y0), north (x, y1)
        steps = [(x0, y1 + 1), (x0 + 1, y1 + 1), (x0 + 1, y1), (x0 + 1, y0), (x0 + 1, y0 - 1)]
        steps += [(x0, y0 - 1), (x0 - 1, y0 - 1), (x0 - 1, y0), (x0 - 1, y1), (x0 - 1, y1 + 1)]
    return tuple(g.cell_at(x, y) for x, y in steps)


def ring_groups(cell: Cell, own: Sequence[bool], ring: Sequence[Cell | None] | None = None) -> list[list[Cell | None]]:
    """The runs of not-own cells around `cell` (or along the given cyclic `ring`; consecutive
    ring cells touch by a side)."""
    ring = ring if ring is not None else _ring(cell)
    n = len(ring)
    outside = [c is None or not own[c] for c in ring]
    if all(outside) or not any(outside):
        return [list(ring)] if all(outside) else []
    start = next(i for i in range(n) if not outside[i])  # begin at an own cell: runs do not wrap
    groups: list[list[Cell | None]] = []
    current: list[Cell | None] = []
    for k in range(1, n + 1):
        i = (start + k) % n
        if outside[i]:
            current.append(ring[i])
        elif current:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


@cache
def _runs(size: int) -> tuple[int, ...]:
    """Per bit pattern of own cells along a cyclic ring of `size` cells, `len(ring_groups)`: the
    runs of not-own cells (a ring with no own cell is one run)."""
    out: list[int] = []
    for pattern in range(1 << size):
        own = [bool(pattern >> i & 1) for i in range(size)]
        if not any(own):
            out.append(1)
            continue
        out.append(sum(1 for i in range(size) if not own[i] and own[i - 1]))  # each run begins after an own cell
    return tuple(out)


def _pattern(ring: Sequence[Cell | None], own: Sequence[bool]) -> int:
    pattern = 0
    for i, c in enumerate(ring):
        if c is not None and own[c]:
            pattern |= 1 << i
    return pattern


def may_enclose(cell: Cell, own: Sequence[bool]) -> bool:
    """A quick test on the board after the move: the die's cell separates two runs of not-own
    cells around it, so it may close a ring around one of them."""
    return _runs(8)[_pattern(_ring(cell), own)] >= 2


def domino_may_enclose(a: Cell, b: Cell, own: Sequence[bool]) -> bool:
    """`may_enclose` for a domino on side neighbours `a`, `b` (both own in `own`): the ring of
    cells around the two separates two runs of not-own cells."""
    return _runs(10)[_pattern(_block_ring(a, b), own)] >= 2


def _offsets(steps: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Steps (x, y) as moves in the position layout (`masks.POSITION`)."""
    return tuple(dy * WIDTH + dx for dx, dy in steps)


# the rings `may_enclose` and `domino_may_enclose` read, from a cell (a tile's lower cell), as
# position moves: clockwise from the north; a tile's ring as `_block_ring` lists it
_DIE_RING = _offsets(RING_STEPS)
_EAST_RING = _offsets(((0, 1), (1, 1), (2, 1), (2, 0), (2, -1), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)))
_NORTH_RING = _offsets(((0, 2), (1, 2), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (-1, 2)))


def _split_rings(own: int, ring: Sequence[int], forced: int = -1) -> int:
    """The positions whose `ring` (position moves, in cyclic order) holds two runs of not-own
    cells or more, all at once: a run begins where an own cell is followed by a not-own one.
    Off the board is not own (the layout's spare position ends each row). `forced`: the ring
    position counted own whatever `own` says."""
    around = [own >> step if step >= 0 else own << -step for step in ring]
    if forced >= 0:
        around[forced] = -1  # every bit set
    one = two = 0
    for i, cells in enumerate(around):
        begins = around[i - 1] & ~cells
        two |= one & begins
        one |= begins
    return two & ~(-1 << SIZE)


class Rings:
    """The ring tests of one board before a move, for every cell and tile at once (position
    bits, `masks.POSITION`; a tile by its lower cell): `die` where `may_enclose(cell, own)`;
    `tile[k]` (k 0: east neighbour, 1: north) where `domino_may_enclose`; `joins[k]` where a
    die on either cell splits its own ring with the other cell own (what `may_close` of either
    needs, `contour.may_contain`); `either[k]` one or the other. The tiles' are found when first
    read (a listing without tiles does not)."""

    def __init__(self, own: int) -> None:
        self.own = own
        self.die = _split_rings(own, _DIE_RING)

    @cached_property
    def tile(self) -> tuple[int, int]:
        return _split_rings(self.own, _EAST_RING), _split_rings(self.own, _NORTH_RING)

    @cached_property
    def joins(self) -> tuple[int, int]:
        own = self.own
        east, west, north, south = (RING_STEPS.index(step) for step in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        return (
            _split_rings(own, _DIE_RING, east) | _split_rings(own, _DIE_RING, west) >> 1,
            _split_rings(own, _DIE_RING, north) | _split_rings(own, _DIE_RING, south) >> WIDTH,
        )

    @cached_property
    def either(self) -> tuple[int, int]:
        tile, joins = self.tile, self.joins
        return tile[0] | joins[0], tile[1] | joins[1]


def pockets(cell: Cell, owner: Sequence[int], own: Sequence[bool]) -> list[list[Cell]]:
    """The pockets next to `cell` on the board after the move (`own[cell]` is True)."""
    rim = _rim()
    sides = side_neighbours()
    seen: set[Cell] = set()
    found: list[list[Cell]] = []
    for group in ring_groups(cell, own):
        for seed in group:
            if seed is None or seed in seen:
                continue
            region, queue, closed = [seed], deque([seed]), True
            seen.add(seed)
            while queue and closed:
                c = queue.popleft()
                if rim[c] or len(region) > POCKET_MAX:
                    closed = False
                    break
                for n in sides[c]:
                    if n not in seen and not own[n]:
                        seen.add(n)
                        region.append(n)
                        queue.append(n)
            if closed and any(owner[c] == FREE for c in region):
                found.append(sorted(region))
    return found


def _trace(region: Sequence[Cell]) -> list[Cell | None]:
    """The cells right around `region` in walking order (Moore neighbour tracing)."""
    g = grid()
    inside = set(region)
    start = min(region, key=lambda c: g.coord(c))  # the westmost: its west neighbour is outside
    p, back = start, WEST
    walk: list[Cell | None] = []
    for _ in range(8 * len(region) + 16):
        ring = _ring(p)
        for k in range(1, 9):
            d = (back + k) % 8
            q = ring[d]
            if q is not None and q in inside:
                # the cell scanned last (outside the pocket, maybe off the board) is the new backtrack
                (px, py), (qx, qy) = g.coord(p), g.coord(q)
                bx, by = RING_STEPS[(d - 1) % 8]
                back = RING_STEPS.index((px + bx - qx, py + by - qy))
                p = q
                break
            walk.append(q)
        else:
            break  # a pocket of one cell: its ring is the walk
        if p == start and back == WEST:
            break
    return walk


def _through(cell: Cell, walk: Sequence[Cell]) -> list[list[Cell]]:
    """The closed walk's cycles from `cell` back to it, each cell once (loops cut out)."""
    if cell not in walk:
        return []
    at = walk.index(cell)
    turned = [*walk[at:], *walk[:at]]
    parts: list[list[Cell]] = []
    for c in turned:
        if c == cell:
            parts.append([])
        parts[-1].append(c)
    cycles: list[list[Cell]] = []
    for part in parts:
        out: list[Cell] = []
        where: dict[Cell, int] = {}
        for c in part:
            if c in where:
                for dropped in out[where[c] + 1 :]:
                    del where[dropped]
                del out[where[c] + 1 :]
            else:
                where[c] = len(out)
                out.append(c)
        cycles.append(out)
    return cycles


def pocket_cycles(cell: Cell, owner: Sequence[int], own: Sequence[bool]) -> list[list[Cell]]:
    """Candidate contours through `cell`: the ring around each pocket next to it."""
    out: list[list[Cell]] = []
    for region in pockets(cell, owner, own):
        walk = [c for c in _trace(region) if c is not None and own[c]]
        walk = [c for i, c in enumerate(walk) if c != walk[i - 1]] if len(walk) > 1 else walk
        out.extend(_through(cell, walk))
    return out
