"""Scene set-up for the Драконы rule tests, which play on `tablehall_rules.testing.Table`.

`table(...)` is a table in a turn of some round with an empty board; `put`, `put_line`,
`put_domino` and `give_hand` set cells and hands directly (the given facts of a scenario);
`scene(t)` is the same scene on a copy, to try another command from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from dragons.board import BLACK, BLUE, RED
from dragons.events import GameStarted, RoundStarted, SeatEntry, TurnStarted
from dragons.game import GAME
from dragons.state import PlacedDomino, State
from tablehall_boards import disk
from tablehall_boards.dominoes import tile
from tablehall_rules import clone
from tablehall_rules.testing import Table

__all__ = ["BLACK", "BLUE", "RED"]

T0 = 1_000_000
# the time commands are played at: just after the turn opened
NOW = T0 + 1


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
) -> Table[State]:
    """Red and Blue in turn `index` of round `round_no` (`active` to move), these dice rolled."""
    return Table.from_events(
        GAME,
        [
            GameStarted(
                at_ms=T0, seats=[SeatEntry(seat=0, name="Red"), SeatEntry(seat=1, name="Blue")], clock_ms=60_000
            ),
            RoundStarted(at_ms=T0, round=round_no, rolled=[list(red), list(blue)]),
            TurnStarted(at_ms=T0, seat=active, round=round_no, index=index),
        ],
        now_ms=NOW,
    )


def scene(t: Table[State]) -> Table[State]:
    """The same scene on a copy of the state: a command played there leaves `t` as it is."""
    return Table.from_state(GAME, clone(t.state), now_ms=t.now_ms)


def put(t: Table[State], x: int, y: int, owner: int, face: int) -> int:
    c = cell(x, y)
    t.state.owner[c] = owner
    t.state.face[c] = face
    return c


def put_line(
    t: Table[State], owner: int, start: tuple[int, int], step: tuple[int, int], faces: Sequence[int]
) -> list[int]:
    x, y = start
    dx, dy = step
    return [put(t, x + i * dx, y + i * dy, owner, f) for i, f in enumerate(faces)]


def put_domino(t: Table[State], seat: int, a: tuple[int, int], b: tuple[int, int], pips: tuple[int, int]) -> list[int]:
    st = t.state
    cells = [put(t, *a, seat, pips[0]), put(t, *b, seat, pips[1])]
    ident = len(st.dominoes)
    for c in cells:
        st.domino[c] = ident
    st.dominoes.append(PlacedDomino(id=ident, seat=seat, cells=cells, pips=list(pips)))
    st.player(seat).bazaar.remove(tile(*pips))
    return cells


def give_hand(t: Table[State], seat: int, *tiles: tuple[int, int]) -> None:
    player = t.state.player(seat)
    for a, b in tiles:
        found = tile(a, b)
        player.bazaar.remove(found)
        player.hand = sorted([*player.hand, found])


def of(events: Sequence[msgspec.Struct], kind: type[Any]) -> list[Any]:
    """The events of one kind, in order."""
    return [e for e in events if isinstance(e, kind)]
