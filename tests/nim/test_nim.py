"""Ним, the sixth game, built on the game kit: its rules, the kit's table commands, the
conformance checks every game passes, the codec and the journal convention."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nim import rules
from nim.game import GAME
from nim.journal import LINES
from nim.proto_codec import CODEC
from tablehall_rules import SeatInfo, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.table import CloseTable, RemovePlayer, SetController, SetPresence
from tablehall_rules.testing import Table

SEATS = [SeatInfo(seat=i, user_id=f"u{i}", name=n) for i, n in enumerate(["Аня", "Боря", "Вика"])]


def started(heaps: list[int], seats: int = 2, max_take: int = 3) -> Table[rules.State]:
    return Table(GAME, seats=SEATS[:seats], options={"heaps": heaps, "max_take": max_take}, now_ms=1000)


def test_whoever_takes_the_last_stone_wins() -> None:
    table = started([1, 2])
    table.play(rules.Take(heap=1, count=2))
    assert table.state.turn == 1
    events = table.play(rules.Take(heap=0, count=1), seat=1)
    assert events[-1] == rules.Ended(places=[[1], [0]], reason="last_stone", at_ms=1000)
    outcome = table.outcome()
    assert outcome is not None and outcome.places == [[1], [0]]
    table.refused(rules.Take(heap=0, count=1), "GAME_OVER", seat=0)


@pytest.mark.parametrize(
    ("seat", "take", "reason"),
    [
        (1, rules.Take(heap=0, count=1), "NOT_YOUR_TURN"),
        (0, rules.Take(heap=5, count=1), "NO_SUCH_HEAP"),
        (0, rules.Take(heap=0, count=4), "TAKE_OUT_OF_RANGE"),
        (0, rules.Take(heap=0, count=0), "TAKE_OUT_OF_RANGE"),
        (0, rules.Take(heap=1, count=3), "NOT_ENOUGH_STONES"),
    ],
)
def test_illegal_takes(seat: int, take: rules.Take, reason: str) -> None:
    started([5, 2]).refused(take, reason, seat=seat)


def test_a_run_out_clock_takes_one_stone_from_the_first_heap_and_makes_the_seat_afk() -> None:
    table = started([2, 3])
    table.play(rules.Take(heap=0, count=2))
    (decision,) = table.pending()
    assert GAME.default_command(table.state, decision) == rules.Take(heap=1, count=1)
    table.play(rules.Take(heap=1, count=1), now_ms=decision.deadline_ms, timed_out=decision)
    assert table.state.afk.is_afk(1) and table.state.heaps == [0, 2]
    (next_decision,) = table.pending()
    assert next_decision.seat == 0 and next_decision.clock_ms == 30_000
    table.play(rules.Take(heap=1, count=1))
    assert table.pending()[0].clock_ms == 2000, "an AFK seat gets the short clock"


def test_presence_hand_over_and_removal_through_the_kit() -> None:
    table = started([5, 5], seats=3)
    table.refused(SetPresence(seat=1, present=False), "SYSTEM_ONLY", seat=0)
    table.play(SetPresence(seat=1, present=False), seat=None)
    assert table.state.afk.is_absent(1) and table.state.afk.is_afk(1)
    table.play(SetController(seat=1, by_bot=True), seat=None)
    assert table.state.afk.by_bot[1] and not table.state.afk.is_afk(1)
    table.play(SetController(seat=1, by_bot=False), seat=None)
    assert not table.state.afk.by_bot[1]
    table.play(RemovePlayer(seat=0), seat=None)
    assert table.state.out == [True, False, False] and table.state.turn == 1
    table.refused(RemovePlayer(seat=0), "ALREADY_OUT", seat=None)
    events = table.play(RemovePlayer(seat=2), seat=None)
    assert isinstance(events[-1], rules.Ended) and events[-1].places == [[1], [0, 2]]


def test_closing_ends_with_every_seat_still_in_sharing_first_place() -> None:
    table = started([5], seats=3)
    table.play(RemovePlayer(seat=2), seat=None)
    events = table.play(CloseTable(reason="idle"), seat=None)
    assert events[-1] == rules.Ended(places=[[0, 1], [2]], reason="idle", at_ms=1000)


@settings(max_examples=40, deadline=None)
@given(heaps=st.lists(st.integers(1, 20), min_size=1, max_size=6), seed=st.integers(0, 10_000))
def test_every_random_game_ends_within_its_declared_length(heaps: list[int], seed: int) -> None:
    _, played = kit.play_random_game(GAME, {"heaps": heaps, "max_take": 20}, 2, random.Random(seed), timeout_rate=0.3)
    assert played.ended and played.commands <= GAME.nature.max_commands


@pytest.mark.parametrize(
    "command",
    [
        rules.Take(heap=2, count=3),
        SetPresence(seat=1, present=False),
        SetController(seat=0, by_bot=True),
        RemovePlayer(seat=1),
        CloseTable(reason="operator"),
    ],
)
def test_the_generic_codec_round_trips_every_command(command: msgspec.Struct) -> None:
    assert CODEC.from_proto(CODEC.to_proto(command)) == command


def test_every_event_has_a_journal_line_in_both_languages() -> None:
    assert LINES.missing(GAME.event_types) == []
    (entry,) = GAME.journal(started([1], seats=2).state, rules.Left(seat=1))
    assert entry.code == "LEFT" and "Боря" in entry.ru and "Боря" in entry.en


def test_views_are_the_same_for_everybody_since_nothing_is_hidden() -> None:
    table = started([3, 4], seats=3)
    views = [table.view(v) for v in (Viewer.of_seat(0), Viewer.of_seat(2), Viewer.spectator(), Viewer.auditor())]
    assert all(v == views[0] for v in views) and not GAME.nature.hidden_information


def test_a_table_command_a_player_sends_changes_nothing() -> None:
    started([3]).refused(CloseTable(reason="operator"), "SYSTEM_ONLY", seat=0)
