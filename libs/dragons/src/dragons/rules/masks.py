"""The board as byte masks: what a legal-move listing reads of every cell, in a few whole-board steps.

The disk's 21 rows are laid out in a rectangle of `WIDTH` = 22 positions a row (x = −10…10 and
one spare position that is never a cell, so a step east or west never wraps to another row),
`SIZE` positions in all. A mask is an `int` with one byte per position (0 or 1, little end
first): a step to a neighbour is a shift by whole bytes, and a mask's bytes, read back, give its
cells in cell order (cells are numbered row by row, `tablehall_boards.disk`). Each mask is
limited to the board's positions (`VALID`).

`Masks(owner, domino, side)` packs the board once (`struct`, no loop over cells in Python) and
answers what `dragons.board.Contact`, `placement.near_domino` and `chess.DiceBlocking` answer,
as masks or as lists of cells.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import cache
from itertools import compress

from dragons.board import BLACK, CELLS, SIDES, grid, half_of

WIDTH = 22
ROWS = 21
SIZE = WIDTH * ROWS
_BYTE = 8
EAST = _BYTE  # shift left by one position: the cell to the west's bit moves onto its east neighbour
NORTH = _BYTE * WIDTH


def _layout() -> tuple[str, tuple[int, ...]]:
    """The `struct` format that packs a per-cell list into the rectangle (pad bytes off the board),
    and the position of each cell."""
    g = grid()
    positions = []
    for cell in range(len(g)):
        x, y = g.coord(cell)
        positions.append((y + 10) * WIDTH + (x + 10))
    assert positions == sorted(positions) and positions[-1] < SIZE  # cells run in position order
    fmt, at = "<", 0
    for p in positions:
        if p > at:
            fmt += f"{p - at}x"
        fmt += "b"
        at = p + 1
    if at < SIZE:
        fmt += f"{SIZE - at}x"
    return fmt, tuple(positions)


_FORMAT, POSITION = _layout()
_PACK = struct.Struct(_FORMAT).pack  # per-cell signed bytes into the rectangle (pad positions 0)
_UNPACK = struct.Struct(_FORMAT.replace("b", "B")).unpack  # the rectangle's bytes back, per cell
_CELL_BYTES = struct.Struct(f"<{CELLS}b").pack  # per-cell signed bytes in cell order
_CELL_RANGE = range(CELLS)


def bit(cell: int) -> int:
    return 1 << (_BYTE * POSITION[cell])


VALID = sum(bit(c) for c in range(CELLS))
HOME: tuple[int, ...] = tuple(sum(bit(c) for c in range(CELLS) if half_of(c) == side) for side in SIDES)


def _table(pick: Sequence[int]) -> bytes:
    """A `bytes.translate` table: 1 for the signed byte values in `pick`, else 0."""
    return bytes(int(((v + 128) % 256) - 128 in pick) for v in range(256))


_FREE = _table([-1])
_OWN = tuple(_table([side, BLACK]) for side in SIDES)
_SIDE = tuple(_table([side]) for side in SIDES)
_ENEMY = tuple(_table([1 - side]) for side in SIDES)
_NUMBER = tuple(_table([number]) for number in range(7))
_PLACED = _table([v for v in range(128)])  # a domino id (not NO_DOMINO = -1)
# verdicts (`tablehall_boards.Verdict`): 0 empty, 1 capture, 2 blocked
_VERDICT = tuple(bytes(0 if v == 255 else 1 if v == 1 - side else 2 for v in range(256)) for side in SIDES)
_BINARY = bytes(48 + (v & 1) for v in range(256))  # 0/1 bytes into ASCII '0'/'1'


def cells_of(mask: int) -> list[int]:
    """The cells of a mask, in cell order."""
    return list(compress(_CELL_RANGE, _UNPACK(mask.to_bytes(SIZE, "little"))))


def numbers_of(own: int, face: Sequence[int]) -> list[int]:
    """Per number 0–6, the `position_bits` of the cells of the mask `own` showing it (`face`)."""
    packed = _PACK(*face)
    out = []
    for table in _NUMBER:
        m = int.from_bytes(packed.translate(table), "little") & own
        out.append(position_bits(m) if m else 0)
    return out


def own_of(owner: Sequence[int], side: int) -> int:
    """The mask of `side`'s own cells (`Masks.own`) on the board `owner`."""
    return _mask(_PACK(*owner), _OWN[side])


def cell_bits(mask: int) -> int:
    """The mask as one bit per cell, in cell order (`combos.own_mask` of the own cells)."""
    return int(bytes(flags(mask)).translate(_BINARY)[::-1], 2)


def position_bits(mask: int) -> int:
    """The mask as one bit per position (bit `POSITION[cell]` for a cell), not one byte."""
    return int(mask.to_bytes(SIZE, "little").translate(_BINARY)[::-1], 2)


_SPREAD = tuple(bytes(byte >> i & 1 for i in range(8)) for byte in range(256))  # a byte's bits, one a byte


