"""Pieces, captures, elimination, turn order, winning, surrender, the clock."""

from __future__ import annotations

import msgspec
from hm_helpers import board, cell, fresh, refused, safe_step, to_action, when, with_top

from homunculus import commands as c
from homunculus import events as e
from homunculus.cards import Card
from homunculus.game import GAME
from homunculus.state import Mine, PlacedDomino, State
from tablehall_boards import Kind
from tablehall_boards.dominoes import tile
from tablehall_rules import DecideContext, DrawSource

Q0 = Card(0, "queen")
P0 = Card(0, "pawn")


def test_pawn_steps_two_from_its_start_row_and_not_later() -> None:
    s = fresh(2)
    s.mines = []
    s.hands[0] = [P0, P0]
    with_top(s, Card(1, "skip"))
    _, after = when(s, c.PlayCard(0, "pawn", origin=cell("e2"), target=cell("e4")))
    assert after.pieces[cell("e4")].kind == Kind.PAWN
    assert refused(s, c.PlayCard(0, "pawn", origin=cell("e2"), target=cell("e5")), reason="NO_SUCH_MOVE")


def test_king_is_taken_like_any_piece_and_its_army_leaves() -> None:
    s = board(3, pieces={"h5": (Kind.QUEEN, 0), "h9": (Kind.KING, 1), "e9": (Kind.ROOK, 1), "g14": (Kind.KING, 2)})
    s.hands[0] = [Q0, Q0]
    s.dominoes = [PlacedDomino(0, 1, 2, 3, cell("e6"), cell("f6"))]
    s.mines = [Mine(cell("j7"), 1)]
    hand1 = list(s.hands[1])
    with_top(s, Card(3, "pawn"))
    events, after = when(s, c.PlayCard(0, "queen", origin=cell("h5"), target=cell("h9")))
    assert e.Eliminated(1, "king") in events
    assert not after.alive[1]
    assert all(p.side != 1 for p in after.pieces.values())
    assert after.dominoes == [] and tile(2, 3) in after.removed_tiles
    assert after.hands[1] == [] and list(after.deck.discard_pile[: len(hand1)]) == hand1
    assert after.mines == [Mine(cell("j7"), None)]
    assert after.gold[0] == 30 + 5
    assert not after.finished and after.turn == 2


def test_last_survivor_wins() -> None:
    s = board(2, pieces={"h5": (Kind.QUEEN, 0), "h9": (Kind.KING, 1)})
    s.hands[0] = [Q0, Q0]
    with_top(s, Card(3, "pawn"))
    _, after = when(s, c.PlayCard(0, "queen", origin=cell("h5"), target=cell("h9")))
    assert after.finished
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.places == [[0], [1]]


def test_allies_cannot_take_each_other_and_a_team_with_a_king_wins() -> None:
    s = board(4, teams=True, pieces={"h5": (Kind.QUEEN, 0), "h9": (Kind.KING, 2), "h3": (Kind.KING, 1)})
    s.hands[0] = [Q0, Q0]
    with_top(s, Card(3, "pawn"))
    assert refused(s, c.PlayCard(0, "queen", origin=cell("h5"), target=cell("h9")), reason="NO_SUCH_MOVE")
    s.pieces = {cell("h5"): s.pieces[cell("h5")], cell("h9"): s.pieces[cell("h9")], cell("h3"): s.pieces[cell("h3")]}
    s.alive[3] = False
    s.eliminated = [3]
    _, after = when(s, c.PlayCard(0, "queen", origin=cell("h5"), target=cell("h3")))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.places == [[0, 2], [1, 3]] and outcome.teams == [[0, 2], [1, 3]]


def test_turns_go_clockwise_through_the_live_players() -> None:
    s = fresh(3)
    order = []
    for _ in range(4):
        order.append(s.turn)
        _, s = when(s, c.DrawCard())
        _, s = when(s, c.KeepCard())
        s = to_action(s)  # the next turn's ring part
    assert order == [0, 1, 2, 0]


def test_surrender_out_of_turn_takes_the_army_off() -> None:
    s = fresh(3)
    events, after = when(s, c.Surrender(), seat=2)
    assert e.Eliminated(2, "surrender") in events
    assert not after.alive[2] and all(p.side != 2 for p in after.pieces.values())
    assert after.turn == 0
    assert refused(after, c.DrawCard(), seat=2, reason="ELIMINATED")


def test_three_turns_ended_by_the_clock_put_a_player_out() -> None:
    s = fresh(2)
    events: list[msgspec.Struct] = []

    def step(s: State) -> State:
        """Player 0's decisions (its turn's and its bids) end by the clock, player 1 plays safe."""
        nonlocal events
        mine = [d for d in GAME.pending(s) if d.seat == 0 and d.has_clock]
        if not mine:
            command, seat = safe_step(s)
            return when(s, command, seat=seat)[1]
        decision = mine[0]
        ctx = DecideContext(0, decision.deadline_ms, DrawSource(b"t"), timed_out=decision)
        events = GAME.decide(s, GAME.default_command(s, decision), ctx)
        for ev in events:
            s = GAME.evolve(s, ev)
        return s

    for round_no in range(3):
        while s.alive[0] and s.turn == 0:
            s = step(s)
        if round_no < 2:
            assert s.alive[0] and s.turn == 1 and s.afk.strikes[0] == round_no + 1
            while s.phase in ("buy", "auction", "dungeon"):
                s = step(s)
            _, s = when(s, c.DrawCard())
            _, s = when(s, c.KeepCard())
    assert not s.alive[0] and s.finished
    assert e.Eliminated(0, "clock") in events


def test_not_your_turn() -> None:
    s = fresh(2)
    assert refused(s, c.DrawCard(), seat=1, reason="NOT_YOUR_TURN")


def test_promotion_to_a_queen_on_the_eighth_row() -> None:
    s = board(2, pieces={"e7": (Kind.PAWN, 0)})
    s.hands[0] = [P0, P0]
    with_top(s, Card(3, "skip"))
    _, after = when(s, c.PlayCard(0, "pawn", origin=cell("e7"), target=cell("e8")))
    assert after.pieces[cell("e8")].kind == Kind.QUEEN
