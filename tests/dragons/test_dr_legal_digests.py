"""Драконы' legal moves answer, state by state along seeded random and bot games, exactly as the
eager listing they replaced did: the same descriptors in the same order and the same protos
(`support.legalkit`; the digests were written by the old code)."""

from __future__ import annotations

from support import legalkit


def test_every_answer_is_the_stored_one() -> None:
    assert legalkit.lines("dragons") == legalkit.stored("dragons")
