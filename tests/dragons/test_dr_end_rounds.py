"""Rounds of five turns, the end after 22 rounds, the king-six rule and domino pips in hand."""

from __future__ import annotations

from dr_helpers import BLACK, BLUE, RED, cell, give_hand, of, put, put_domino, scene, table

from dragons import commands as c
from dragons.events import GameEnded, RoundStarted, TurnStarted
from dragons.game import GAME
from dragons.rules.end import final_score
from dragons.state import State
from tablehall_rules.table import CloseTable, RemovePlayer
from tablehall_rules.testing import Table


def last_turn() -> Table[State]:
    t = table(round_no=22, red=(), blue=(1,), active=BLUE, index=4)
    put(t, 0, -3, BLUE, 2)
    return t


def test_a_round_is_five_turns_in_the_colour_order() -> None:
    t = table(round_no=1, red=(1, 2, 3), blue=(4, 5))
    put(t, 0, 3, RED, 1)
    put(t, 0, -3, BLUE, 1)
    seats = []
    while t.state.round == 1 and t.state.phase == "turn":
        (decision,) = t.pending()
        seats.append(decision.seat)
        t.play(GAME.default_command(t.state, decision), seat=decision.seat)
    assert seats == [RED, BLUE, RED, BLUE, RED]
    assert t.state.rolled == [[], []]


def test_the_game_ends_after_round_22_with_final_scores() -> None:
    t = last_turn()
    put(t, 0, 3, RED, 6)  # red's king-six
    t.state.player(RED).score = 20
    t.state.player(BLUE).score = 30  # blue has no king-six of its own: 0
    put_domino(t, BLUE, (4, -4), (5, -4), (6, 6))  # domino sixes do not count
    put(t, -4, -4, BLACK, 6)  # nor black sixes
    give_hand(t, RED, (1, 2))
    events = t.play(c.PlaceDie(face=1, cell=cell(0, -4)), seat=BLUE)
    (ended,) = of(events, GameEnded)
    assert ended.reason == "rounds" and ended.king == [True, False]
    assert ended.final == [17, 0] and ended.hand_pips == [3, 0]
    assert ended.places == [[RED], [BLUE]]
    outcome = t.outcome()
    assert outcome is not None and outcome.places == [[RED], [BLUE]] and outcome.scores == {0: 17, 1: 0}


def test_without_a_king_the_score_is_zero_then_hand_pips_are_subtracted() -> None:
    t = last_turn()
    t.state.player(RED).score = 50
    give_hand(t, RED, (3, 4))
    assert final_score(t.state, RED) == -7
    put(t, 5, 5, RED, 6)
    assert final_score(t.state, RED) == 43


def test_equal_final_scores_share_the_place() -> None:
    t = last_turn()
    put(t, 0, 3, RED, 6)
    put(t, 0, -5, BLUE, 6)
    (ended,) = of(t.play(c.PlaceDie(face=1, cell=cell(0, -4)), seat=BLUE), GameEnded)
    assert ended.places == [[RED, BLUE]]


def test_nothing_is_played_after_the_end() -> None:
    t = last_turn()
    t.play(c.PlaceDie(face=1, cell=cell(0, -4)), seat=BLUE)
    t.refused(c.PlaceDie(face=1, cell=cell(0, -5)), "GAME_OVER", seat=BLUE)


def test_a_removed_player_loses_and_the_table_closes_by_score() -> None:
    t = table()
    t.refused(RemovePlayer(seat=RED), "SYSTEM_ONLY", seat=RED)
    (ended,) = of(scene(t).play(RemovePlayer(seat=RED), seat=None), GameEnded)
    assert ended.places == [[BLUE], [RED]] and ended.reason == "removed"
    (ended,) = of(t.play(CloseTable(reason="idle"), seat=None), GameEnded)
    assert ended.reason == "idle" and ended.places == [[RED, BLUE]]


def test_a_round_rolls_three_dice_of_the_openers_colour_and_two_of_the_other() -> None:
    t = table(round_no=1, red=(1,), blue=(), active=RED, index=4)
    put(t, 0, 3, RED, 1)
    give_hand(t, RED, (0, 1), (0, 2), (0, 3), (0, 4))
    give_hand(t, BLUE, (0, 1), (0, 2), (0, 3), (0, 4))
    events = t.play(c.PlaceDie(face=1, cell=cell(0, 4)), dice=(6, 5, 4, 3, 2))
    (rolled,) = of(events, RoundStarted)
    assert rolled.rolled == [[3, 2], [6, 5, 4]]
    assert of(events, TurnStarted)[0].seat == BLUE
