"""Rent: streets by their table, whole set doubled, large-board part of a set +50 %,
transports 25/50/100/200, utilities dice × 4 / × 10, mortgaged lots take nothing,
owners in jail still collect; the rent card of every square is public."""

from __future__ import annotations

from pz_helpers import at, given, houses, of, owns, started, when

from puzzipolia import commands as c
from puzzipolia.events import DebtOpened, Event, LotMortgaged, NoRent, SentToJail, TurnStarted
from puzzipolia.game import GAME
from tablehall_rules import Viewer


def rent_for(setup: list[Event], dice: list[int], start: int = 0, table: list[Event] | None = None) -> int:
    state = given(*setup, at(0, start), table=table)
    debts = of(when(state, c.Roll(), dice=dice), DebtOpened)
    assert len(debts) == 1 and debts[0].creditor == 1 and debts[0].reason == "rent"
    return int(debts[0].amount)


def test_street_rent_by_its_table() -> None:
    assert rent_for(owns(1, 39), [2, 3], start=34) == 50  # Boardwalk, alone
    assert rent_for([*owns(1, 37, 39), *houses(1, 39, 1)], [2, 3], start=34) == 200
    assert rent_for([*owns(1, 37, 39), *houses(1, 39, 4)], [2, 3], start=34) == 1700
    assert rent_for([*owns(1, 37, 39), *houses(1, 39, 5)], [2, 3], start=34) == 2000  # hotel


def test_whole_set_without_houses_doubles() -> None:
    assert rent_for(owns(1, 37, 39), [2, 3], start=34) == 100
    assert rent_for([*owns(1, 37, 39), LotMortgaged(seat=1, square=37, amount=0)], [2, 3], start=34) == 100


def test_large_board_part_of_a_set_gives_half_again() -> None:
    table = started(9)
    # Kentucky 31, Indiana 33, Illinois 34 on the large board; base rent of Illinois 20
    assert rent_for(owns(1, 34), [2, 2], start=30, table=table) == 20
    assert rent_for(owns(1, 31, 34), [2, 2], start=30, table=table) == 30
    assert rent_for(owns(1, 31, 33, 34), [2, 2], start=30, table=table) == 40


def test_transports_25_50_100_200() -> None:
    assert rent_for(owns(1, 5), [2, 3]) == 25
    assert rent_for(owns(1, 5, 15), [2, 3]) == 50
    assert rent_for(owns(1, 5, 15, 25), [2, 3]) == 100
    assert rent_for(owns(1, 5, 15, 25, 35), [2, 3]) == 200


def test_utilities_dice_times_4_or_10() -> None:
    assert rent_for(owns(1, 12), [2, 3], start=7) == 20
    assert rent_for(owns(1, 12, 28), [2, 3], start=7) == 50


def test_a_mortgaged_lot_takes_no_rent() -> None:
    state = given(*owns(1, 5), LotMortgaged(seat=1, square=5, amount=0))
    events = when(state, c.Roll(), dice=[2, 3])
    assert not of(events, DebtOpened) and of(events, NoRent)


def test_rent_is_collected_while_the_owner_is_in_jail() -> None:
    jailed = [*owns(1, 5), SentToJail(seat=1, reason="card"), TurnStarted(seat=0, round=1)]
    assert given(*jailed).player(1).in_jail
    assert rent_for(jailed, [2, 3]) == 25


def test_own_lot_takes_nothing() -> None:
    state = given(*owns(0, 5))
    assert not of(when(state, c.Roll(), dice=[2, 3]), DebtOpened)


def test_rent_card_shows_the_whole_table_and_the_row_in_force() -> None:
    state = given(*owns(1, 37, 39), *houses(1, 39, 2))
    squares = GAME.view(state, Viewer.spectator())["squares"]
    card = squares[39]["rent_card"]
    assert [r["amount"] for r in card["rows"]] == [50, 100, 200, 600, 1400, 1700, 2000]
    assert card["current"] == 3 and [r["in_force"] for r in card["rows"]].index(True) == 3
    assert squares[37]["rent_card"]["current"] == 1  # whole set, no houses on it
    assert squares[1]["rent_card"]["current"] is None  # unowned
    large = given(*owns(1, 31, 34), table=started(9))
    card = GAME.view(large, Viewer.spectator())["squares"][34]["rent_card"]
    assert card["rows"][2]["amount"] == 30 and card["current"] == 2
    transport = GAME.view(given(*owns(1, 5, 15)), Viewer.spectator())["squares"][5]["rent_card"]
    assert [r["amount"] for r in transport["rows"]] == [25, 50, 100, 200] and transport["current"] == 1
