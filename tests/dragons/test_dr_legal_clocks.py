"""Descriptors (where each die may go and why), discards, clocks, defaults and the AFK ladder."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from dr_helpers import BLUE, RED, cell, give_hand, of, put, put_line, scene, table

from dragons import commands as c
from dragons.events import ClockExpired, DieDiscarded, DiePlaced, SeatActed
from dragons.game import GAME
from dragons.legal import legal_moves
from tablehall_rules import AFK_CLOCK_MS, Choice, LegalMove, Rule


def _domains(moves: Sequence[LegalMove], kind: type[msgspec.Struct]) -> list[LegalMove]:
    return [m for m in moves if isinstance(m.command, kind)]


def test_each_rolled_die_gets_its_cells_and_corner_cells_name_their_combination() -> None:
    t = table(red=(5, 1, 1))
    put_line(t, RED, (0, 0), (1, 1), [1, 2, 3, 4])
    moves = legal_moves(t.state, RED, 0)
    fives = [m for m in moves if isinstance(m.command, c.PlaceDie) and m.command.face == 5]
    plain = next(m.params[0].domain for m in fives if isinstance(m.params[0].domain, Choice))
    assert isinstance(plain, Choice)
    assert cell(4, 3) in plain.values and cell(4, 4) not in plain.values
    corner = [
        m for m in fives if isinstance(m.params[0].domain, Rule) and m.params[0].domain.name.startswith("corner:")
    ]
    named = {m.params[0].domain.name: m.params[0].domain.examples for m in corner}  # type: ignore[union-attr]
    assert named["corner:straight_diagonal"] == sorted([cell(-1, -1), cell(4, 4)])
    ones = [m for m in moves if isinstance(m.command, c.PlaceDie) and m.command.face == 1]
    assert not any(
        isinstance(m.params[0].domain, Rule) and m.params[0].domain.name not in ("contour", "corner:contour")
        for m in ones
    )
    for command in t.legal(RED):
        assert scene(t).play(command)


def test_chess_and_domino_descriptors_from_round_three() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    put(t, 0, 3, RED, 4)
    give_hand(t, RED, (2, 3))
    moves = legal_moves(t.state, RED, 0)
    (rook,) = _domains(moves, c.ChessMove)
    assert {p.field for p in rook.params} == {"face", "target", "contour"}
    dominoes = _domains(moves, c.PlaceDomino)
    assert dominoes and dominoes[0].command.first == 2 and dominoes[0].command.second == 3  # type: ignore[attr-defined]
    pairs = next(p.domain for p in dominoes[0].params if p.field == "cells")
    assert isinstance(pairs, Choice) and [cell(1, 3), cell(2, 3)] in pairs.values
    assert [cell(3, 3), cell(4, 3)] not in pairs.values


def test_a_die_is_discarded_only_when_no_use_exists() -> None:
    t = table(red=(1, 2, 3))  # red has no die on the board and rolled no six
    moves = legal_moves(t.state, RED, 0)
    assert [m.command for m in moves] == [c.DiscardDie(face=1), c.DiscardDie(face=2), c.DiscardDie(face=3)]
    assert of(scene(t).play(c.DiscardDie(face=2)), DieDiscarded)
    (decision,) = t.pending()
    assert GAME.default_command(t.state, decision) == c.DiscardDie(face=1)
    put(t, 0, 3, RED, 1)
    t.refused(c.DiscardDie(face=2), "DIE_HAS_USE")


def test_a_run_out_clock_plays_the_default_and_makes_the_seat_afk() -> None:
    t = table(red=(2, 3, 4))
    put(t, 0, 3, RED, 1)
    (decision,) = t.pending()
    default = GAME.default_command(t.state, decision)
    assert isinstance(default, c.PlaceDie) and default.face == 2 and default.contour == []
    # the match has checked the deadline and the default (SubmitDefaultCommand); decide only
    # records that the clock made the move
    events = t.play(default, now_ms=decision.deadline_ms, timed_out=decision)
    assert [type(e) for e in events][:2] == [ClockExpired, DiePlaced]
    assert (events[0].kind, events[0].key) == ("turn", decision.key)  # type: ignore[attr-defined]
    assert t.state.afk.afk[RED] and t.state.clock_for(RED) == AFK_CLOCK_MS
    # blue plays, then red acts itself: back from AFK
    (d,) = t.pending()
    put(t, 0, -3, BLUE, 1)
    t.play(GAME.default_command(t.state, d), seat=BLUE)
    (d,) = t.pending()
    assert d.seat == RED and d.clock_ms == AFK_CLOCK_MS
    events = t.play(GAME.default_command(t.state, d), seat=RED)
    assert of(events, SeatActed)
    assert not t.state.afk.afk[RED]


def test_descriptors_count_black_dice_as_contact_for_dice_and_dominoes() -> None:
    from dragons.board import BLACK

    t = table(round_no=3, red=(2, 3, 4))
    put(t, 0, 3, BLACK, 5)
    give_hand(t, RED, (1, 1))
    moves = legal_moves(t.state, RED, 0)
    plain = next(m.params[0].domain for m in moves if isinstance(m.command, c.PlaceDie))
    assert isinstance(plain, Choice) and cell(1, 3) in plain.values
    pairs = [
        p.domain
        for m in moves
        if isinstance(m.command, c.PlaceDomino)
        for p in m.params
        if p.field == "cells" and isinstance(p.domain, Choice)
    ]
    assert len(pairs) == 1 and [cell(1, 3), cell(2, 3)] in pairs[0].values
