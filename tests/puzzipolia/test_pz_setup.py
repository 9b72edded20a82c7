"""Set-up: options, seats, the order roll, the large board and dealt streets."""

from __future__ import annotations

import itertools

import pytest
from pz_helpers import given, kinds, refused, then, when

from puzzipolia import commands as c
from puzzipolia.board import board
from puzzipolia.events import Event, OrderDecided, OrderRolled, StreetDealt, TurnStarted
from puzzipolia.evolve import evolve
from puzzipolia.game import GAME
from puzzipolia.setup import parse_options, start
from tablehall_rules import DecideContext, InvalidOptions, SeatInfo
from tablehall_rules.testing import Dice


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(seat=i, user_id=f"u{i}", name=f"P{i}") for i in range(n)]


def begin(n: int, options: dict[str, object] | None = None, *dice: int) -> list[Event]:
    events = start(options or {}, seats(n), DecideContext(seat=None, now_ms=5, rng=Dice(*dice, then=b"\x07" * 32)))
    return [e for e in events if isinstance(e, Event)]


def test_options_accept_the_listed_values() -> None:
    for money in (1000, 1500, 2000, 3000):
        for clock in (20, 30, 45, 60, 90):
            assert parse_options({"start_money": money, "decision_clock_s": clock, "round_limit": 7}) == {
                "start_money": money,
                "decision_clock_s": clock,
                "round_limit": 7,
            }
    assert parse_options({}) == {"start_money": 1500, "decision_clock_s": 30, "round_limit": 0}


@pytest.mark.parametrize(
    "raw",
    [
        {"start_money": 1200},
        {"decision_clock_s": 10},
        {"round_limit": -1},
        {"colour": "red"},
        {"start_money": True},
    ],
)
def test_options_refuse_anything_else(raw: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        parse_options(raw)


@pytest.mark.parametrize("n", [1, 17])
def test_two_to_sixteen_seats(n: int) -> None:
    with pytest.raises(InvalidOptions):
        begin(n)


def test_start_money_and_clock_come_from_options() -> None:
    state = given(table=begin(3, {"start_money": 3000, "decision_clock_s": 90}))
    assert [p.money for p in state.players] == [3000, 3000, 3000]
    assert state.clock_ms == 90_000


def test_small_table_everybody_rolls_for_order_and_higher_goes_first() -> None:
    state = given(table=begin(3))
    assert state.phase == "order"
    assert {d.seat for d in GAME.pending(state)} == {0, 1, 2}
    state = then(state, when(state, c.RollForOrder(), 0, dice=[2, 3]))
    state = then(state, when(state, c.RollForOrder(), 1, dice=[6, 6]))
    events = when(state, c.RollForOrder(), 2, dice=[4, 4])
    assert kinds(events) == ["OrderRolled", "OrderDecided", "TurnStarted"]
    assert events[1] == OrderDecided(order=[1, 2, 0], at_ms=1000)
    assert isinstance(events[2], TurnStarted) and events[2].seat == 1


def test_ties_reroll_among_themselves_only() -> None:
    state = given(table=begin(3))
    state = then(state, when(state, c.RollForOrder(), 0, dice=[6, 6]))
    state = then(state, when(state, c.RollForOrder(), 1, dice=[3, 4]))
    state = then(state, when(state, c.RollForOrder(), 2, dice=[2, 5]))
    assert state.phase == "order"
    assert {d.seat for d in GAME.pending(state)} == {1, 2}
    refused(state, c.RollForOrder(), "NO_ORDER_ROLL", 0)
    state = then(state, when(state, c.RollForOrder(), 1, dice=[1, 1]))
    events = when(state, c.RollForOrder(), 2, dice=[1, 2])
    assert events[1] == OrderDecided(order=[0, 2, 1], at_ms=1000)


def test_big_table_rolls_for_all_at_once_and_announces_the_order() -> None:
    events = begin(7)
    names = kinds(events)
    assert names.count("OrderRolled") >= 7
    decided = [e for e in events if isinstance(e, OrderDecided)]
    assert len(decided) == 1 and sorted(decided[0].order) == list(range(7))
    state = given(table=events)
    assert state.phase == "roll" and state.active == decided[0].order[0]
    # the announced order follows the rolls: a higher final roll never comes after a lower one
    first_rolls: dict[int, int] = {}
    for e in events:
        if isinstance(e, OrderRolled):
            first_rolls.setdefault(e.seat, sum(e.dice))
    order = decided[0].order
    assert all(first_rolls[a] >= first_rolls[b] for a, b in itertools.pairwise(order))


def test_big_table_round_limit_is_mandatory_12_10_or_8() -> None:
    assert given(table=begin(7)).round_limit == 12
    assert given(table=begin(8, {"round_limit": 8})).round_limit == 8
    with pytest.raises(InvalidOptions):
        begin(7, {"round_limit": 20})
    assert given(table=begin(6)).round_limit == 0


@pytest.mark.parametrize("n", [8, 9, 12, 16])
def test_large_board_from_nine_and_one_street_each(n: int) -> None:
    events = begin(n)
    state = given(table=events)
    dealt = [e for e in events if isinstance(e, StreetDealt)]
    if n < 9:
        assert state.board == "classic" and not dealt
        return
    assert state.board == "large" and state.geometry.size == 60
    assert sorted(e.seat for e in dealt) == list(range(n))
    geometry = board("large")
    groups = [geometry.squares[e.square].group for e in dealt]
    assert all(geometry.squares[e.square].kind == "street" for e in dealt)
    street_groups = len({geometry.squares[i].group for i in geometry.streets})
    assert max(groups.count(g) for g in groups) == (1 if n <= street_groups else 2)
    assert all(state.owners[e.square] == e.seat for e in dealt)


def test_evolve_needs_a_start() -> None:
    with pytest.raises(ValueError):
        evolve(None, TurnStarted(seat=0, round=1))
