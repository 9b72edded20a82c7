"""Rounds (every live player has had a turn, skipped turns count) and the 30-round rule:
30 rounds in a row without a capture end the game by army strength; equal is a draw."""

from __future__ import annotations

from hm_helpers import board, cell, fresh, to_action, when, with_top

from homunculus import commands as c
from homunculus import events as e
from homunculus.cards import Card
from homunculus.game import GAME
from tablehall_boards import Kind


def test_a_round_ends_when_every_live_player_has_had_a_turn() -> None:
    s = fresh(3)
    _, s = when(s, c.DrawCard())
    _, s = when(s, c.KeepCard())  # 0 -> 1
    _, s = when(to_action(s), c.DrawCard())
    _, s = when(s, c.KeepCard())  # 1 -> 2
    assert s.round_no == 0
    _, s = when(to_action(s), c.DrawCard())
    events, s = when(s, c.KeepCard())  # 2 -> 0: round over
    assert e.RoundEnded(0, quiet=True) in events and s.round_no == 1 and s.quiet_rounds == 1
    assert s.round_seen == [s.turn]


def test_a_skipped_turn_counts_for_the_round() -> None:
    s = fresh(3)
    with_top(s, Card(0, "pawn"))
    s.hands[0] = [Card(0, "skip"), Card(0, "pawn")]
    _, s = when(s, c.PlayCard(0, "skip"))  # 1 skipped, 2 plays
    assert sorted(s.round_seen) == [0, 1, 2] and s.turn == 2
    _, s = when(to_action(s), c.DrawCard())
    events, s = when(s, c.KeepCard())
    assert any(isinstance(ev, e.RoundEnded) for ev in events)


def test_thirty_quiet_rounds_end_the_game_by_army_strength() -> None:
    s = board(2, pieces={"d4": (Kind.QUEEN, 0), "e4": (Kind.ROOK, 1), "f4": (Kind.PAWN, 1)})
    s.quiet_rounds = 29
    s.turn = 1
    s.round_seen = [0, 1]
    _, s = when(s, c.DrawCard())
    events, s = when(s, c.KeepCard())
    assert e.Finished([[0], [1]], "strength") in events
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.reason == "strength" and outcome.places == [[0], [1]]


def test_equal_strength_is_a_draw() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0), "e4": (Kind.ROOK, 1)})
    s.quiet_rounds = 29
    s.turn = 1
    s.round_seen = [0, 1]
    _, s = when(s, c.DrawCard())
    _, s = when(s, c.KeepCard())
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.places == [[0, 1]]


def test_a_capture_makes_the_round_not_quiet() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0), "d9": (Kind.PAWN, 1)})
    s.quiet_rounds = 29
    s.turn = 0
    s.round_seen = [1, 0]
    s.hands[0] = [Card(0, "rook")] * 2
    with_top(s, Card(1, "pawn"))
    events, s = when(s, c.PlayCard(0, "rook", origin=cell("d4"), target=cell("d9")))
    assert e.RoundEnded(0, quiet=False) in events and s.quiet_rounds == 0 and not s.finished
