"""`LegalMoves`: descriptors of which some parts are found only when a reader reaches them. Read
in full they are the eager list; a reader that stops early never runs the parts after; each part
runs once however it is read."""

from __future__ import annotations

from collections.abc import Iterable

from puzzipolia import commands as c
from tablehall_rules import IntRange, LegalMove, LegalMoves
from tablehall_rules.codec import StructCodec
from tablehall_rules.legal import admitted, count, expand_all, move

CODEC = StructCodec(c.COMMAND_TYPES)
ROLL = LegalMove(c.Roll())
BID = move(c.Bid(amount=0), amount=IntRange(10, 20, 5))
BUILD = LegalMove(c.Build(square=15))


class Counted:
    """A part that counts its runs."""

    def __init__(self, *moves: LegalMove) -> None:
        self.moves = list(moves)
        self.runs = 0

    def __call__(self) -> Iterable[LegalMove]:
        self.runs += 1
        return list(self.moves)


def test_read_in_full_they_are_the_eager_list_in_order() -> None:
    empty, later = Counted(), Counted(BID, BUILD)
    moves = LegalMoves([ROLL, empty, later])
    assert list(moves) == [ROLL, BID, BUILD]
    assert len(moves) == 3 and moves[1] == BID and moves[-1] == BUILD and moves[0:2] == [ROLL, BID]
    assert moves == [ROLL, BID, BUILD] and moves == LegalMoves([ROLL, BID, BUILD])
    assert list(moves) == [ROLL, BID, BUILD]  # read again: the parts ran once
    assert (empty.runs, later.runs) == (1, 1)


def test_a_reader_that_stops_early_runs_no_part_after() -> None:
    later = Counted(BUILD)
    moves = LegalMoves([ROLL, later])
    assert expand_all(moves, CODEC, limit=1) == [c.Roll()]
    assert moves[0] == ROLL and any(lm.size() for lm in moves)
    assert later.runs == 0
    assert admitted(moves, c.Build(square=15), CODEC)  # a reader that goes on finds it
    assert later.runs == 1 and count(moves) == 2


def test_two_readers_at_once_see_the_same_descriptors() -> None:
    later = Counted(BID, BUILD)
    moves = LegalMoves([later, ROLL])
    first, second = iter(moves), iter(moves)
    assert next(first) == BID and next(second) == BID
    assert list(first) == [BUILD, ROLL] and list(second) == [BUILD, ROLL]
    assert later.runs == 1
