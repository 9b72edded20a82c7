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


def _all_own(owner: Sequence[int], side: int, cells: tuple[int, ...]) -> bool:
    for c in cells:
        o = owner[c]
        if o != side and o != BLACK:
            return False
    return True


def kinds(combos: Iterable[Combo]) -> str:
    """The combination kinds, sorted and joined with '+' (descriptor rule names use it)."""
    return "+".join(sorted({c.kind for c in combos}))
