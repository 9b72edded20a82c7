"""Descriptors (where each die may go and why), discards, clocks, defaults and the AFK ladder."""

from __future__ import annotations

from dr_helpers import BLUE, RED, T0, Dice, cell, give_hand, of, put, put_line, refused, table, then, when

from dragons import commands as c
from dragons.decide import decide
from dragons.events import ClockExpired, DieDiscarded, DiePlaced, SeatActed
from dragons.legal import legal_moves
from dragons.pending import default_command, pending
from tablehall_rules import AFK_CLOCK_MS, Choice, DecideContext, Rule, StructCodec
from tablehall_rules.legal import expand_all

CODEC = StructCodec(c.COMMAND_TYPES)


def _domains(moves, kind):  # type: ignore[no-untyped-def]
    return [m for m in moves if isinstance(m.command, kind)]


def test_each_rolled_die_gets_its_cells_and_corner_cells_name_their_combination() -> None:
    st = table(red=(5, 1, 1))
    put_line(st, RED, (0, 0), (1, 1), [1, 2, 3, 4])
    moves = legal_moves(st, RED, 0)
    fives = [m for m in moves if isinstance(m.command, c.PlaceDie) and m.command.face == 5]
    plain = next(m for m in fives if isinstance(m.params[0].domain, Choice))
    assert cell(4, 3) in plain.params[0].domain.values  # type: ignore[union-attr]
    assert cell(4, 4) not in plain.params[0].domain.values  # type: ignore[union-attr]
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
    for command in expand_all(moves, CODEC):
        assert decide(st, command, DecideContext(RED, T0, Dice()))


def test_chess_and_domino_descriptors_from_round_three() -> None:
    st = table(round_no=3, red=(1, 2, 3))
    put(st, 0, 3, RED, 4)
    give_hand(st, RED, (2, 3))
    moves = legal_moves(st, RED, 0)
    (rook,) = _domains(moves, c.ChessMove)
    assert {p.field for p in rook.params} == {"face", "target", "contour"}
    dominoes = _domains(moves, c.PlaceDomino)
    assert dominoes and dominoes[0].command.first == 2 and dominoes[0].command.second == 3  # type: ignore[attr-defined]
    pairs = next(p.domain for p in dominoes[0].params if p.field == "cells")
    assert isinstance(pairs, Choice) and [cell(1, 3), cell(2, 3)] in pairs.values
    assert [cell(3, 3), cell(4, 3)] not in pairs.values


def test_a_die_is_discarded_only_when_no_use_exists() -> None:
    st = table(red=(1, 2, 3))  # red has no die on the board and rolled no six
    moves = legal_moves(st, RED, 0)
    assert [m.command for m in moves] == [c.DiscardDie(face=1), c.DiscardDie(face=2), c.DiscardDie(face=3)]
    assert of(when(st, c.DiscardDie(face=2)), DieDiscarded)
    (decision,) = pending(st)
    assert default_command(st, decision) == c.DiscardDie(face=1)
    put(st, 0, 3, RED, 1)
    refused(st, c.DiscardDie(face=2), "DIE_HAS_USE")


def test_a_run_out_clock_plays_the_default_and_makes_the_seat_afk() -> None:
    st = table(red=(2, 3, 4))
    put(st, 0, 3, RED, 1)
    (decision,) = pending(st)
    default = default_command(st, decision)
    assert isinstance(default, c.PlaceDie) and default.face == 2 and default.contour == []
    # the match has checked the deadline and the default (SubmitDefaultCommand); decide only
    # records that the clock made the move
    events = decide(st, default, DecideContext(RED, decision.deadline_ms, Dice(), timed_out=decision))
    assert [type(e) for e in events][:2] == [ClockExpired, DiePlaced]
    assert (events[0].kind, events[0].key) == ("turn", decision.key)  # type: ignore[attr-defined]
    st = then(st, events)
    assert st.afk.afk[RED] and st.clock_for(RED) == AFK_CLOCK_MS
    # blue plays, then red acts itself: back from AFK
    (d,) = pending(st)
    put(st, 0, -3, BLUE, 1)
    st = then(st, when(st, default_command(st, d), seat=BLUE))
    (d,) = pending(st)
    assert d.seat == RED and d.clock_ms == AFK_CLOCK_MS
    events = when(st, default_command(st, d), seat=RED)
    assert of(events, SeatActed)
    assert not then(st, events).afk.afk[RED]


def test_descriptors_count_black_dice_as_contact_for_dice_and_dominoes() -> None:
    from dragons.board import BLACK

    st = table(round_no=3, red=(2, 3, 4))
    put(st, 0, 3, BLACK, 5)
    give_hand(st, RED, (1, 1))
    moves = legal_moves(st, RED, 0)
    plain = next(m for m in moves if isinstance(m.command, c.PlaceDie) and isinstance(m.params[0].domain, Choice))
    assert cell(1, 3) in plain.params[0].domain.values  # type: ignore[union-attr]
    pairs = [
        p.domain
        for m in moves
        if isinstance(m.command, c.PlaceDomino)
        for p in m.params
        if p.field == "cells" and isinstance(p.domain, Choice)
    ]
    assert len(pairs) == 1 and [cell(1, 3), cell(2, 3)] in pairs[0].values
