"""Perft: node counts of the move tree, to pin the move generator down with numbers.

`perft(generator, placement, order, depth)` counts the leaves of the pseudo-legal move tree of
`depth` plies, the sides moving in `order` (cyclically). Kings are taken like any piece and the
game goes on (a side without pieces simply has no moves, which ends that branch). Leaves are
counted in bulk (at depth 1 the count is the number of moves).

Perft files (`*.perft`, kept as data beside the tests) hold records of lines:

    id homunculus-4
    grid homunculus-cross        # homunculus-cross or chess-8x8
    order 0 1 2 3                # the sides moving, in turn
    setup standard               # or: pieces 0:Kh1 2:Pg13 … (side:letter cell), or: fen <FEN>
    perft 1 80
    perft 2 6400

`setup_of(record)` builds the generator, placement and order a record describes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import msgspec

from tablehall_boards import chess8, cross
from tablehall_boards.blocking import OccupancyBlocking
from tablehall_boards.grid import Cell
from tablehall_boards.movegen import Move, MoveGenerator
from tablehall_boards.pieces import Kind, Piece


def _opponents(a: int, b: int) -> bool:
    return a != b


def perft(
    generator: MoveGenerator,
    placement: Mapping[Cell, Piece],
    order: Sequence[int],
    depth: int,
    is_enemy: Callable[[int, int], bool] = _opponents,
) -> int:
    """The number of move sequences of `depth` plies from `placement`, `order[0]` to move."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    board = dict(placement)
    size = len(generator.grid)
    return _count(generator, board, tuple(order), 0, depth, size, is_enemy)


def divide(
    generator: MoveGenerator,
    placement: Mapping[Cell, Piece],
    order: Sequence[int],
    depth: int,
    is_enemy: Callable[[int, int], bool] = _opponents,
) -> dict[Move, int]:
    """Per first move, the perft of the rest (the usual way to find where two generators differ)."""
    if depth < 1:
        raise ValueError("divide needs depth at least 1")
    board = dict(placement)
    size = len(generator.grid)
    sides = tuple(order)
    found: dict[Move, int] = {}
    for move in generator.moves(board, sides[0], OccupancyBlocking(size, board, is_enemy)):
        undo = play(board, move)
        found[move] = _count(generator, board, sides, 1, depth - 1, size, is_enemy)
        unplay(board, move, undo)
    return found


def play(board: dict[Cell, Piece], move: Move) -> tuple[Piece, Piece | None]:
    """Make `move` on `board` in place; returns what `unplay` needs (the mover, the taken piece)."""
    mover = board.pop(move.origin)
    taken = board.get(move.target)
    board[move.target] = Piece(move.promotion, mover.side) if move.promotion is not None else mover
    return mover, taken


def unplay(board: dict[Cell, Piece], move: Move, undo: tuple[Piece, Piece | None]) -> None:
    mover, taken = undo
    board[move.origin] = mover
    if taken is None:
        del board[move.target]
    else:
        board[move.target] = taken


def _count(
    generator: MoveGenerator,
    board: dict[Cell, Piece],
    order: tuple[int, ...],
    turn: int,
    depth: int,
    size: int,
    is_enemy: Callable[[int, int], bool],
) -> int:
    if depth == 0:
        return 1
    side = order[turn % len(order)]
    moves = generator.moves(board, side, OccupancyBlocking(size, board, is_enemy))
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        undo = play(board, move)
        total += _count(generator, board, order, turn + 1, depth - 1, size, is_enemy)
        unplay(board, move, undo)
    return total


# --- perft files ------------------------------------------------------------------------------


class PerftRecord(msgspec.Struct, frozen=True):
    id: str
    grid: str
    order: tuple[int, ...]
    setup: str
    counts: tuple[tuple[int, int], ...]


def parse_perft(text: str) -> list[PerftRecord]:
    """The records of a perft file (`#` starts a comment; a record starts at each `id`)."""
    records: list[PerftRecord] = []
    fields: dict[str, str] = {}
    counts: list[tuple[int, int]] = []

    def close() -> None:
        if not fields:
            return
        missing = {"id", "grid", "order", "setup"} - fields.keys()
        if missing:
            raise ValueError(f"perft record {fields.get('id', '?')} lacks {sorted(missing)}")
        order = tuple(int(s) for s in fields["order"].split())
        records.append(PerftRecord(fields["id"], fields["grid"], order, fields["setup"], tuple(counts)))

    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "id":
            close()
            fields, counts = {"id": value}, []
        elif key == "perft":
            depth, nodes = value.split()
            counts.append((int(depth), int(nodes)))
        elif key in ("grid", "order", "setup"):
            fields[key] = value
        else:
            raise ValueError(f"unknown perft line: {raw!r}")
    close()
    return records


def format_perft(record: PerftRecord) -> str:
    lines = [
        f"id {record.id}",
        f"grid {record.grid}",
        "order " + " ".join(map(str, record.order)),
        f"setup {record.setup}",
    ]
    lines += [f"perft {depth} {nodes}" for depth, nodes in record.counts]
    return "\n".join(lines) + "\n"


def setup_of(record: PerftRecord) -> tuple[MoveGenerator, dict[Cell, Piece], tuple[int, ...]]:
    """The generator, the placement and the order of sides a record describes."""
    if record.grid == cross.grid().name:
        generator = MoveGenerator(cross.grid(), {seat: cross.pawn_rules(seat) for seat in cross.SEATS})
    elif record.grid == chess8.grid().name:
        generator = chess8.generator()
    else:
        raise ValueError(f"unknown perft grid {record.grid!r}")
    kind, _, rest = record.setup.partition(" ")
    if kind == "standard" and record.grid == cross.grid().name:
        placement = cross.standard_setup(record.order)
    elif kind == "fen" and record.grid == chess8.grid().name:
        placement, _ = chess8.placement_from_fen(rest)
    elif kind == "pieces":
        placement = {}
        for item in rest.split():
            side, _, spec = item.partition(":")
            placement[generator.grid.parse(spec[1:])] = Piece(Kind.from_letter(spec[0]), int(side))
    else:
        raise ValueError(f"unknown setup {record.setup!r} on {record.grid}")
    return generator, placement, record.order
