"""Recompute the perft files in `data/` with the shared move generator (not a test module).

Run: .venv/bin/python tests/boards/regenerate_boards_perft.py [max_depth]

For each record it counts every depth from 1 to the deepest the record lists (or to `max_depth`
when deeper), and for each chess-8x8 record it first checks every count up to depth 4 against
python-chess's pseudo-legal perft (castling and en passant off), stopping on a difference. The
file's comment header is kept; the records are rewritten.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boards.boards_oracle import oracle_perft

from tablehall_boards import perft

DATA = Path(__file__).resolve().parent / "data"
ORACLE_DEPTH = 4


def regenerate(path: Path, max_depth: int) -> None:
    text = path.read_text("utf-8")
    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("#"))
    out: list[str] = []
    for record in perft.parse_perft(text):
        generator, placement, order = perft.setup_of(record)
        depths = range(1, max(max_depth, *(d for d, _ in record.counts)) + 1)
        counts: list[tuple[int, int]] = []
        for depth in depths:
            started = time.perf_counter()
            nodes = perft.perft(generator, placement, order, depth)
            took = time.perf_counter() - started
            if record.grid == "chess-8x8" and depth <= ORACLE_DEPTH:
                fen = record.setup.removeprefix("fen ")
                expected = oracle_perft(chess.Board(fen), depth)
                if expected != nodes:
                    raise SystemExit(f"{record.id} depth {depth}: ours {nodes}, python-chess {expected}")
            checked = " = python-chess" if record.grid == "chess-8x8" and depth <= ORACLE_DEPTH else ""
            print(f"{record.id} perft {depth} {nodes} ({took:.1f} s){checked}")
            counts.append((depth, nodes))
        out.append(
            perft.format_perft(perft.PerftRecord(record.id, record.grid, record.order, record.setup, tuple(counts)))
        )
    path.write_text(header + "\n" + "\n".join(out), "utf-8")


def main() -> None:
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    for path in sorted(DATA.glob("*.perft")):
        regenerate(path, max_depth)


if __name__ == "__main__":
    main()
