"""The board (333 cells, the border row, the halves) and the start (the ring, the sixes, round 1)."""

from __future__ import annotations

from collections import Counter

from dr_helpers import BLUE, RED, cell, of

from dragons import commands as c
from dragons.board import grid, half_of
from dragons.events import RoundStarted, SixesPlaced, StartDiePlaced, StartDieRolled, TurnStarted
from dragons.game import GAME
from dragons.state import SETUP, TURN, State, round_order
from tablehall_rules import DecideContext, SeatInfo
from tablehall_rules.testing import Dice, Table


def test_the_board_has_333_cells_in_21_rows_with_the_border_row_neutral() -> None:
    g = grid()
    assert len(g) == 333
    rows = Counter(y for _, y in g.coords)
    assert sorted(rows) == list(range(-10, 11))
    assert rows[0] == 21 and rows[10] == rows[-10] == 5
    assert all(x * x + y * y <= 104 for x, y in g.coords)
    halves = Counter(half_of(c) for c in g)
    assert halves == {None: 21, RED: 156, BLUE: 156}
    assert all(half_of(cell(x, 0)) is None for x in range(-10, 11))
    assert half_of(cell(0, 1)) == RED and half_of(cell(0, -1)) == BLUE


def started(first: int) -> Table[State]:
    """A new table whose first start die (red's) rolled `first`."""
    seats = [SeatInfo(0, "u0", "Red"), SeatInfo(1, "u1", "Blue")]
    return Table.from_events(GAME, GAME.start({}, seats, DecideContext(None, 1000, Dice(first))), now_ms=1001)


def test_red_rolls_first_and_places_on_its_own_marked_cells_only() -> None:
    t = started(4)
    st = t.state
    assert st.phase == SETUP and st.active == RED and st.setup_face == 4
    t.refused(c.PlaceStart(cell=cell(0, -1)), "NOT_A_START_CELL")  # blue's ring cell
    t.refused(c.PlaceStart(cell=cell(0, 0)), "NOT_A_START_CELL")  # the centre stays empty
    t.refused(c.PlaceStart(cell=cell(0, -1)), "NOT_YOUR_TURN", seat=BLUE)
    events = t.play(c.PlaceStart(cell=cell(0, 1)), seat=RED, dice=(2,))
    assert of(events, StartDiePlaced)[0].face == 4
    assert of(events, StartDieRolled) == [StartDieRolled(at_ms=1001, seat=BLUE, face=2)]


def test_the_ring_fills_alternately_then_the_sixes_and_round_one() -> None:
    t = started(1)
    faces = [2, 3, 4, 5, 6, 1, 2]
    for face in faces:
        (d,) = t.pending()
        t.play(GAME.default_command(t.state, d), seat=d.seat, dice=(face,))
    (d,) = t.pending()
    assert d.seat == BLUE
    events = t.play(GAME.default_command(t.state, d), seat=BLUE, dice=(6, 6, 6, 1, 1))
    sixes = of(events, SixesPlaced)[0]
    assert sixes.cells == [cell(0, 5), cell(0, -5)]
    rolled = of(events, RoundStarted)[0]
    assert rolled.round == 1 and len(rolled.rolled[RED]) == 3 and len(rolled.rolled[BLUE]) == 2
    assert of(events, TurnStarted)[0].seat == RED
    st = t.state
    assert st.phase == TURN
    ring = {cell(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {cell(0, 0)}
    assert all(st.owner[x] == (RED if x in {cell(-1, 1), cell(0, 1), cell(1, 1), cell(1, 0)} else BLUE) for x in ring)
    assert st.owner[cell(0, 0)] == -1
    assert st.face[cell(0, 5)] == 6 and st.face[cell(0, -5)] == 6
    assert st.player(RED).dice_left == 55 and st.player(BLUE).dice_left == 55


def test_rounds_alternate_the_opener() -> None:
    assert round_order(1) == [RED, BLUE, RED, BLUE, RED]
    assert round_order(2) == [BLUE, RED, BLUE, RED, BLUE]
    assert round_order(21) == round_order(1) and round_order(22) == round_order(2)
