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

from dragons.board import BLACK, DIAGONAL_LINES, ORTHOGONAL_LINES, grid, windows
from dragons.events import Combo
from dragons.rules.masks import POSITION, WIDTH

STRAIGHTS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))
RUNS = tuple(frozenset(numbers) for numbers in STRAIGHTS)
POINTS = {
    ("straight", False): 9,
    ("straight", True): 3,
    ("four", False): 15,
    ("four", True): 5,
}


def _kind(name: str, diagonal: bool) -> str:
    return f"{name}_{'diagonal' if diagonal else 'line'}"


def scores(numbers: Sequence[int], name: str) -> bool:
    """Whether a window's numbers make its combination: "straight" 1–5 or 2–6, "four" all equal."""
    return tuple(sorted(numbers)) in STRAIGHTS if name == "straight" else len(set(numbers)) == 1


def line_combos(owner: Sequence[int], face: Sequence[int], side: int, moved: Iterable[int]) -> list[Combo]:
    """The straights and fours of `side` through any of the `moved` cells (board after the move)."""
    seen: set[tuple[int, ...]] = set()
    out: list[Combo] = []
    for cell in moved:
        for length, name in ((5, "straight"), (4, "four")):
            for cells, diagonal in windows(length)[cell]:
                if cells in seen or not _all_own(owner, side, cells):
                    continue
                if scores([face[c] for c in cells], name):
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


@cache
def _window_groups() -> tuple[tuple[tuple[int, tuple[tuple[int, tuple[int, ...], bool, str], ...]], ...], ...]:
    """Per cell, its windows (`_window_masks`) grouped by line direction, each group with the bit
    mask of the cell's two neighbours on that line: every window through the cell holds one of
    them, so a group whose neighbours are both not own is skipped at once."""
    g = grid()
    out = []
    for cell, windows_here in enumerate(_window_masks()):
        x, y = g.coord(cell)
        groups = []
        for dx, dy in (*ORTHOGONAL_LINES, *DIAGONAL_LINES):
            ends = [g.cell_at(x + dx, y + dy), g.cell_at(x - dx, y - dy)]
            near = sum(1 << n for n in ends if n is not None)
            on_line = tuple(w for w in windows_here if any(n is not None and n in w[1] for n in ends))
            if on_line:
                groups.append((near, on_line))
        assert sum(len(ws) for _, ws in groups) == len(windows_here)  # each window in one direction
        out.append(tuple(groups))
    return tuple(out)


def prepare() -> None:
    """Build the window tables now (the first question would otherwise pay for them)."""
    _window_groups()


def own_windows(own: int, cells: Sequence[int]) -> list[Window]:
    """The windows `line_combos` would test for `cells` once they are own (whatever numbers go
    there), each once: what a placement's combinations depend on besides numbers (in no set
    order). `own`: the `own_mask` of the board before."""
    placed = 0
    for cell in cells:
        placed |= 1 << cell
    full = own | placed
    groups = _window_groups()
    out: list[Window] = []
    done = 0  # the cells already walked: a window through one of them was seen there
    for cell in cells:
        for near, on_line in groups[cell]:
            if not near & full:
                continue
            for mask, line, diagonal, name in on_line:
                if mask & full == mask and not mask & done:  # (not `~full`: a negative big int each time)
                    out.append((line, diagonal, name))
        done |= 1 << cell
    return out


@cache
def reach(cells: tuple[int, ...]) -> int:
    """The bit mask of every cell of every window through `cells`: all `own_windows` reads."""
    out = 0
    for cell in cells:
        for mask, _, _, _ in _window_masks()[cell]:
            out |= mask
    return out


# `own_windows` answers kept by their cells and the own cells those windows cover: from one
# board to the next most placements' neighbourhoods are unchanged (bounded; cleared when full)
WINDOWS_KEPT = 16384
_kept: dict[tuple[tuple[int, ...], int], tuple[Window, ...]] = {}


def kept_windows(own: int, cells: tuple[int, ...]) -> tuple[Window, ...]:
    """`own_windows(own, cells)`, from the kept answers when the windows' cells are owned alike."""
    key = (cells, own & reach(cells))
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= WINDOWS_KEPT:
            _kept.clear()
        found = _kept[key] = tuple(own_windows(own, cells))
    return found


# Which placements may complete a window, for the whole board at once: the board laid out as
# bits by position (`masks.POSITION`: rows of `masks.WIDTH`, a spare position ending each, so a
# step never wraps onto a cell), every window one start bit and a step.
_STEPS = {(1, 0): 1, (0, 1): WIDTH, (1, 1): WIDTH + 1, (-1, 1): WIDTH - 1}  # (x, y) -> positions


@cache
def _window_starts() -> tuple[tuple[int, int, int], ...]:
    """(length, step, bit mask of the first cells) for every line of windows: the windows of
    `board.windows`, each once, named by its cell of least position."""
    g = grid()
    out = []
    for length in (5, 4):
        for (dx, dy), step in _STEPS.items():
            starts = 0
            for cell in g:
                x, y = g.coord(cell)
                if all(g.cell_at(x + i * dx, y + i * dy) is not None for i in range(length)):
                    starts |= 1 << POSITION[cell]
            out.append((length, step, starts))
    return tuple(out)


Completions = tuple[int, int, int]  # `completions`: one die, a tile eastwards, a tile northwards

# `completions` answers by their question: the listing and the bot ask about one board in turn
COMPLETIONS_KEPT = 256
_completed: dict[tuple[int, ...], Completions] = {}


def completions(numbers: Sequence[int]) -> Completions:
    """`find_completions(numbers)`, kept for the last boards asked."""
    key = tuple(numbers)
    found = _completed.get(key)
    if found is None:
        if len(_completed) >= COMPLETIONS_KEPT:
            _completed.clear()
        found = _completed[key] = find_completions(key)
    return found


