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
from tablehall_rules import DecideContext, DrawSource, IllegalCommand, RuleError, SeatInfo, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.table import CloseTable, RemovePlayer, SetController, SetPresence

SEATS = [SeatInfo(seat=i, user_id=f"u{i}", name=n) for i, n in enumerate(["Аня", "Боря", "Вика"])]


def started(heaps: list[int], seats: int = 2, max_take: int = 3) -> rules.State:
    (event,) = GAME.start({"heaps": heaps, "max_take": max_take}, SEATS[:seats], ctx(None))
    return GAME.evolve(None, event)


def ctx(seat: int | None, now_ms: int = 1000) -> DecideContext:
    return DecideContext(seat=seat, now_ms=now_ms, rng=DrawSource(b"\1" * 32))


def play(state: rules.State, seat: int | None, command: msgspec.Struct) -> list[msgspec.Struct]:
    events = GAME.decide(state, command, ctx(seat))
    for event in events:
        GAME.evolve(state, event)
    return events


def refused(state: rules.State, seat: int | None, command: msgspec.Struct) -> str:
    before = msgspec.json.encode(state)
    with pytest.raises(RuleError) as caught:
        GAME.decide(state, command, ctx(seat))
    assert msgspec.json.encode(state) == before
    return caught.value.reason


def test_whoever_takes_the_last_stone_wins() -> None:
    state = started([1, 2])
    play(state, 0, rules.Take(heap=1, count=2))
    assert state.turn == 1
    events = play(state, 1, rules.Take(heap=0, count=1))
    assert isinstance(events[-1], rules.Ended) and events[-1].places == [[1], [0]]
    assert GAME.outcome(state) is not None and GAME.outcome(state).places == [[1], [0]]  # type: ignore[union-attr]
    assert refused(state, 0, rules.Take(heap=0, count=1)) == "GAME_OVER"


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
    assert refused(started([5, 2]), seat, take) == reason


def test_a_run_out_clock_takes_one_stone_from_the_first_heap_and_makes_the_seat_afk() -> None:
    state = started([2, 3])
    play(state, 0, rules.Take(heap=0, count=2))
    (decision,) = GAME.pending(state)
    assert GAME.default_command(state, decision) == rules.Take(heap=1, count=1)
    events = GAME.decide(
        state,
        GAME.default_command(state, decision),
        DecideContext(1, decision.deadline_ms, DrawSource(b"\1" * 32), decision),
    )
    for e in events:
        GAME.evolve(state, e)
    assert state.afk.is_afk(1) and state.heaps == [0, 2]
    (next_decision,) = GAME.pending(state)
    assert next_decision.seat == 0 and next_decision.clock_ms == 30_000
    play(state, 0, rules.Take(heap=1, count=1))
    assert GAME.pending(state)[0].clock_ms == 2000, "an AFK seat gets the short clock"


def test_presence_hand_over_and_removal_through_the_kit() -> None:
    state = started([5, 5], seats=3)
    assert refused(state, 0, SetPresence(seat=1, present=False)) == "SYSTEM_ONLY"
    play(state, None, SetPresence(seat=1, present=False))
    assert state.afk.is_absent(1) and state.afk.is_afk(1)
    play(state, None, SetController(seat=1, by_bot=True))
    assert state.afk.by_bot[1] and not state.afk.is_afk(1)
    play(state, None, SetController(seat=1, by_bot=False))
    assert not state.afk.by_bot[1]
    play(state, None, RemovePlayer(seat=0))
    assert state.out == [True, False, False] and state.turn == 1
    assert refused(state, None, RemovePlayer(seat=0)) == "ALREADY_OUT"
    events = play(state, None, RemovePlayer(seat=2))
    assert isinstance(events[-1], rules.Ended) and events[-1].places == [[1], [0, 2]]


def test_closing_ends_with_every_seat_still_in_sharing_first_place() -> None:
    state = started([5], seats=3)
    play(state, None, RemovePlayer(seat=2))
    events = play(state, None, CloseTable(reason="idle"))
    assert events[-1] == rules.Ended(places=[[0, 1], [2]], reason="idle", at_ms=1000)


@pytest.mark.parametrize("seed", range(6))
def test_conformance(seed: int) -> None:
    """The conformance checks every game passes: random play ends, replay, legal = decide, defaults, redaction."""
    rng = random.Random(seed)
    final, played = kit.play_random_game(GAME, {"heaps": [4, 6, 3], "max_take": 3}, 2 + seed % 2, rng)
    assert played.ended and played.commands <= GAME.nature.max_commands
    kit.check_replay(GAME, final, played, rng)
    for state in kit.states_of(GAME, played, rng, 4):
        kit.check_defaults(GAME, state, played.now_ms)
        for seat in kit.open_seats(GAME, state):
            probes = kit.candidate_commands(GAME, state, rng)
            kit.check_legal_agrees(GAME, state, seat, played.now_ms, rng, probes)
            if GAME.nature.hidden_information:  # nothing hidden: nothing a view could leak
                kit.check_redaction(GAME, state, seat, played.now_ms, rng, probes)


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
    state = started([1], seats=2)
    before = msgspec.structs.replace(state)
    (entry,) = GAME.journal(before, rules.Left(seat=1))
    assert entry.code == "LEFT" and "Боря" in entry.ru and "Боря" in entry.en


def test_views_are_the_same_for_everybody_since_nothing_is_hidden() -> None:
    state = started([3, 4], seats=3)
    views = [GAME.view(state, v) for v in (Viewer.of_seat(0), Viewer.of_seat(2), Viewer.spectator(), Viewer.auditor())]
    assert all(v == views[0] for v in views) and not GAME.nature.hidden_information


def test_a_table_command_a_player_sends_changes_nothing() -> None:
    state = started([3])
    with pytest.raises(IllegalCommand):
        GAME.decide(state, CloseTable(reason="operator"), ctx(0))
