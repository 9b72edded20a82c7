"""Recompute the Гомункул rules perft file in `data/` (not a test module).

Run: .venv/bin/python tests/homunculus/regenerate_perft.py [max_depth [record id ...]]

Counts every depth from 1 to the deepest the record lists (or to `max_depth`, default 3, when
deeper; with ids given, only those records go deeper than they are) with `homunculus.perft`, printing each count and how long it took. The comment header is
kept; the records are rewritten.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "libs" / "homunculus" / "src"))

from homunculus.perft import perft as rules_perft  # noqa: E402
from homunculus.perft import setup_state  # noqa: E402
from tablehall_boards import perft  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "homunculus_rules.perft"


def main() -> None:
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    only = set(sys.argv[2:])
    text = DATA.read_text("utf-8")
    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("#"))
    out: list[str] = []
    for record in perft.parse_perft(text):
        state = setup_state(record.setup)
        listed = max((d for d, _ in record.counts), default=0)
        deepest = max(listed, max_depth) if not only or record.id in only else listed
        counts: list[tuple[int, int]] = []
        for depth in range(1, deepest + 1):
            started = time.perf_counter()
            nodes = rules_perft(state, record.order, depth)
            print(f"{record.id} perft {depth} {nodes} ({time.perf_counter() - started:.1f} s)", flush=True)
            counts.append((depth, nodes))
        out.append(
            perft.format_perft(perft.PerftRecord(record.id, record.grid, record.order, record.setup, tuple(counts)))
        )
    DATA.write_text(header + "\n" + "\n".join(out), "utf-8")


if __name__ == "__main__":
    main()
