"""Given a table / when a command / then events or a refusal: helpers for the Драконы rule tests.

`table(...)` is a table in a turn of some round with an empty board; `put` sets cells directly
(the given facts of a scenario). `when` decides and checks that decide left its input unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from dragons.board import BLACK, BLUE, RED
from dragons.decide import decide
from dragons.events import Event, GameStarted, RoundStarted, SeatEntry, TurnStarted
from dragons.evolve import evolve
from dragons.state import PlacedDomino, State
from tablehall_boards import disk
from tablehall_boards.dominoes import tile
from tablehall_rules import DecideContext, DrawSource, RuleError

__all__ = ["BLACK", "BLUE", "RED"]

T0 = 1_000_000


class Dice(DrawSource):
    """A draw source that answers the scripted values first."""

    def __init__(self, *values: int) -> None:
        super().__init__(b"\x07" * 32)
        self.values = list(values)

    def randint(self, lo: int, hi: int) -> int:
        if self.values:
            value = self.values.pop(0)
            assert lo <= value <= hi, (value, lo, hi)
            return value
        return super().randint(lo, hi)


def cell(x: int, y: int) -> int:
    return disk.grid().cell(x, y)


def xy(c: int) -> tuple[int, int]:
    return disk.grid().coord(c)


def table(
    round_no: int = 1,
    red: Sequence[int] = (1, 2, 3),
    blue: Sequence[int] = (4, 5),
    active: int = RED,
    index: int = 0,
) -> State:
    events: list[Event] = [
        GameStarted(at_ms=T0, seats=[SeatEntry(seat=0, name="Red"), SeatEntry(seat=1, name="Blue")], clock_ms=60_000),
        RoundStarted(at_ms=T0, round=round_no, rolled=[list(red), list(blue)]),
        TurnStarted(at_ms=T0, seat=active, round=round_no, index=index),
    ]
    state: State | None = None
    for e in events:
        state = evolve(state, e)
    assert state is not None
    return state


def put(st: State, x: int, y: int, owner: int, face: int) -> int:
    c = cell(x, y)
    st.owner[c] = owner
    st.face[c] = face
    return c


def put_line(st: State, owner: int, start: tuple[int, int], step: tuple[int, int], faces: Sequence[int]) -> list[int]:
    x, y = start
    dx, dy = step
    return [put(st, x + i * dx, y + i * dy, owner, f) for i, f in enumerate(faces)]


def put_domino(st: State, seat: int, a: tuple[int, int], b: tuple[int, int], pips: tuple[int, int]) -> list[int]:
    cells = [put(st, *a, seat, pips[0]), put(st, *b, seat, pips[1])]
    ident = len(st.dominoes)
    for c in cells:
        st.domino[c] = ident
    st.dominoes.append(PlacedDomino(id=ident, seat=seat, cells=cells, pips=list(pips)))
    st.player(seat).bazaar.remove(tile(*pips))
    return cells


def give_hand(st: State, seat: int, *tiles: tuple[int, int]) -> None:
    for a, b in tiles:
        t = tile(a, b)
        st.player(seat).bazaar.remove(t)
        st.player(seat).hand = sorted([*st.player(seat).hand, t])


def when(
    st: State, command: Any, seat: int | None = RED, dice: Sequence[int] = (), now_ms: int = T0 + 1
) -> list[Event]:
    before = msgspec.json.encode(st)
    try:
        return decide(st, command, DecideContext(seat, now_ms, Dice(*dice)))
    finally:
        assert msgspec.json.encode(st) == before, "decide changed its input state"


def refused(st: State, command: Any, reason: str, seat: int | None = RED) -> RuleError:
    with pytest.raises(RuleError) as caught:
        when(st, command, seat)
    assert caught.value.reason == reason, caught.value
    return caught.value


def then(st: State, events: Sequence[Event]) -> State:
    for e in events:
        st = evolve(st, e)
    return st


def of(events: Sequence[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
