"""Bot hooks: the easy bot prefers scoring moves; determinize keeps the seat's view; evaluate."""

from __future__ import annotations

import random

from dr_helpers import BLUE, RED, cell, give_hand, put, put_line, table

from dragons import commands as c
from dragons.game import GAME
from tablehall_rules import Viewer


def test_the_easy_bot_takes_the_scoring_placement() -> None:
    t = table(red=(5, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [1, 2, 3, 4])
    legal = t.legal(RED)
    view = t.view(RED)
    for seed in range(5):
        choice = GAME.bot_policy(view, legal, random.Random(seed))
        assert isinstance(choice, c.PlaceDie) and choice.face == 5
        assert choice.cell in (cell(4, 3), cell(-1, 3))


def test_the_random_policy_plays_a_legal_command() -> None:
    t = table(red=(5, 1, 1))
    put(t, 0, 3, RED, 1)
    legal = t.legal(RED)
    assert GAME.random_policy(t.view(RED), legal, random.Random(1)) in legal


def test_determinize_resamples_only_the_opponents_hand() -> None:
    t = table(round_no=5)
    put(t, 0, 3, RED, 6)
    give_hand(t, RED, (1, 2))
    give_hand(t, BLUE, (3, 4), (5, 6))
    st = t.state
    view = t.view(RED)
    hands = set()
    for seed in range(12):
        sample = GAME.determinize(view, RED, random.Random(seed))
        assert GAME.view(sample, Viewer.of_seat(RED)) == view
        assert sample.player(RED).hand == st.player(RED).hand
        assert len(sample.player(BLUE).hand) == 2 and len(sample.player(BLUE).bazaar) == 26
        hands.add(tuple(sample.player(BLUE).hand))
    assert len(hands) > 1


def test_evaluate_favours_the_leader_with_a_king() -> None:
    t = table(round_no=5)
    put(t, 0, 3, RED, 6)
    put(t, 0, -3, BLUE, 6)
    st = t.state
    st.player(RED).score = 30
    assert GAME.evaluate(st, RED) > 0.5 > GAME.evaluate(st, BLUE)
    st.owner[cell(0, 3)] = -1  # red loses its only king: its 30 count for nothing
    assert GAME.evaluate(st, RED) <= 0.5
