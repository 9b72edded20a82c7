"""The test facade (`tablehall_rules.testing`): each check it makes catches the fault it is
there for, so no game's rule test has to repeat it."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from nim import rules as nim
from nim.game import GAME as NIM
from nim.game import Nim

from tablehall_rules import DecideContext, Viewer, illegal
from tablehall_rules.table import SetPresence
from tablehall_rules.testing import Dice, Table
from testgame import game as race


class Sloppy(Nim):
    """Ним whose decide scribbles on its input (a bug `play` and `refused` must catch)."""

    def decide(self, state: nim.State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        state.heaps[0] += 1
        return super().decide(state, command, ctx)


class Mute(Nim):
    """Ним whose refusals have no Russian text."""

    def decide(self, state: nim.State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        raise illegal("MUTE", "No.", "")


class Peeking(Nim):
    """Ним that rolls a die before it refuses everything."""

    def decide(self, state: nim.State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        ctx.rng.die()
        raise illegal("PEEKED", "No.", "Нет.")


def nim_table(game: Nim = NIM, seats: int = 2) -> Table[nim.State]:
    return Table(game, seats=seats, options={"heaps": [3, 4]}, now_ms=1000)


def race_table(**options: Any) -> Table[race.RaceState]:
    return Table(race.GAME, seats=3, options={"target": 50, **options}, seed=b"race")


# ---- play ---------------------------------------------------------------------------------


def test_play_decides_for_the_first_open_decision_and_evolves() -> None:
    table = nim_table()
    started = list(table.events)
    events = table.play(nim.Take(heap=1, count=2))
    assert events == [nim.Took(seat=0, heap=1, count=2, at_ms=1000)]
    assert table.state.heaps == [3, 2] and table.state.turn == 1
    assert table.events == [*started, *events]
    table.play(nim.Take(heap=0, count=1))  # seat 1's turn now: the default seat follows
    assert table.state.heaps == [2, 2] and table.state.turn == 0


def test_play_refuses_a_decide_that_changes_its_input() -> None:
    table = nim_table(Sloppy())
    with pytest.raises(AssertionError, match="decide changed its input state"):
        table.play(nim.Take(heap=1, count=1))


def test_refused_refuses_a_decide_that_changes_its_input() -> None:
    table = nim_table(Sloppy())
    with pytest.raises(AssertionError, match="decide changed its input state"):
        table.refused(nim.Take(heap=1, count=1), "NOT_YOUR_TURN", seat=1)


def test_a_rule_error_in_play_reaches_the_test() -> None:
    with pytest.raises(Exception, match="NOT_YOUR_TURN"):
        nim_table().play(nim.Take(heap=0, count=1), seat=1)


def test_seat_none_is_the_table_itself_and_a_seat_may_not_send_its_commands() -> None:
    table = nim_table()
    table.refused(SetPresence(seat=1, present=False), "SYSTEM_ONLY", seat=0)
    table.play(SetPresence(seat=1, present=False), seat=None)
    assert table.state.afk.is_absent(1)


def test_the_default_seat_needs_an_open_decision() -> None:
    table = nim_table()
    table.play(nim.Take(heap=0, count=3))
    table.play(nim.Take(heap=1, count=3))
    table.play(nim.Take(heap=1, count=1))  # the last stone: the game is over
    assert table.pending() == []
    with pytest.raises(AssertionError, match="no open decision"):
        table.play(nim.Take(heap=0, count=1))
    table.refused(nim.Take(heap=0, count=1), "GAME_OVER", seat=1)


def test_now_ms_stamps_the_command_and_becomes_the_tables_time() -> None:
    table = nim_table()
    (took,) = table.play(nim.Take(heap=0, count=1), now_ms=5000)
    assert isinstance(took, nim.Took) and took.at_ms == 5000 and table.now_ms == 5000
    (took,) = table.play(nim.Take(heap=0, count=1))
    assert isinstance(took, nim.Took) and took.at_ms == 5000


def test_timed_out_true_names_the_seats_decision_whose_default_the_command_is() -> None:
    table = nim_table()
    (decision,) = table.pending()
    (took,) = table.play(nim.Take(heap=0, count=1), now_ms=decision.deadline_ms, timed_out=True)
    assert isinstance(took, nim.Took) and took.timeout and table.state.afk.is_afk(0)
    with pytest.raises(AssertionError, match=r"has Take.* as its default"):
        table.play(nim.Take(heap=1, count=2), timed_out=True)


# ---- scripted dice --------------------------------------------------------------------------


def test_scripted_dice_answer_the_rolls() -> None:
    table = race_table()
    assert table.play(race.Roll(), dice=(6,)) == [race.Rolled(0, 6, table.now_ms)]
    table.play(race.Roll(), dice=Dice(2))
    assert table.state.scores == [6, 2, 0]


def test_every_scripted_die_must_be_used() -> None:
    table = race_table()
    with pytest.raises(AssertionError, match=r"unused: \[2\]"):
        table.play(race.Roll(), dice=(6, 2))


def test_dice_fail_when_they_run_out_unless_told_where_to_go_on() -> None:
    with pytest.raises(AssertionError, match="ran out"):
        race_table().play(race.Roll(), dice=())
    dice = Dice(then=b"seed")
    race_table().play(race.Roll(), dice=dice)
    assert len(dice.draws) == 1 and dice.counter == 1


def test_a_scripted_die_must_fit_the_draw() -> None:
    with pytest.raises(AssertionError, match=r"outside the draw's range \[1, 6\]"):
        race_table().play(race.Roll(), dice=(7,))


def test_scripted_dice_record_their_draws_and_shuffle_only_when_seeded() -> None:
    dice = Dice(4, 1, then=b"x")
    assert (dice.die(), dice.randint(0, 3), dice.counter) == (4, 1, 2)
    assert [d.value for d in dice.draws] == [4, 1]
    assert sorted(dice.permutation(5)) == [0, 1, 2, 3, 4]
    with pytest.raises(AssertionError, match="shuffle"):
        Dice(1).permutation(3)


def test_without_dice_the_tables_seeded_source_counts_on() -> None:
    table = race_table()
    counter = table.rng.counter
    table.play(race.Roll())
    assert table.rng.counter == counter + 1

    peeking = nim_table(Peeking())
    peeking.refused(nim.Take(heap=0, count=1), "PEEKED")
    assert peeking.rng.counter == 0, "a refused command's draws are not the table's"


# ---- refused ------------------------------------------------------------------------------


def test_refused_checks_the_reason_and_returns_the_error() -> None:
    table = nim_table()
    error = table.refused(nim.Take(heap=9, count=1), "NO_SUCH_HEAP")
    assert error.message_ru == "Кучки 9 нет."
    with pytest.raises(AssertionError, match=r"refused with NO_SUCH_HEAP.*not NOT_YOUR_TURN"):
        table.refused(nim.Take(heap=9, count=1), "NOT_YOUR_TURN")


def test_refused_fails_on_an_accepted_command_and_leaves_the_table_as_it_was() -> None:
    table = nim_table()
    before = msgspec.json.encode(table.state)
    with pytest.raises(AssertionError, match="was accepted"):
        table.refused(nim.Take(heap=0, count=1), "NOT_YOUR_TURN")
    assert msgspec.json.encode(table.state) == before


def test_a_refusal_needs_its_text_in_both_languages() -> None:
    with pytest.raises(AssertionError, match="English or Russian"):
        nim_table(Mute()).refused(nim.Take(heap=0, count=1), "MUTE")


# ---- what the table shows, and other ways to set it -----------------------------------------


def test_legal_spells_out_every_command() -> None:
    table = nim_table()
    assert table.legal() == [nim.Take(heap=h, count=n) for h in (0, 1) for n in (1, 2, 3)]
    assert table.legal(1) == []


def test_pending_and_view() -> None:
    table = race_table(calls=True)
    table.play(race.Roll(), dice=(6,))
    assert sorted((d.seat, d.reaction) for d in table.pending()) == [(1, False), (1, True), (2, True)]
    secrets = table.view(1)["secrets"]
    assert secrets[0] is None and secrets[1] is not None
    assert None not in table.view(Viewer.auditor())["secrets"]


def test_from_events_replays_and_from_state_plays_on() -> None:
    table = nim_table()
    table.play(nim.Take(heap=0, count=2))
    again = Table.from_events(NIM, table.events)
    assert msgspec.json.encode(again.state) == msgspec.json.encode(table.state)
    assert again.events == table.events
    scene = Table.from_state(NIM, again.state)
    assert scene.events == []
    scene.play(nim.Take(heap=1, count=1))
    assert scene.state.heaps == [1, 3]
