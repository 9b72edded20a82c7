"""Dominoes: taken at the end of a round (hidden, at most four), laid from round 3 for a die."""

from __future__ import annotations

import msgspec
from dr_helpers import BLUE, RED, T0, cell, give_hand, of, put, put_domino, scene, table

from dragons import commands as c
from dragons.events import (
    ClockExpired,
    DominoAnswered,
    DominoChoiceOpened,
    DominoDeclined,
    DominoPlaced,
    DominoTaken,
    RoundStarted,
)
from dragons.game import GAME
from dragons.state import DOMINO, State
from tablehall_boards.dominoes import tile
from tablehall_rules import Viewer, clone
from tablehall_rules.testing import Table


def end_of_round(round_no: int = 1) -> Table[State]:
    t = table(round_no=round_no, red=(1,), blue=(), active=RED, index=4)
    put(t, 0, 3, RED, 2)
    return t


def test_after_a_round_each_player_may_take_a_hidden_domino() -> None:
    t = end_of_round()
    events = t.play(c.PlaceDie(face=1, cell=cell(0, 4)))
    assert of(events, DominoChoiceOpened)[0].seats == [RED, BLUE]
    assert t.state.phase == DOMINO and {d.seat for d in t.pending()} == {RED, BLUE}
    assert all(GAME.default_command(t.state, d) == c.TakeDomino(take=False) for d in t.pending())
    events = t.play(c.TakeDomino(take=True), seat=BLUE)
    assert [type(e) for e in events] == [DominoAnswered]  # sealed: nothing drawn, nothing told yet
    assert t.view(BLUE)["me"]["domino_take"] is True
    t.refused(c.TakeDomino(take=True), "NO_DOMINO_CHOICE", seat=BLUE)
    events = t.play(c.TakeDomino(take=False), seat=RED, dice=(0, 1, 2, 3, 4, 5))
    (taken,) = of(events, DominoTaken)
    assert taken.seat == BLUE and taken.tile == tile(0, 0)
    assert of(events, DominoDeclined)[0].seat == RED and of(events, RoundStarted)[0].round == 2
    assert of(events, RoundStarted)[0].rolled == [[4, 5], [1, 2, 3]]  # round 2: 3 blue, 2 red
    assert t.view(BLUE)["me"]["hand"] == [[0, 0]]
    red_view = t.view(RED)
    assert red_view["me"]["hand"] == [] and red_view["players"][BLUE]["hand_size"] == 1
    assert "[0, 0]" not in str(t.view(Viewer.spectator())) and "hands" not in red_view
    assert t.view(Viewer.auditor())["hands"] == [[], [[0, 0]]]


def _seen_by(st: State, seat: int | None, events: list[msgspec.Struct]) -> object:
    """Everything `seat` (None: a spectator) is told after `events` from `st`: the view, the
    decisions, the legal moves, the journal lines it may read and the events' types."""
    viewer = Viewer.spectator() if seat is None else Viewer.of_seat(seat)
    before = clone(st)  # evolve works in place
    lines = []
    for e in events:
        lines += [
            (j.code, j.params, j.ru, j.en) for j in GAME.journal(before, e) if j.audience is None or seat in j.audience
        ]
        before = GAME.evolve(before, e)
    legal = GAME.legal(before, seat, T0 + 2) if seat is not None else []
    return (GAME.view(before, viewer), GAME.pending(before), legal, lines, [type(e).__name__ for e in events])


