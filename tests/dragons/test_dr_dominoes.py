"""Dominoes: taken at the end of a round (hidden, at most four), laid from round 3 for a die."""

from __future__ import annotations

from dr_helpers import BLUE, RED, T0, cell, give_hand, of, put, put_domino, refused, table, then, when

from dragons import commands as c
from dragons.events import (
    DominoAnswered,
    DominoChoiceOpened,
    DominoDeclined,
    DominoPlaced,
    DominoTaken,
    Event,
    RoundStarted,
)
from dragons.game import GAME
from dragons.pending import default_command, pending
from dragons.state import DOMINO, State
from tablehall_boards.dominoes import tile
from tablehall_rules import Viewer, clone


def end_of_round(round_no: int = 1):  # type: ignore[no-untyped-def]
    st = table(round_no=round_no, red=(1,), blue=(), active=RED, index=4)
    put(st, 0, 3, RED, 2)
    return st


def test_after_a_round_each_player_may_take_a_hidden_domino() -> None:
    st = end_of_round()
    events = when(st, c.PlaceDie(face=1, cell=cell(0, 4)))
    assert of(events, DominoChoiceOpened)[0].seats == [RED, BLUE]
    st = then(st, events)
    assert st.phase == DOMINO and {d.seat for d in pending(st)} == {RED, BLUE}
    assert all(default_command(st, d) == c.TakeDomino(take=False) for d in pending(st))
    events = when(st, c.TakeDomino(take=True), seat=BLUE)
    assert [type(e) for e in events] == [DominoAnswered]  # sealed: nothing drawn, nothing told yet
    st = then(st, events)
    assert GAME.view(st, Viewer.of_seat(BLUE))["me"]["domino_take"] is True
    refused(st, c.TakeDomino(take=True), "NO_DOMINO_CHOICE", seat=BLUE)
    events = when(st, c.TakeDomino(take=False), seat=RED, dice=(0, 1, 2, 3, 4, 5))
    (taken,) = of(events, DominoTaken)
    assert taken.seat == BLUE and taken.tile == tile(0, 0)
    assert of(events, DominoDeclined)[0].seat == RED and of(events, RoundStarted)[0].round == 2
    assert of(events, RoundStarted)[0].rolled == [[4, 5], [1, 2, 3]]  # round 2: 3 blue, 2 red
    st = then(st, events)
    assert GAME.view(st, Viewer.of_seat(BLUE))["me"]["hand"] == [[0, 0]]
    red_view = GAME.view(st, Viewer.of_seat(RED))
    assert red_view["me"]["hand"] == [] and red_view["players"][BLUE]["hand_size"] == 1
    assert "[0, 0]" not in str(GAME.view(st, Viewer.spectator())) and "hands" not in red_view
    assert GAME.view(st, Viewer.auditor())["hands"] == [[], [[0, 0]]]


def _seen_by(st: State, seat: int | None, events: list[Event]) -> object:
    """Everything `seat` (None: a spectator) is told after `events`: the view, the decisions,
    the legal moves, the journal lines it may read and the events' types."""
    viewer = Viewer.spectator() if seat is None else Viewer.of_seat(seat)
    before = clone(st)  # `then` evolves in place
    lines = []
    for e in events:
        lines += [
            (j.code, j.params, j.ru, j.en) for j in GAME.journal(before, e) if j.audience is None or seat in j.audience
        ]
        before = then(before, [e])
    legal = GAME.legal(before, seat, T0 + 2) if seat is not None else []
    return (GAME.view(before, viewer), GAME.pending(before), legal, lines, [type(e).__name__ for e in events])


def test_the_domino_choice_is_simultaneous_the_first_answer_stays_sealed() -> None:
    """Issue 30.4: the first answer (take or not) was public before the second seat decided."""
    st = then(end_of_round(), when(end_of_round(), c.PlaceDie(face=1, cell=cell(0, 4))))
    took = when(st, c.TakeDomino(take=True), seat=BLUE, dice=(0,))
    declined = when(st, c.TakeDomino(take=False), seat=BLUE, dice=(0,))
    for other in (RED, None):
        assert _seen_by(st, other, took) == _seen_by(st, other, declined), other
    assert _seen_by(st, BLUE, took) != _seen_by(st, BLUE, declined)  # the seat itself knows
    # the clock answers for the last seat: then both answers are told together
    after = then(st, took)
    (decision,) = pending(after)
    assert decision.seat == RED
    events = when(after, default_command(after, decision), seat=RED, dice=(0, 1, 2, 3, 4, 5))
    assert [type(e) for e in events][:3] == [DominoAnswered, DominoTaken, DominoDeclined]


