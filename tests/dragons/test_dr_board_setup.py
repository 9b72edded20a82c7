"""The board (333 cells, the border row, the halves) and the start (the ring, the sixes, round 1)."""

from __future__ import annotations

from collections import Counter

from dr_helpers import BLUE, RED, Dice, cell, of, refused, then, when

from dragons import commands as c
from dragons.board import grid, half_of
from dragons.events import RoundStarted, SixesPlaced, StartDiePlaced, StartDieRolled, TurnStarted
from dragons.evolve import evolve
from dragons.game import GAME
from dragons.pending import default_command, pending
from dragons.state import SETUP, TURN, State, round_order
from tablehall_rules import DecideContext, SeatInfo


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


def started(dice: tuple[int, ...] = (3,)) -> State:
    seats = [SeatInfo(0, "u0", "Red"), SeatInfo(1, "u1", "Blue")]
    state = None
    for e in GAME.start({}, seats, DecideContext(None, 1000, Dice(*dice))):
        state = evolve(state, e)  # type: ignore[arg-type]
    assert isinstance(state, State)
    return state


def test_red_rolls_first_and_places_on_its_own_marked_cells_only() -> None:
    st = started((4,))
    assert st.phase == SETUP and st.active == RED and st.setup_face == 4
    refused(st, c.PlaceStart(cell=cell(0, -1)), "NOT_A_START_CELL")  # blue's ring cell
    refused(st, c.PlaceStart(cell=cell(0, 0)), "NOT_A_START_CELL")  # the centre stays empty
    refused(st, c.PlaceStart(cell=cell(0, -1)), "NOT_YOUR_TURN", seat=BLUE)
    events = when(st, c.PlaceStart(cell=cell(0, 1)), dice=(2,))
    assert of(events, StartDiePlaced)[0].face == 4
    assert of(events, StartDieRolled) == [StartDieRolled(at_ms=events[-1].at_ms, seat=BLUE, face=2)]


def test_the_ring_fills_alternately_then_the_sixes_and_round_one() -> None:
    st = started((1,))
    faces = [2, 3, 4, 5, 6, 1, 2]
    for face in faces:
        (d,) = pending(st)
        st = then(st, when(st, default_command(st, d), seat=d.seat, dice=(face,)))
    (d,) = pending(st)
    assert d.seat == BLUE
    events = when(st, default_command(st, d), seat=BLUE, dice=(6, 6, 6, 1, 1))
    sixes = of(events, SixesPlaced)[0]
    assert sixes.cells == [cell(0, 5), cell(0, -5)]
    rolled = of(events, RoundStarted)[0]
    assert rolled.round == 1 and len(rolled.rolled[RED]) == 3 and len(rolled.rolled[BLUE]) == 2
    assert of(events, TurnStarted)[0].seat == RED
    st = then(st, events)
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
