"""The Драконы board: halves, border, the marked start ring, the sixes, pawns."""

from __future__ import annotations

from tablehall_boards import disk
from tablehall_boards.blocking import OccupancyBlocking
from tablehall_boards.movegen import MoveGenerator
from tablehall_boards.pieces import Kind, Piece

G = disk.grid()


def test_the_border_row_is_neutral_and_the_halves_are_north_red_south_blue() -> None:
    assert len(disk.border()) == 21
    assert len(disk.half(disk.RED)) == len(disk.half(disk.BLUE)) == (333 - 21) // 2
    assert all(G.coord(c)[1] > 0 for c in disk.half(disk.RED))
    assert all(G.coord(c)[1] < 0 for c in disk.half(disk.BLUE))
    assert disk.half_of(G.cell(0, 0)) is None


def test_the_marked_ring_and_the_sixes() -> None:
    red = {G.coord(c) for c in disk.marked_cells(disk.RED)}
    blue = {G.coord(c) for c in disk.marked_cells(disk.BLUE)}
    assert red == {(-1, 1), (0, 1), (1, 1), (1, 0)}
    assert blue == {(1, -1), (0, -1), (-1, -1), (-1, 0)}
    assert (red | blue) == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {(0, 0)}
    assert G.coord(disk.six_start(disk.RED)) == (0, 5)
    assert G.coord(disk.six_start(disk.BLUE)) == (0, -5)


def test_pawns_move_toward_the_opponents_half_and_promote_at_the_far_end_of_their_column() -> None:
    red, blue = disk.pawn_rules(disk.RED), disk.pawn_rules(disk.BLUE)
    assert red.forward == (0, -1)
    assert blue.forward == (0, 1)
    assert not red.double_step_from and not blue.double_step_from
    assert len(red.promotion_cells) == len(blue.promotion_cells) == 21  # one per column x = -10..10
    for cell in red.promotion_cells:
        x, y = G.coord(cell)
        assert not G.has(x, y - 1) and y == -max(v for u, v in G.coords if u == x)
    assert G.cell(0, -10) in red.promotion_cells
    assert G.cell(10, -2) in red.promotion_cells and G.cell(10, 2) in blue.promotion_cells  # column 10 is y -2..2
    assert red.promotions == (Kind.KNIGHT, Kind.BISHOP, Kind.ROOK, Kind.QUEEN)


def test_a_red_pawn_promotes_on_the_last_cell_of_its_column_to_any_of_2_to_5() -> None:
    generator = MoveGenerator(G, {disk.RED: disk.pawn_rules(disk.RED), disk.BLUE: disk.pawn_rules(disk.BLUE)})
    placement = {G.cell(3, -8): Piece(Kind.PAWN, disk.RED)}  # (3, -9) is the last cell of column 3
    moves = generator.moves(placement, disk.RED, OccupancyBlocking(len(G), placement))
    assert {(G.coord(m.target), m.promotion) for m in moves} == {((3, -9), k) for k in (2, 3, 4, 5)}
