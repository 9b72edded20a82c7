"""Perft node counts kept as data (`data/*.perft`) against the shared move generator.

`make test` recomputes every depth up to 3; the deeper ones (up to 5, some seconds each) are
marked slow (`make soak`). The chess-8x8 records were checked against python-chess when they
were written (`regenerate_boards_perft.py`); depths up to 2 are checked against it again here. The cross
has no independent oracle, so its counts are also checked against the board's symmetry: the
standard set-up turned a quarter (seat s playing as seat s + 1) gives the same tree.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest
from boards.boards_oracle import oracle_perft

from tablehall_boards import cross, perft
from tablehall_boards.movegen import MoveGenerator

DATA = Path(__file__).resolve().parent / "data"
SHALLOW = 3
RECORDS = [r for path in sorted(DATA.glob("*.perft")) for r in perft.parse_perft(path.read_text("utf-8"))]
CASES = [(r, depth, nodes) for r in RECORDS for depth, nodes in r.counts]


def _id(case: tuple[perft.PerftRecord, int, int]) -> str:
    return f"{case[0].id}-d{case[1]}"


def test_the_files_hold_every_board_and_army_count() -> None:
    ids = {r.id for r in RECORDS}
    assert {"homunculus-2-standard", "homunculus-3-standard", "homunculus-4-standard", "chess-start"} <= ids
    for record in RECORDS:
        assert [d for d, _ in record.counts] == list(range(1, len(record.counts) + 1)), record.id
        assert all(nodes > 0 for _, nodes in record.counts)


@pytest.mark.parametrize("case", [c for c in CASES if c[1] <= SHALLOW], ids=_id)
def test_shallow_perft_counts_are_recomputed(case: tuple[perft.PerftRecord, int, int]) -> None:
    record, depth, nodes = case
    generator, placement, order = perft.setup_of(record)
    assert perft.perft(generator, placement, order, depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c[1] > SHALLOW], ids=_id)
def test_deep_perft_counts_are_recomputed(case: tuple[perft.PerftRecord, int, int]) -> None:
    record, depth, nodes = case
    generator, placement, order = perft.setup_of(record)
    assert perft.perft(generator, placement, order, depth) == nodes


@pytest.mark.parametrize("record", [r for r in RECORDS if r.grid == "chess-8x8"], ids=lambda r: r.id)
def test_chess_records_equal_python_chess_to_depth_two(record: perft.PerftRecord) -> None:
    fen = record.setup.removeprefix("fen ")
    for depth, nodes in record.counts[:2]:
        assert oracle_perft(chess.Board(fen), depth) == nodes


@pytest.mark.parametrize("seats", [(0, 2), (0, 1, 2), (0, 1, 2, 3)])
def test_the_standard_cross_set_up_gives_the_same_tree_turned_a_quarter(seats: tuple[int, ...]) -> None:
    generator = MoveGenerator(cross.grid(), {s: cross.pawn_rules(s) for s in cross.SEATS})
    turned = tuple((s + 1) % 4 for s in seats)
    for depth in range(1, SHALLOW + 1):
        here = perft.perft(generator, cross.standard_setup(seats), seats, depth)
        there = perft.perft(generator, cross.standard_setup(turned), turned, depth)
        assert here == there


def test_divide_adds_up_to_perft() -> None:
    record = next(r for r in RECORDS if r.id == "homunculus-4-arms")
    generator, placement, order = perft.setup_of(record)
    split = perft.divide(generator, placement, order, 2)
    assert len(split) == record.counts[0][1]
    assert sum(split.values()) == record.counts[1][1]


def test_perft_files_round_trip_through_the_format() -> None:
    for record in RECORDS:
        assert perft.parse_perft(perft.format_perft(record)) == [record]


def test_a_malformed_perft_file_is_refused() -> None:
    with pytest.raises(ValueError, match="lacks"):
        perft.parse_perft("id x\ngrid chess-8x8\nperft 1 20\n")
    with pytest.raises(ValueError, match="unknown perft line"):
        perft.parse_perft("id x\nfoo bar\n")
