"""Contours (Контур): the engine rule `contour` that judges a declared cycle, and a finder of examples.

A declared contour is a list of cells in cycle order. The engine accepts it when:

- it has at least 4 cells, each on the board and listed once (a cell is in a contour once);
- every cell holds an own die of the declaring side after the move: its dice, its domino halves
  or a black die;
- consecutive cells (and the last with the first) touch by a side or a corner;
- no two of its links cross (two diagonal links of one 2×2 square: a figure-eight, «восьмёрка»),
  and the cells it encloses form one region connected by sides (a pinched loop whose inside falls
  into two rooms, touching at a corner or parted by the contour, is a figure-eight too: ruling
  «Figure-eight»);
- it contains a die the move placed or moved;
- the cells it encloses (the cell centres strictly inside the polygon through its cells'
  centres) include at least one free cell and no black die;
- a black die is left to roll (18 in all; when they are gone contours score nothing).

It scores the sum of its cells' numbers (a blank 0, a black die its number).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence
from functools import cache

from dragons.board import BLACK, CELLS, FREE, all_neighbours, grid, side_neighbours, supports
from dragons.rules.pockets import may_enclose, pocket_cycles
from tablehall_boards.grid import KING_STEPS
from tablehall_rules import IllegalCommand, illegal

MIN_CELLS = 4


class Judged:
    """A contour the engine accepted: its cells, points and the free cells inside."""

    __slots__ = ("cells", "inside_free", "points")

    def __init__(self, cells: list[int], points: int, inside_free: list[int]) -> None:
        self.cells = cells
        self.points = points
        self.inside_free = inside_free


def enclosed(cells: Sequence[int]) -> list[int]:
    """The board cells strictly inside the polygon through the centres of `cells` (even-odd rule)."""
    g = grid()
    points = [g.coord(c) for c in cells]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    on = set(cells)
    edges = list(zip(points, points[1:] + points[:1], strict=True))
    out: list[int] = []
    for y in range(min(ys) + 1, max(ys)):
        crossings = [x1 + (y - y1) * (x2 - x1) / (y2 - y1) for (x1, y1), (x2, y2) in edges if (y1 > y) != (y2 > y)]
        for x in range(min(xs) + 1, max(xs)):
            cell = g.cell_at(x, y)
            if cell is None or cell in on:
                continue
            if sum(1 for cx in crossings if cx > x) % 2 == 1:
                out.append(cell)
    return sorted(out)


def _crosses(cells: Sequence[int]) -> bool:
    g = grid()
    points = [g.coord(c) for c in cells]
    links = {frozenset(pair) for pair in zip(points, points[1:] + points[:1], strict=True)}
    for a, b in zip(points, points[1:] + points[:1], strict=True):
        (x1, y1), (x2, y2) = a, b
        if abs(x1 - x2) == 1 and abs(y1 - y2) == 1 and frozenset({(x1, y2), (x2, y1)}) in links:
            return True
    return False


def _one_region(cells: Sequence[int]) -> bool:
    """Whether `cells` are one group connected by sides (no cells: nothing to split)."""
    if not cells:
        return True
    sides = side_neighbours()
    left = set(cells)
    stack = [left.pop()]
    while stack:
        for n in sides[stack.pop()]:
            if n in left:
                left.remove(n)
                stack.append(n)
    return not left


def judge(
    cells: Sequence[int],
    owner: Sequence[int],
    face: Sequence[int],
    side: int,
    moved: Collection[int],
    black_left: int,
) -> Judged:
    """Accept the declared cycle on the board after the move, or raise the rule it breaks."""
    if black_left <= 0:
        raise illegal(
            "NO_BLACK_DICE",
            "All 18 black dice are used: contours score nothing now.",
            "Все 18 чёрных кубиков использованы: контуры больше не приносят очков.",
        )
    if len(cells) < MIN_CELLS:
        raise illegal("CONTOUR_TOO_SHORT", "A contour has at least 4 dice.", "В контуре не меньше 4 кубиков.")
    if any(not 0 <= c < CELLS for c in cells):
        raise illegal("CONTOUR_OFF_BOARD", "A contour cell is not on the board.", "Клетки контура нет на поле.")
    if len(set(cells)) != len(cells):
        raise illegal("CONTOUR_REPEATS", "A die is in a contour only once.", "Кубик входит в контур только один раз.")
    if any(not supports(owner[c], side) for c in cells):
        raise illegal(
            "CONTOUR_NOT_YOURS",
            "Every cell of a contour holds one of your dice, domino halves or a black die.",
            "Каждая клетка контура — ваш кубик, половинка вашей доминошки или чёрный кубик.",
        )
    neighbours = all_neighbours()
    for a, b in zip(cells, [*cells[1:], cells[0]], strict=True):
        if b not in neighbours[a]:
            raise illegal(
                "CONTOUR_NOT_CLOSED",
                "Consecutive dice of a contour touch by a side or a corner, the last the first.",
                "Соседние кубики контура соприкасаются стороной или углом, последний с первым.",
            )
    inside = enclosed(cells)
    if _crosses(cells) or not _one_region(inside):
        raise illegal(
            "CONTOUR_FIGURE_EIGHT",
            "A contour is one closed line around one region: it may not cross itself, and the cells"
            " inside are joined by sides (no figure-eights).",
            "Контур — одна замкнутая линия вокруг одной области: он не пересекает сам себя, а клетки"
            " внутри связаны сторонами (восьмёрки не допускаются).",
        )
    if not any(c in moved for c in cells):
        raise illegal(
            "CONTOUR_NOT_NEW",
            "A contour must contain the die this move places or moves.",
            "Контур должен включать кубик, выставленный или сдвинутый этим ходом.",
        )
    if any(owner[c] == BLACK for c in inside):
        raise illegal(
            "CONTOUR_BLACK_INSIDE",
            "A contour may not enclose a black die.",
            "Внутри контура не может быть чёрного кубика.",
        )
    free = [c for c in inside if owner[c] == FREE]
    if not free:
        raise illegal(
            "CONTOUR_NO_FREE_CELL",
            "A contour encloses at least one free cell.",
            "Внутри контура должна быть хотя бы одна свободная клетка.",
        )
    return Judged(list(cells), sum(face[c] for c in cells), free)


def is_valid(
    cells: Sequence[int], owner: Sequence[int], face: Sequence[int], side: int, moved: Collection[int], black_left: int
) -> Judged | None:
    try:
        return judge(cells, owner, face, side, moved, black_left)
    except IllegalCommand:
        return None


def _path(start: int, goal: int, allowed: Sequence[bool], banned: frozenset[tuple[int, int]]) -> list[int] | None:
    """A shortest path start → goal over allowed cells (8-neighbours), not using a banned link."""
    neighbours = all_neighbours()
    back: dict[int, int] = {start: start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            path = [goal]
            while path[-1] != start:
                path.append(back[path[-1]])
            return path[::-1]
        for n in neighbours[cell]:
            if n not in back and allowed[n] and (cell, n) not in banned:
                back[n] = cell
                queue.append(n)
    return None


def _local_clusters(cell: int, own: Sequence[bool]) -> list[list[int]]:
    """The own neighbours of `cell`, grouped by touching each other (side or corner)."""
    neighbours = all_neighbours()
    near = [n for n in neighbours[cell] if own[n]]
    clusters: list[list[int]] = []
    for n in near:
        joined = [cl for cl in clusters if any(m in neighbours[n] for m in cl)]
        merged = [n]
        for cl in joined:
            merged += cl
            clusters.remove(cl)
        clusters.append(merged)
    return clusters


@cache
def _king_ring() -> tuple[tuple[int | None, ...], ...]:
    """Per cell, its 8 neighbours in `all_neighbours`' direction order (N, E, S, W, NE, SE, SW,
    NW), None where off the board."""
    g = grid()
    out = []
    for cell in range(CELLS):
        x, y = g.coord(cell)
        out.append(tuple(g.cell_at(x + dx, y + dy) for dx, dy in KING_STEPS))
    return tuple(out)


@cache
def _cluster_heads() -> tuple[tuple[int, ...], ...]:
    """Per bit pattern of own neighbours (bit i: the direction i of `_king_ring`), the groups
    `_local_clusters` makes of them, each named by the direction of its first cell there (the
    last of the group in direction order: each newcomer heads the group it joins)."""
    out: list[tuple[int, ...]] = []
    for pattern in range(256):
        clusters: list[list[int]] = []
        for d in range(8):
            if not pattern >> d & 1:
                continue
            dx, dy = KING_STEPS[d]
            joined = [
                cl
                for cl in clusters
                if any(max(abs(dx - KING_STEPS[m][0]), abs(dy - KING_STEPS[m][1])) == 1 for m in cl)
            ]
            merged = [d]
            for cl in joined:
                merged += cl
                clusters.remove(cl)
            clusters.append(merged)
        out.append(tuple(cl[0] for cl in clusters))
    return tuple(out)


def may_close(cell: int, component: Sequence[int], own: Sequence[bool]) -> bool:
    """A quick test: two separate groups of own dice around `cell` (`own`: the board after the
    move, without `cell`) are joined elsewhere (`component` numbers the 8-connected groups of
    the board before the move), so an own die on `cell` may close a cycle."""
    ring = _king_ring()[cell]
    pattern = 0
    for d, n in enumerate(ring):
        if n is not None and own[n]:
            pattern |= 1 << d
    heads = _cluster_heads()[pattern]
    if len(heads) < 2:
        return False
    groups = [component[ring[d]] for d in heads]  # type: ignore[index]
    return len(groups) != len(set(groups))


def examples(
    cell: int,
    owner: Sequence[int],
    face: Sequence[int],
    side: int,
    black_left: int,
    limit: int = 3,
    tries: int = 6,
    moved: Collection[int] = (),
    own_after: Sequence[bool] | None = None,
) -> list[list[int]]:
    """Some valid contours through `cell` on a board where the move has put an own die there.

    First the ring of own dice around each pocket next to `cell` (`dragons.rules.pockets`: the cells the
    die shuts off from the board's edge), then cycles that close `cell` with a shortest path
    between own neighbours of it that do not touch each other. `moved`: the other cells the move
    placed (a domino's second half); `own_after`: which cells are own after the move, if known.
    The engine accepts any valid cycle, listed or not; these are
    examples for clients and bots, each one judged by the rule before it is offered.
    """
    if black_left <= 0:
        return []
    own = list(own_after) if own_after is not None else [supports(o, side) for o in owner]
    new = {cell, *moved}
    found: list[list[int]] = []
    seen: set[frozenset[int]] = set()

    def offer(cycle: list[int]) -> bool:
        key = frozenset(cycle)
        if key not in seen:
            seen.add(key)
            if len(cycle) >= MIN_CELLS and is_valid(cycle, owner, face, side, new, black_left) is not None:
                found.append(cycle)
        return len(found) >= limit

    for cycle in pocket_cycles(cell, owner, own):
        if offer(cycle):
            return found
    own[cell] = False
    clusters = _local_clusters(cell, own)
    attempts = 0
    for i, first in enumerate(clusters):
        for second in clusters[i + 1 :]:
            for a in first:
                for b in second:
                    if attempts >= tries:
                        return found
                    attempts += 1
                    path = _path(a, b, own, frozenset())
                    if path is None:
                        break
                    if offer([cell, *path]):
                        return found
    return found


def may_contain(cell: int, component: Sequence[int], own: Sequence[bool]) -> bool:
    """Whether an own die on `cell` may be on a contour (`own`: the board after the move, without
    `cell`): it closes a path between two groups joined elsewhere (`may_close`), or it separates
    two runs of not-own cells around it (a pocket it may shut, `dragons.rules.pockets.may_enclose`)."""
    return may_close(cell, component, own) or may_enclose(cell, own)  # the ring never reads `cell`


def components(owner: Sequence[int], side: int) -> list[int]:
    """The 8-connected groups of `side`'s own dice (-1 elsewhere)."""
    neighbours = all_neighbours()
    comp = [-1] * len(owner)
    label = 0
    for start in range(len(owner)):
        if comp[start] >= 0 or not supports(owner[start], side):
            continue
        comp[start] = label
        stack = [start]
        while stack:
            c = stack.pop()
            for n in neighbours[c]:
                if comp[n] < 0 and supports(owner[n], side):
                    comp[n] = label
                    stack.append(n)
        label += 1
    return comp
