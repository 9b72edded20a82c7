"""Jail: in by the square, a card or three doubles; out by 50 before the roll, a card,
or doubles; after three failed tries pay 50 and move."""

from __future__ import annotations

from pz_helpers import at, given, kinds, of, refused, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import (
    CardDrawn,
    DebtOpened,
    LeftJail,
    Moved,
    PhaseChanged,
    SentToJail,
    StreetDealt,
    TurnStarted,
)

JAILED = (SentToJail(seat=0, reason="square"), TurnStarted(seat=0, round=1))


def test_the_go_to_jail_square() -> None:
    state = given(at(0, 25))
    events = when(state, c.Roll(), dice=[2, 3])
    assert of(events, SentToJail)[0].reason == "square"
    state = then(state, events)
    assert state.player(0).in_jail and state.player(0).position == 10 and state.phase == "end"


def test_a_go_to_jail_card() -> None:
    state = given(at(0, 2), table=started(chance=["chance.go_to_jail"]))
    events = when(state, c.Roll(), dice=[2, 3])  # 7: Chance
    assert of(events, SentToJail)[0].reason == "card"


def test_pay_50_before_the_roll() -> None:
    state = given(*JAILED)
    events = when(state, c.PayJailFine())
    assert of(events, LeftJail) == [LeftJail(seat=0, how="fine", fine=50, at_ms=1000)]
    state = then(state, events)
    assert not state.player(0).in_jail and state.player(0).money == 1450 and state.phase == "roll"
    refused(state, c.PayJailFine(), "NOT_IN_JAIL")


def test_a_kept_card_gets_out_and_goes_back_under_its_deck() -> None:
    state = given(at(0, 2), table=started(chance=["chance.jail_free"]))
    state = then(state, when(state, c.Roll(), dice=[2, 3]))
    assert state.player(0).jail_cards == ["chance.jail_free"]
    assert "chance.jail_free" not in state.decks["chance"]
    state = given(
        *JAILED,
        CardDrawn(seat=0, deck="chance", card="chance.jail_free"),
        TurnStarted(seat=0, round=1),
        table=started(chance=["chance.jail_free"]),
    )
    refused(given(*JAILED), c.UseJailCard(), "NO_JAIL_CARD")
    state = then(state, when(state, c.UseJailCard()))
    assert not state.player(0).in_jail and state.player(0).jail_cards == []
    assert state.decks["chance"][-1] == "chance.jail_free"


def test_doubles_leave_jail_and_move_without_another_roll() -> None:
    state = given(*JAILED)
    events = when(state, c.Roll(), dice=[4, 4])
    assert of(events, LeftJail)[0].how == "doubles"
    assert of(events, Moved)[0].to_square == 18
    assert then(state, events).phase == "buy"
    state = given(*JAILED, StreetDealt(seat=0, square=18))
    assert of(when(state, c.Roll(), dice=[4, 4]), PhaseChanged)[-1].phase == "end"


def test_a_failed_try_stays_in_jail() -> None:
    state = given(*JAILED)
    events = when(state, c.Roll(), dice=[1, 2])
    assert kinds(events) == ["DiceRolled", "JailRollFailed", "PhaseChanged"]
    state = then(state, events)
    assert state.player(0).in_jail and state.player(0).jail_tries == 1 and state.phase == "end"


def test_after_three_failed_tries_pay_50_and_move() -> None:
    state = given(*JAILED)
    for _ in range(2):
        state = then(state, when(state, c.Roll(), dice=[1, 2]))
        state = then(state, [TurnStarted(seat=0, round=1)])
    events = when(state, c.Roll(), dice=[1, 2])
    assert of(events, LeftJail)[0].how == "three_tries"
    assert of(events, DebtOpened)[0].amount == 50 and of(events, DebtOpened)[0].creditor is None
    assert of(events, Moved)[0].to_square == 13
