"""The load profile's attribution of sampled stacks (tests/load/profiler.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import profiler

LIBS = "/work/x/libs"
SERVICES = "/work/x/services"


def stack(*frames: str) -> str:
    return ";".join(frames)


def test_a_game_entry_called_by_a_service_is_put_down_to_the_service_and_the_entry() -> None:
    raw = "\n".join(
        [
            stack(
                "run (/usr/lib/python3.11/asyncio/runners.py:118)",
                f"MatchApp.submit ({SERVICES}/match/src/tablehall_match/app.py:500)",
                f"Dragons.legal ({LIBS}/dragons/src/dragons/game.py:90)",
                f"pockets ({LIBS}/dragons/src/dragons/pockets.py:12)",
            )
            + " 7",
            stack(
                "run (/usr/lib/python3.11/asyncio/runners.py:118)",
                f"Seats.act ({SERVICES}/bot/src/tablehall_bot/seats.py:40)",
                f"choose ({LIBS}/dragons/src/dragons/bot.py:12)",
            )
            + " 3",
            stack(
                "run (/usr/lib/python3.11/asyncio/runners.py:118)",
                f"Feed.frame ({SERVICES}/projection/src/tablehall_projection/live/feed.py:40)",
                "fetch (/venv/lib/python3.11/site-packages/asyncpg/connection.py:600)",
            )
            + " 2",
            stack("_uvloop_run (/venv/lib/python3.11/site-packages/uvloop/__init__.py:10)") + " 5",
        ]
    )
    counts = profiler.tally(raw)
    assert counts == {
        ("match", "legal"): 7,
        ("bot", "bot policy"): 3,
        ("projection", "PostgreSQL client"): 2,
        ("other", "event loop"): 5,
    }


def test_the_report_shares_the_measured_cpu_by_the_samples() -> None:
    raw = (
        stack(
            f"MatchApp.submit ({SERVICES}/match/src/tablehall_match/app.py:5)",
            f"Dragons.decide ({LIBS}/dragons/src/dragons/game.py:9)",
        )
        + " 3\n"
    )
    raw += stack(f"Seats.act ({SERVICES}/bot/src/tablehall_bot/seats.py:4)") + " 1\n"
    text = profiler.report(raw, moves=10, wall_s=1.0, game="dragons", cpu_us_per_move=1000.0)
    assert "match       75.0%     750 µs: decide 750" in text
    assert "bot         25.0%     250 µs: seats 250" in text