def test_a_hand_of_four_takes_no_more() -> None:
    st = end_of_round()
    give_hand(st, BLUE, (0, 1), (0, 2), (0, 3), (0, 4))
    events = when(st, c.PlaceDie(face=1, cell=cell(0, 4)))
    assert of(events, DominoChoiceOpened)[0].seats == [RED]
    give_hand(st, RED, (0, 1), (0, 2), (0, 3), (0, 4))
    events = when(st, c.PlaceDie(face=1, cell=cell(0, 4)))
    assert not of(events, DominoChoiceOpened) and of(events, RoundStarted)[0].round == 2


def test_no_domino_choice_after_the_last_round_the_game_ends() -> None:
    st = end_of_round(22)
    events = when(st, c.PlaceDie(face=1, cell=cell(0, 4)))
    assert not of(events, DominoChoiceOpened)
    assert GAME.outcome(then(st, events)) is not None


def test_a_domino_is_laid_from_round_three_and_its_halves_score_as_own_dice() -> None:
    st = table(round_no=3, red=(1, 2, 3))
    give_hand(st, RED, (2, 3))
    for x, f in ((0, 1), (3, 4), (4, 5)):
        put(st, x, 3, RED, f)
    refused(st, c.PlaceDomino(face=1, first=3, second=3, cells=[cell(1, 3), cell(2, 3)]), "NOT_IN_HAND")
    events = when(st, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 3)]))
    (placed,) = of(events, DominoPlaced)
    assert [x.kind for x in placed.combos] == ["straight_line"]
    st = then(st, events)
    assert st.player(RED).hand == [] and st.face[cell(1, 3)] == 2 and st.domino[cell(2, 3)] == 0
    early = table(round_no=2, red=(1, 2), blue=(1, 1, 1), active=RED, index=1)
    give_hand(early, RED, (2, 3))
    put(early, 0, 3, RED, 1)
    refused(early, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 3)]), "NOT_BEFORE_ROUND_3")


def test_a_domino_touches_no_other_domino_even_by_a_corner() -> None:
    st = table(round_no=3, red=(1, 2, 3))
    give_hand(st, RED, (2, 3))
    put(st, 0, 3, RED, 1)
    put_domino(st, BLUE, (3, 4), (4, 4), (1, 1))
    refused(st, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 3)]), "DOMINO_CELLS")
    refused(st, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 4)]), "DOMINO_CELLS")
    assert of(when(st, c.PlaceDomino(face=1, first=3, second=2, cells=[cell(0, 2), cell(0, 1)])), DominoPlaced)


def test_one_half_follows_the_placement_rules() -> None:
    st = table(round_no=3, red=(1, 2, 3))
    give_hand(st, RED, (2, 3), (1, 6))
    put(st, 0, 3, RED, 1)
    refused(st, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(3, 3), cell(4, 3)]), "NOT_TOUCHING")
    refused(st, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 4), cell(2, 4)]), "CORNER_NEEDS_COMBINATION")
    # rule 4 for a six half on the own half
    assert of(when(st, c.PlaceDomino(face=1, first=6, second=1, cells=[cell(-6, 6), cell(-5, 6)])), DominoPlaced)


def test_a_domino_covers_two_side_neighbours() -> None:
    st = table(round_no=3, red=(1, 2, 3))
    give_hand(st, RED, (2, 3))
    put(st, 0, 3, RED, 1)
    refused(st, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(2, 4)]), "DOMINO_CELLS")
    refused(st, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(1, 3)]), "DOMINO_CELLS")
    refused(st, c.PlaceDomino(face=1, first=2, second=3, cells=[cell(1, 3), cell(0, 3)]), "DOMINO_CELLS")
