"""Rounds of five turns, the end after 22 rounds, the king-six rule and domino pips in hand."""

from __future__ import annotations

from dr_helpers import BLACK, BLUE, RED, Dice, cell, give_hand, of, put, put_domino, refused, table, then, when

from dragons import commands as c
from dragons.events import GameEnded, RoundStarted, TurnStarted
from dragons.game import GAME
from dragons.pending import default_command, pending
from dragons.rules.end import final_score
from dragons.state import State
from tablehall_rules import DecideContext
from tablehall_rules.table import CloseTable, RemovePlayer


def last_turn() -> State:
    st = table(round_no=22, red=(), blue=(1,), active=BLUE, index=4)
    put(st, 0, -3, BLUE, 2)
    return st


def test_a_round_is_five_turns_in_the_colour_order() -> None:
    st = table(round_no=1, red=(1, 2, 3), blue=(4, 5))
    put(st, 0, 3, RED, 1)
    put(st, 0, -3, BLUE, 1)
    seats = []
    while st.round == 1 and st.phase == "turn":
        (decision,) = pending(st)
        seats.append(decision.seat)
        st = then(st, when(st, default_command(st, decision), seat=decision.seat, dice=(1, 1, 1, 1, 1)))
    assert seats == [RED, BLUE, RED, BLUE, RED]
    assert st.rolled == [[], []]


def test_the_game_ends_after_round_22_with_final_scores() -> None:
    st = last_turn()
    put(st, 0, 3, RED, 6)  # red's king-six
    st.player(RED).score = 20
    st.player(BLUE).score = 30  # blue has no king-six of its own: 0
    put_domino(st, BLUE, (4, -4), (5, -4), (6, 6))  # domino sixes do not count
    put(st, -4, -4, BLACK, 6)  # nor black sixes
    give_hand(st, RED, (1, 2))
    events = when(st, c.PlaceDie(face=1, cell=cell(0, -4)), seat=BLUE)
    (ended,) = of(events, GameEnded)
    assert ended.reason == "rounds" and ended.king == [True, False]
    assert ended.final == [17, 0] and ended.hand_pips == [3, 0]
    assert ended.places == [[RED], [BLUE]]
    outcome = GAME.outcome(then(st, events))
    assert outcome is not None and outcome.places == [[RED], [BLUE]] and outcome.scores == {0: 17, 1: 0}


def test_without_a_king_the_score_is_zero_then_hand_pips_are_subtracted() -> None:
    st = last_turn()
    st.player(RED).score = 50
    give_hand(st, RED, (3, 4))
    assert final_score(st, RED) == -7
    put(st, 5, 5, RED, 6)
    assert final_score(st, RED) == 43


def test_equal_final_scores_share_the_place() -> None:
    st = last_turn()
    put(st, 0, 3, RED, 6)
    put(st, 0, -5, BLUE, 6)
    (ended,) = of(when(st, c.PlaceDie(face=1, cell=cell(0, -4)), seat=BLUE), GameEnded)
    assert ended.places == [[RED, BLUE]]


def test_nothing_is_played_after_the_end() -> None:
    st = last_turn()
    st = then(st, when(st, c.PlaceDie(face=1, cell=cell(0, -4)), seat=BLUE))
    refused(st, c.PlaceDie(face=1, cell=cell(0, -5)), "GAME_OVER", seat=BLUE)


def test_a_removed_player_loses_and_the_table_closes_by_score() -> None:
    st = table()
    refused(st, RemovePlayer(seat=RED), "SYSTEM_ONLY", seat=RED)
    (ended,) = of(when(st, RemovePlayer(seat=RED), seat=None), GameEnded)
    assert ended.places == [[BLUE], [RED]] and ended.reason == "removed"
    (ended,) = of(when(st, CloseTable(reason="idle"), seat=None), GameEnded)
    assert ended.reason == "idle" and ended.places == [[RED, BLUE]]


def test_a_round_rolls_three_dice_of_the_openers_colour_and_two_of_the_other() -> None:
    st = table(round_no=1, red=(1,), blue=(), active=RED, index=4)
    put(st, 0, 3, RED, 1)
    give_hand(st, RED, (0, 1), (0, 2), (0, 3), (0, 4))
    give_hand(st, BLUE, (0, 1), (0, 2), (0, 3), (0, 4))
    events = GAME.decide(st, c.PlaceDie(face=1, cell=cell(0, 4)), DecideContext(RED, 1, Dice(6, 5, 4, 3, 2)))
    (rolled,) = of(events, RoundStarted)  # type: ignore[arg-type]
    assert rolled.rolled == [[3, 2], [6, 5, 4]]
    assert of(events, TurnStarted)[0].seat == BLUE  # type: ignore[arg-type]