def test_the_domino_choice_is_simultaneous_the_first_answer_stays_sealed() -> None:
    """Issue 30.4: the first answer (take or not) was public before the second seat decided."""
    t = end_of_round()
    t.play(c.PlaceDie(face=1, cell=cell(0, 4)))
    took = scene(t).play(c.TakeDomino(take=True), seat=BLUE)
    declined = scene(t).play(c.TakeDomino(take=False), seat=BLUE)
    for other in (RED, None):
        assert _seen_by(t.state, other, took) == _seen_by(t.state, other, declined), other
    assert _seen_by(t.state, BLUE, took) != _seen_by(t.state, BLUE, declined)  # the seat itself knows
    # the clock answers for the last seat: then both answers are told together
    t.play(c.TakeDomino(take=True), seat=BLUE)
    (decision,) = t.pending()
    assert decision.seat == RED
    default = GAME.default_command(t.state, decision)
    events = t.play(default, seat=RED, dice=(0, 1, 2, 3, 4, 5), now_ms=decision.deadline_ms, timed_out=True)
    assert [type(e) for e in events][:4] == [ClockExpired, DominoAnswered, DominoTaken, DominoDeclined]


def test_a_hand_of_four_takes_no_more() -> None:
    t = end_of_round()
    give_hand(t, BLUE, (0, 1), (0, 2), (0, 3), (0, 4))
    events = scene(t).play(c.PlaceDie(face=1, cell=cell(0, 4)))
    assert of(events, DominoChoiceOpened)[0].seats == [RED]
    give_hand(t, RED, (0, 1), (0, 2), (0, 3), (0, 4))
    events = t.play(c.PlaceDie(face=1, cell=cell(0, 4)))
    assert not of(events, DominoChoiceOpened) and of(events, RoundStarted)[0].round == 2


def test_no_domino_choice_after_the_last_round_the_game_ends() -> None:
    t = end_of_round(22)
    events = t.play(c.PlaceDie(face=1, cell=cell(0, 4)))
    assert not of(events, DominoChoiceOpened)
    assert t.outcome() is not None


def test_a_domino_is_laid_from_round_three_and_its_halves_score_as_own_dice() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    give_hand(t, RED, (2, 3))
    for x, f in ((0, 1), (3, 4), (4, 5)):
        put(t, x, 3, RED, f)
    t.refused(c.PlaceDomino(face=1, first=3, second=3, cells=[cell(1, 3), cell(2, 3)]), "NOT_IN_HAND")
    events = t.play(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 3)]))
    (placed,) = of(events, DominoPlaced)
    assert [x.kind for x in placed.combos] == ["straight_line"]
    st = t.state
    assert st.player(RED).hand == [] and st.face[cell(1, 3)] == 2 and st.domino[cell(2, 3)] == 0
    early = table(round_no=2, red=(1, 2), blue=(1, 1, 1), active=RED, index=1)
    give_hand(early, RED, (2, 3))
    put(early, 0, 3, RED, 1)
    early.refused(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 3)]), "NOT_BEFORE_ROUND_3")


def test_a_domino_touches_no_other_domino_even_by_a_corner() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    give_hand(t, RED, (2, 3))
    put(t, 0, 3, RED, 1)
    put_domino(t, BLUE, (3, 4), (4, 4), (1, 1))
    t.refused(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 3)]), "DOMINO_CELLS")
    t.refused(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 4)]), "DOMINO_CELLS")
    assert of(t.play(c.PlaceDomino(face=1, first=3, second=2, cells=[cell(0, 2), cell(0, 1)])), DominoPlaced)


def test_one_half_follows_the_placement_rules() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    give_hand(t, RED, (2, 3), (1, 6))
    put(t, 0, 3, RED, 1)
    t.refused(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(3, 3), cell(4, 3)]), "NOT_TOUCHING")
    t.refused(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 4), cell(2, 4)]), "CORNER_NEEDS_COMBINATION")
    # rule 4 for a six half on the own half
    assert of(t.play(c.PlaceDomino(face=1, first=6, second=1, cells=[cell(-6, 6), cell(-5, 6)])), DominoPlaced)


def test_a_domino_covers_two_side_neighbours() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    give_hand(t, RED, (2, 3))
    put(t, 0, 3, RED, 1)
    t.refused(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 4)]), "DOMINO_CELLS")
    t.refused(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(1, 3)]), "DOMINO_CELLS")
    t.refused(c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(0, 3)]), "DOMINO_CELLS")