def position_flags(bits: int) -> tuple[int, ...]:
    """Per cell (cell order), 1 when its bit is set in the position bits `bits` (`position_bits`)."""
    data = bits.to_bytes((SIZE + 7) // 8, "little")
    return _UNPACK(b"".join([_SPREAD[byte] for byte in data])[:SIZE])


def flags(mask: int) -> tuple[int, ...]:
    """Per cell (cell order), 1 when the cell is in the mask, else 0."""
    return _UNPACK(mask.to_bytes(SIZE, "little"))


def _mask(packed: bytes, table: bytes) -> int:
    return int.from_bytes(packed.translate(table), "little") & VALID


def sides_of(m: int) -> int:
    """The cells touching a cell of `m` by a side."""
    return ((m << EAST) | (m >> EAST) | (m << NORTH) | (m >> NORTH)) & VALID


def corners_of(m: int) -> int:
    """The cells touching a cell of `m` by a corner."""
    ne, nw = NORTH + EAST, NORTH - EAST
    return ((m << ne) | (m >> ne) | (m << nw) | (m >> nw)) & VALID


@cache
def oriented() -> tuple[tuple[list[int], list[int]], ...]:
    """Per side-neighbour pair, in `dominoes.placements`' order (`Grid.adjacent_pairs`), its
    cells in either order, [lower, upper] first: lists shared by every listing (read-only)."""
    return tuple(([a, b], [b, a]) for a, b in grid().adjacent_pairs())


@cache
def _pair_slots() -> tuple[list[int] | None, ...]:
    """Per position, four slots: the pair of it and its east neighbour as [it, east] and
    [east, it], then with its north neighbour likewise (`oriented`'s lists, or None where there
    is no such pair)."""
    slots: list[list[int] | None] = [None] * (4 * SIZE)
    for first, second in oriented():
        a, b = first
        pa, pb = POSITION[a], POSITION[b]
        k = 0 if pb == pa + 1 else 2
        assert pb == pa + (1 if k == 0 else WIDTH)
        slots[4 * pa + k], slots[4 * pa + k + 1] = first, second
    return tuple(slots)


def prepare() -> None:
    """Build the pair slots now (the first listing with a domino would otherwise pay for them)."""
    _pair_slots()


class Masks:
    """One board for one side, read once: own cells, free cells, contacts, domino neighbourhoods."""

    __slots__ = ("corner", "domino", "fits", "free", "own", "owner_bytes", "seat", "side")

    def __init__(self, owner: Sequence[int], domino: Sequence[int], seat: int) -> None:
        packed = _PACK(*owner)
        self.seat = seat
        self.owner_bytes = packed
        own = _mask(packed, _OWN[seat])
        self.own = own
        self.free = _mask(packed, _FREE)
        self.side = sides_of(own)  # `Contact.side`
        self.corner = corners_of(own)  # `Contact.corner`
        placed = _mask(_PACK(*domino), _PLACED)
        self.domino = placed
        near = placed | sides_of(placed) | corners_of(placed)  # `placement.near_domino`
        self.fits = self.free & ~near

    def own_cells_mask(self) -> int:
        """`combos.own_mask` (one bit per cell, in cell order)."""
        return cell_bits(self.own)

    def own_flags(self) -> list[bool]:
        """`Contact.own`: per cell, whether it is the side's own (its dice, domino halves, black dice)."""
        return list(map(bool, flags(self.own)))

    def movable(self) -> list[int]:
        """`chess.movable`: the side's own dice that are not domino halves."""
        return cells_of(_mask(self.owner_bytes, _SIDE[self.seat]) & ~self.domino)

    def verdicts(self, owner: Sequence[int]) -> bytes:
        """`chess.DiceBlocking`'s verdicts per cell (cell order) on this board (`owner`): free
        empty, the opponent's dice (not its domino halves) taken, all else blocks."""
        out = bytearray(_CELL_BYTES(*owner).translate(_VERDICT[self.seat]))
        for cell in cells_of(self.domino):
            out[cell] = 2
        return bytes(out)

    def domino_slots(self, low_six: bool, high_six: bool, double: bool) -> tuple[Slots, Slots, Slots]:
        """Where a tile of this kind may go, per slot (`slot_cells`): (allowed by rules 1/4,
        touching by a corner only, both). A pair is two free cells touching no domino; rule 1
        asks a half to touch an own cell by a side; rule 4 lets a six go on the own half,
        touching nothing; a corner-only pair needs a combination (or a contour)."""
        home = HOME[self.seat]
        fits, side, corner = self.fits, self.side, self.corner
        plain: list[int] = []
        corner_only: list[int] = []
        every: list[int] = []
        for step in (EAST, NORTH):
            pair = fits & (fits >> step)  # the lower cell of each pair that fits
            by_side = pair & (side | (side >> step))
            by_corner = pair & (corner | (corner >> step)) & ~by_side
            near_home = home >> step  # the upper cell at home
            for first_home, second_home in ((home, near_home), (near_home, home)):  # [low, up], [up, low]
                at_home = pair & ((first_home if low_six else 0) | (second_home if high_six else 0))
                plain.append(by_side | at_home)
                corner_only.append(by_corner & ~at_home)
                every.append(by_side | by_corner | at_home)
        if double:  # once, the lower cell first
            for masks in (plain, corner_only, every):
                masks[1] = masks[3] = 0
        return tuple(plain), tuple(corner_only), tuple(every)  # type: ignore[return-value]


Slots = tuple[int, int, int, int]  # masks of lower cells: east pair forward, backward, north pair forward, backward


def slot_cells(slots: Slots) -> list[list[int]]:
    """The [first, second] cells of the slots set, in `oriented` order (pairs by their lower
    cell, the east pair before the north one, forward before backward): the shared lists."""
    table = _pair_slots()
    out = bytearray(4 * SIZE)
    for k in range(4):
        out[k::4] = slots[k].to_bytes(SIZE, "little")
    return list(compress(table, out))  # type: ignore[arg-type]
