"""Where a die or a domino may go (Правила выставления кубиков 1–4, and the domino rules).

1. A placed die touches by a side an own die (own dice, own domino halves, black dice: rule 3).
2. It may touch own dice only by a corner when it forms a scoring combination (a straight, a four
   of a kind through it, or a contour it closes and declares).
4. A six may go on any free cell of the own half; on the border row or the opponent's half only
   by rules 1–3.

A domino covers two free side-neighbouring cells; one of its halves follows the rules above
(the other half is not a neighbour that counts); no cell of it touches another domino by a side
or a corner. Its halves count as own dice (a blank counts 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from dragons.board import FREE, NO_DOMINO, Contact, all_neighbours, half_of, side_neighbours, touches_side
from dragons.events import Combo
from dragons.rules.combos import line_combos

KING = 6


def six_anywhere(cell: int, side: int, number: int) -> bool:
    """Rule 4: a six on a free cell of its own half needs no contact."""
    return number == KING and half_of(cell) == side


def plain(owner: Sequence[int], cell: int, side: int, number: int, skip: int | None = None) -> bool:
    """Rules 1 and 4: allowed without a combination."""
    return touches_side(owner, cell, side, skip) or six_anywhere(cell, side, number)


def combos_if_placed(
    owner: list[int], face: list[int], side: int, cells: Sequence[int], numbers: Sequence[int]
) -> list[Combo]:
    """The line combinations that placing `numbers` on `cells` would form (lists restored after)."""
    saved = [(owner[c], face[c]) for c in cells]
    for c, n in zip(cells, numbers, strict=True):
        owner[c], face[c] = side, n
    try:
        return line_combos(owner, face, side, cells)
    finally:
        for c, (o, f) in zip(cells, saved, strict=True):
            owner[c], face[c] = o, f


def near_domino(domino: Sequence[int]) -> list[bool]:
    """Cells that touch a placed domino by a side or a corner (or are one)."""
    out = [d != NO_DOMINO for d in domino]
    neighbours = all_neighbours()
    for cell, d in enumerate(domino):
        if d != NO_DOMINO:
            for n in neighbours[cell]:
                out[n] = True
    return out


def _plain(contact: Contact, cell: int, side: int, number: int) -> bool:
    return contact.side[cell] or six_anywhere(cell, side, number)


def die_targets(
    owner: list[int], face: list[int], side: int, number: int, contact: Contact
) -> tuple[list[int], dict[int, list[Combo]], list[int]]:
    """(cells allowed by rules 1/4, corner-only cells with the line combinations that allow
    them, the other corner-only cells: only a contour may allow those)."""
    plain_cells: list[int] = []
    corner: dict[int, list[Combo]] = {}
    contour_only: list[int] = []
    for cell, o in enumerate(owner):
        if o != FREE:
            continue
        if _plain(contact, cell, side, number):
            plain_cells.append(cell)
        elif contact.corner[cell]:
            combos = combos_if_placed(owner, face, side, [cell], [number])
            if combos:
                corner[cell] = combos
            else:
                contour_only.append(cell)
    return plain_cells, corner, contour_only


def domino_half_plain(contact: Contact, cells: Sequence[int], pips: Sequence[int], side: int) -> bool:
    """One half follows rule 1 or 4 (the other half, a free cell before, is no neighbour that counts)."""
    a, b = cells
    return _plain(contact, a, side, pips[0]) or _plain(contact, b, side, pips[1])


def domino_half_corner(contact: Contact, cells: Sequence[int]) -> bool:
    a, b = cells
    return contact.corner[a] or contact.corner[b]


def domino_cells_ok(owner: Sequence[int], near: Sequence[bool], cells: Sequence[int]) -> bool:
    """Two free side-neighbouring cells, neither touching another domino."""
    a, b = cells
    if a == b or owner[a] != FREE or owner[b] != FREE or near[a] or near[b]:
        return False
    return b in side_neighbours()[a]