def completes(found: Completions, cells: tuple[int, ...]) -> bool:
    """Whether own dice on `cells` (one cell, or the two side neighbours a tile covers, in cell
    order, not own before) may complete a window that scores (`find_completions`)."""
    single = found[0]
    if len(cells) == 1:
        return bool(single >> POSITION[cells[0]] & 1)
    a, b = POSITION[cells[0]], POSITION[cells[1]]
    return bool((single >> a | single >> b | (found[1] if b == a + 1 else found[2]) >> a) & 1)


def find_completions(numbers: Sequence[int]) -> Completions:
    """Where own dice may complete a window that scores, for the whole board: `numbers` per
    number 0–6 the own cells showing it (`masks.numbers_of`, position bits). A window counts
    when its other cells are own and hold numbers of one run (1–5 or 2–6) for a straight, or
    one number for a four: what `live_windows` keeps is among them (it asks the straight's
    numbers to differ too), so where these say no, `live_windows(own_windows(...))` is empty.

    The answer, by position bits: (one die on the cell; a tile on the cell and its east
    neighbour; the same with its north neighbour; a window through both lies along the tile)."""
    runs = [0, 0]
    for number, cells in enumerate(numbers):
        for i, run in enumerate(RUNS):
            if number in run:
                runs[i] |= cells
    single = east = north = 0
    for length, step, starts in _window_starts():
        along = step == 1 or step == WIDTH  # a tile may lie along the window
        if length == 4:  # fours: the other cells show one number
            single_here, pair = _fours(numbers, step, starts, along)
            single |= single_here
        else:  # straights: the other cells show numbers of one run
            pair = 0
            for own in runs:
                if own.bit_count() < length - 2:  # a tile's window holds length - 2 others
                    continue
                # before[k]: the starts whose first k cells are own; after[k]: those own from cell k on
                before = [starts]
                for k in range(length - 1):
                    before.append(before[-1] & (own >> k * step))
                after = [starts] * (length + 1)
                for k in range(length - 1, 0, -1):
                    after[k] = after[k + 1] & (own >> k * step)
                for k in range(length):  # the cell k of the window is the one placed
                    single |= (before[k] & after[k + 1]) << k * step
                if along:
                    for k in range(length - 1):  # the cells k and k + 1 are the tile's
                        pair |= (before[k] & after[k + 2]) << k * step
        if step == 1:
            east |= pair
        elif step == WIDTH:
            north |= pair
    return single, east, north


def _fours(numbers: Sequence[int], step: int, starts: int, along: bool) -> tuple[int, int]:
    """`find_completions`' fours along one line of windows (`starts`, `step`): the cells where
    one die completes one (its other three cells show one number), and the tiles' lower cells
    (its other two do), from the positions p where p and p + d steps show one number."""
    one = two = three = 0
    for cells in numbers:
        if cells.bit_count() >= 2:
            one |= cells & (cells >> step)
            two |= cells & (cells >> 2 * step)
            if along:
                three |= cells & (cells >> 3 * step)
    s1, s2 = step, 2 * step
    single = (
        starts & (one >> s1) & (one >> s2)  # the die on cell 0: cells 1, 2, 3 alike
        | (starts & two & (one >> s2)) << s1  # on cell 1: 0 and 2, 2 and 3
        | (starts & one & (two >> s1)) << s2  # on cell 2: 0 and 1, 1 and 3
        | (starts & one & (one >> s1)) << 3 * step  # on cell 3: 0 and 1, 1 and 2
    )
    if not along:
        return single, 0
    pair = starts & (one >> s2) | (starts & three) << s1 | (starts & one) << s2  # the tile on cells 0-1, 1-2, 2-3
    return single, pair


def window_kinds(found: Sequence[Window], face: Sequence[int], numbers: dict[int, int]) -> str:
    """`kinds(line_combos(...))` of a placement from its `own_windows`: `numbers` the placed
    cells' numbers, `face` the board's elsewhere ('' when nothing scores)."""
    names: set[str] = set()
    for line, diagonal, name in found:
        if scores([numbers[c] if c in numbers else face[c] for c in line], name):
            names.add(_kind(name, diagonal))
    return "+".join(sorted(names))


def window_points(found: Sequence[Window], face: Sequence[int], numbers: dict[int, int]) -> int:
    """The points `line_combos` would give a placement, from its `own_windows` as `window_kinds`
    reads them (`numbers` the placed cells', `face` the board's elsewhere)."""
    return sum(
        POINTS[(name, diagonal)]
        for line, diagonal, name in found
        if scores([numbers[c] if c in numbers else face[c] for c in line], name)
    )


def live_windows(found: Sequence[Window], face: Sequence[int], placed: Sequence[int]) -> tuple[Window, ...]:
    """The windows of `found` that may still score whatever numbers go on the `placed` cells (the
    `face` of the others): a four's other numbers all equal, a straight's distinct and within one
    of its runs. The others score for no numbers: `window_points` over these alone is the same."""
    out: list[Window] = []
    for window in found:
        line, _, name = window
        fixed = [face[c] for c in line if c not in placed]
        numbers = set(fixed)
        if len(numbers) <= 1 if name == "four" else len(numbers) == len(fixed) and any(numbers <= run for run in RUNS):
            out.append(window)
    return tuple(out)


def _all_own(owner: Sequence[int], side: int, cells: tuple[int, ...]) -> bool:
    for c in cells:
        o = owner[c]
        if o != side and o != BLACK:
            return False
    return True


def kinds(combos: Iterable[Combo]) -> str:
    """The combination kinds, sorted and joined with '+' (descriptor rule names use it)."""
    return "+".join(sorted({c.kind for c in combos}))
