"""Which cells a die could shut off from the board's edge: one look at the board per listing.

A contour encloses at least one free cell, and a side-connected group of cells that are not the
player's own cannot cross a contour (`dragons.rules.pockets`), nor can a cell with a side off the board
be inside one. So after a move, some group of not-own cells that reaches no edge cell and holds a
free cell must exist, or no contour can be declared.

`Enclosure` reads the board before the move once: the side-connected groups of not-own cells
and, by a depth-first search (Tarjan's cut vertices), what taking one cell out of its group
leaves. It answers, for a die placed on a free cell or moved to a target, whether such a group
can exist after the move; when it says no, no contour through the move exists and the example
search is skipped. When a group already enclosed before the move holds a free cell, it cannot
tell (a contour through the move may go round that group) and says yes to everything.

`Floods` gives the same answers without the search: one flood fill of the board's position bits
from the edge per cell asked, cheaper when a listing asks about a few cells (the listing's).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dragons.board import FREE, side_neighbours, supports
from dragons.rules.masks import POSITION, WIDTH
from dragons.rules.pockets import domino_may_enclose, edge_cells


class Enclosure:
    """The not-own groups of one board for one side, with their cut vertices."""

    __slots__ = (
        "_cut",
        "_shuts",
        "comp",
        "comp_free",
        "comp_rim",
        "disc",
        "end",
        "free",
        "heads",
        "loose",
        "low",
        "open_ended",
        "rim",
        "sub",
    )

    def __init__(self, owner: Sequence[int], side: int) -> None:
        sides = side_neighbours()
        edge = edge_cells()
        size = len(owner)
        loose = [not supports(o, side) for o in owner]  # not own: free cells and the opponent's
        self.loose = loose
        self.rim = rim = [int(edge[c]) for c in range(size)]
        self.free = free = [int(o == FREE) for o in owner]
        # the search works on local names (it is the listing's costliest loop)
        self.comp = comp = [-1] * size
        self.disc = disc = [-1] * size
        self.low = low = [0] * size
        self.end = end = [0] * size  # one past the last discovery number of the cell's subtree
        heads: list[list[int]] = [[] for _ in range(size)]  # children whose subtree the cell cuts off
        self.heads = heads
        sub_rim = list(rim)
        sub_free = list(free)
        comp_rim: list[int] = []
        comp_free: list[int] = []
        self.comp_rim, self.comp_free = comp_rim, comp_free
        counter = 0
        parent = [-1] * size
        for root in range(size):
            if not loose[root] or comp[root] >= 0:
                continue
            label = len(comp_rim)
            comp[root] = label
            disc[root] = low[root] = counter
            counter += 1
            cells = [root]
            steps = [0]  # per cell on the path: how many of its side neighbours were looked at
            while cells:
                cell = cells[-1]
                around = sides[cell]
                i = steps[-1]
                while i < len(around):
                    n = around[i]
                    i += 1
                    if loose[n]:
                        if disc[n] < 0:
                            break
                        if n != parent[cell] and disc[n] < low[cell]:
                            low[cell] = disc[n]
                else:
                    n = -1
                steps[-1] = i
                if n >= 0:  # go down to n
                    comp[n] = label
                    disc[n] = low[n] = counter
                    counter += 1
                    parent[n] = cell
                    cells.append(n)
                    steps.append(0)
                    continue
                cells.pop()
                steps.pop()
                end[cell] = counter
                up = parent[cell]
                if cell != root:
                    if low[cell] < low[up]:
                        low[up] = low[cell]
                    sub_rim[up] += sub_rim[cell]
                    sub_free[up] += sub_free[cell]
                    if low[cell] >= disc[up] or up == root:
                        heads[up].append(cell)
            comp_rim.append(sub_rim[root])
            comp_free.append(sub_free[root])
        self.sub = (sub_rim, sub_free)
        self._cut: dict[int, list[tuple[int, int, int, int]]] = {}
        self._shuts: dict[int, bool] = {}
        # a group that reaches no edge cell already holds a free cell: a contour may go round it
        self.open_ended = any(r == 0 and f > 0 for r, f in zip(comp_rim, comp_free, strict=True))

    def _pieces(self, cell: int) -> list[tuple[int, int, int, int]]:
        found = self._cut.get(cell)
        if found is None:
            found = self._cut[cell] = self._cut_off(cell)
        return found

    def _cut_off(self, cell: int) -> list[tuple[int, int, int, int]]:
        """The groups left when `cell` (not own) is taken out of its group: (first, end discovery
        number or -1 for the rest, edge cells, free cells)."""
        sub_rim, sub_free = self.sub
        label = self.comp[cell]
        out = []
        cut_rim = cut_free = 0
        for child in self.heads[cell]:
            out.append((self.disc[child], self.end[child], sub_rim[child], sub_free[child]))
            cut_rim += sub_rim[child]
            cut_free += sub_free[child]
        rest_rim = self.comp_rim[label] - cut_rim - self.rim[cell]
        rest_free = self.comp_free[label] - cut_free - self.free[cell]
        out.append((-1, -1, rest_rim, rest_free))  # the rest, with the group's first cell (maybe empty)
        return out

    def shuts(self, cell: int) -> bool:
        """Whether a die on `cell` (not own before) leaves a group of its own group that reaches no
        edge and holds a free cell."""
        found = self._shuts.get(cell)
        if found is None:
            found = self._shuts[cell] = any(r == 0 and f > 0 for _, _, r, f in self._pieces(cell))
        return found

    def reaches_edge(self, cell: int, other: int) -> bool:
        """Whether the not-own cell `other` still reaches an edge cell once `cell` is own."""
        if self.comp[other] != self.comp[cell]:
            return self.comp_rim[self.comp[other]] > 0
        at = self.disc[other]
        for first, end, r, _ in self._pieces(cell):
            if first <= at < end:
                return r > 0
        return self._pieces(cell)[-1][2] > 0

    def may_close_pair(self, a: int, b: int, own: Sequence[bool]) -> bool:
        """A contour may exist after a domino goes on the free side neighbours `a`, `b` (`own`:
        before the move). A group cut off by the two together but by neither alone touches both:
        it and the rest of the old group (or the board's edge) lie in separate runs of the ring
        of cells around the domino (`pockets.domino_may_enclose`)."""
        return self.open_ended or self.shuts(a) or self.shuts(b) or domino_may_enclose(a, b, own)

    def may_close_die(self, cell: int) -> bool:
        """A contour may exist after an own die goes on the free `cell`."""
        return self.open_ended or self.shuts(cell)

    def may_close_move(self, origin: int, target: int) -> bool:
        """A contour may exist after an own die moves from `origin` to `target` (not own before).
        The group holding the vacated `origin` is enclosed only
        if `origin` is no edge cell and each of its not-own side neighbours is cut off."""
        if self.open_ended or self.shuts(target):
            return True
        if self.rim[origin]:
            return False
        return not any(self.reaches_edge(target, n) for n in side_neighbours()[origin] if self.loose[n] and n != target)


@cache
def _positions() -> tuple[int, int]:
    """The position bits (`masks.POSITION`) of every cell, and of the edge cells."""
    rim = edge_cells()
    cells = edge = 0
    for cell, at in enumerate(POSITION):
        cells |= 1 << at
        if rim[cell]:
            edge |= 1 << at
    return cells, edge


class Floods:
    """`Enclosure`'s answers by flood fills of position bits (`masks.POSITION`), one per cell
    asked, instead of one search of the whole board first: a die on a free cell shuts a free
    cell off from the edge when the not-own cells reached from the edge cells without it miss
    one (the board before holding none shut off: `open_ended` is false)."""

    __slots__ = ("_reached", "free", "loose", "open_ended")

    def __init__(self, own: int, free: int) -> None:
        """`own`, `free`: the position bits of the own cells and of the free cells."""
        cells, _ = _positions()
        self.loose = cells & ~own
        self.free = free
        self._reached: dict[int, int] = {}
        self.open_ended = bool(free & ~self._flood(self.loose))

    @staticmethod
    def _flood(loose: int) -> int:
        """The cells of `loose` side-connected to an edge cell of it (a spare position ends each
        row: no step wraps onto a cell)."""
        reached = loose & _positions()[1]
        while True:
            grown = (reached | reached << 1 | reached >> 1 | reached << WIDTH | reached >> WIDTH) & loose
            if grown == reached:
                return reached
            reached = grown

    def _without(self, cell: int) -> int:
        """`_flood` once `cell` is own."""
        found = self._reached.get(cell)
        if found is None:
            found = self._reached[cell] = self._flood(self.loose & ~(1 << POSITION[cell]))
        return found

    def shuts(self, cell: int) -> bool:
        """`Enclosure.shuts` where the board before shuts no free cell off (`open_ended` false)."""
        return bool(self.free & ~(1 << POSITION[cell]) & ~self._without(cell))

    def shuts_both(self, a: int, b: int) -> bool:
        """Whether some free cell is off the edge's reach once `a` and `b` are own (a tile):
        what a contour through the tile needs (it encloses a free cell, whose not-own group
        cannot cross it, and no edge cell is inside a contour: the disk's rows and columns are
        unbroken). Stricter than `may_close_pair` for most tiles that split their ring."""
        bits = 1 << POSITION[a] | 1 << POSITION[b]
        return bool(self.free & ~bits & ~self._flood(self.loose & ~bits))

    def may_close_pair(self, a: int, b: int, own: Sequence[bool]) -> bool:
        """`Enclosure.may_close_pair`."""
        return self.open_ended or self.shuts(a) or self.shuts(b) or domino_may_enclose(a, b, own)

    def may_close_die(self, cell: int) -> bool:
        """`Enclosure.may_close_die`."""
        return self.open_ended or self.shuts(cell)

    def may_close_move(self, origin: int, target: int) -> bool:
        """`Enclosure.may_close_move`: with the target own, none of the not-own side neighbours
        of `origin` reaches the edge."""
        if self.open_ended or self.shuts(target):
            return True
        if edge_cells()[origin]:
            return False
        reached, loose = self._without(target), self.loose
        return not any(
            reached >> POSITION[n] & 1 for n in side_neighbours()[origin] if loose >> POSITION[n] & 1 and n != target
        )
