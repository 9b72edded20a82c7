"""Line combinations: straights (Стрит) and four of a kind (Каре).

A straight is a line of five own dice whose numbers are 1–5 or 2–6 in any order: 3 points on a
diagonal, 9 on a row or column. Four of a kind is a line of four equal numbers: 5 on a diagonal,
15 on a row or column. Own dice are the side's dice, its domino halves (a blank counts 0) and
the black dice (common to both). A combination scores only when the move places or moves one of
its dice: every window of the right length that contains a placed or moved cell scores, so a
longer line scores each such window.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from dragons.board import BLACK, windows
from dragons.events import Combo

STRAIGHTS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))
POINTS = {
    ("straight", False): 9,
    ("straight", True): 3,
    ("four", False): 15,
    ("four", True): 5,
}


def _kind(name: str, diagonal: bool) -> str:
    return f"{name}_{'diagonal' if diagonal else 'line'}"


def line_combos(owner: Sequence[int], face: Sequence[int], side: int, moved: Iterable[int]) -> list[Combo]:
    """The straights and fours of `side` through any of the `moved` cells (board after the move)."""
    seen: set[tuple[int, ...]] = set()
    out: list[Combo] = []
    for cell in moved:
        for length, name in ((5, "straight"), (4, "four")):
            for cells, diagonal in windows(length)[cell]:
                if cells in seen or not _all_own(owner, side, cells):
                    continue
                numbers = [face[c] for c in cells]
                hit = tuple(sorted(numbers)) in STRAIGHTS if name == "straight" else len(set(numbers)) == 1
                if hit:
                    seen.add(cells)
                    out.append(Combo(kind=_kind(name, diagonal), cells=list(cells), points=POINTS[(name, diagonal)]))
    return out


Window = tuple[tuple[int, ...], bool, str]  # cells in line order, diagonal?, "straight" or "four"


@cache
def _window_masks() -> tuple[tuple[tuple[int, tuple[int, ...], bool, str], ...], ...]:
    """Per cell, the windows through it in `line_combos`' order (straights, then fours), each
    with the bit mask of its cells."""
    return tuple(
        tuple(
            (sum(1 << c for c in line), line, diagonal, name)
            for length, name in ((5, "straight"), (4, "four"))
            for line, diagonal in windows(length)[cell]
        )
        for cell in range(len(windows(5)))
    )


def own_mask(owner: Sequence[int], side: int) -> int:
    """The bit mask of `side`'s own cells (its dice, its domino halves, black dice)."""
    mask = 0
    for cell, o in enumerate(owner):
        if o in (side, BLACK):
            mask |= 1 << cell
    return mask


def own_windows(own: int, cells: Sequence[int]) -> list[Window]:
    """The windows `line_combos` would test for `cells` once they are own (whatever numbers go
    there), in its order, each once: what a placement's combinations depend on besides numbers.
    `own`: the `own_mask` of the board before."""
    placed = 0
    for cell in cells:
        placed |= 1 << cell
    full = own | placed
    masks = _window_masks()
    out: list[Window] = []
    done = 0  # the cells already walked: a window through one of them was seen there
    for cell in cells:
        for mask, line, diagonal, name in masks[cell]:
            if mask & ~full == 0 and mask & done == 0:
                out.append((line, diagonal, name))
        done |= 1 << cell
    return out


def window_kinds(found: Sequence[Window], face: Sequence[int], numbers: dict[int, int]) -> str:
    """`kinds(line_combos(...))` of a placement from its `own_windows`: `numbers` the placed
    cells' numbers, `face` the board's elsewhere ('' when nothing scores)."""
    names: set[str] = set()
    for line, diagonal, name in found:
        values = [numbers[c] if c in numbers else face[c] for c in line]
        if tuple(sorted(values)) in STRAIGHTS if name == "straight" else len(set(values)) == 1:
            names.add(_kind(name, diagonal))
    return "+".join(sorted(names))


def _all_own(owner: Sequence[int], side: int, cells: tuple[int, ...]) -> bool:
    for c in cells:
        o = owner[c]
        if o != side and o != BLACK:
            return False
    return True


def kinds(combos: Iterable[Combo]) -> str:
    """The combination kinds, sorted and joined with '+' (descriptor rule names use it)."""
    return "+".join(sorted({c.kind for c in combos}))
