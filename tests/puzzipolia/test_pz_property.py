"""Houses and hotels (whole set, nothing mortgaged, evenly, fifth is a hotel,
house prices by street, sale at half, the bank never runs out) and mortgages
(half the price with no buildings in the set, redeemed at half plus 10 %)."""

from __future__ import annotations

import itertools

import pytest
from pz_helpers import given, houses, money, of, owns, refused, then, when

from puzzipolia import commands as c
from puzzipolia.board import board
from puzzipolia.events import BuildingBuilt, BuildingSold, LotMortgaged, LotRedeemed

BROWN = (1, 3)
DARK_BLUE = (37, 39)


def test_building_needs_the_whole_set() -> None:
    refused(given(*owns(0, 1)), c.Build(square=1), "SET_INCOMPLETE")
    refused(given(*owns(0, 5, 15)), c.Build(square=5), "NOT_A_STREET")
    events = when(given(*owns(0, *BROWN)), c.Build(square=1))
    assert of(events, BuildingBuilt) == [BuildingBuilt(seat=0, square=1, cost=50, at_ms=1000)]


def test_nothing_in_the_set_may_be_mortgaged() -> None:
    state = given(*owns(0, *BROWN), LotMortgaged(seat=0, square=3, amount=0))
    refused(state, c.Build(square=1), "SET_MORTGAGED")


def test_build_evenly() -> None:
    state = given(*owns(0, *BROWN), *houses(0, 1, 1))
    refused(state, c.Build(square=1), "BUILD_EVENLY")
    assert of(when(state, c.Build(square=3)), BuildingBuilt)


def test_the_fifth_building_is_a_hotel_and_nothing_goes_beyond() -> None:
    state = given(*owns(0, *BROWN), *houses(0, 1, 4), *houses(0, 3, 4))
    state = then(state, when(state, c.Build(square=1)))
    assert state.houses[1] == 5
    refused(state, c.Build(square=1), "HOTEL_BUILT")


@pytest.mark.parametrize("kind", ["classic", "large"])
def test_house_prices_50_to_250_by_street(kind: str) -> None:
    geometry = board(kind)
    costs = {geometry.squares[i].house_cost for i in geometry.streets}
    assert min(costs) == 50 and max(costs) == (250 if kind == "large" else 200)
    # dearer streets never have cheaper houses
    streets = sorted(geometry.streets, key=lambda i: geometry.squares[i].price)
    assert all(geometry.squares[a].house_cost <= geometry.squares[b].house_cost for a, b in itertools.pairwise(streets))


def test_building_costs_the_house_price_and_needs_the_money() -> None:
    state = given(*owns(0, *DARK_BLUE))
    assert then(state, when(state, c.Build(square=39))).player(0).money == 1300
    refused(given(*owns(0, *DARK_BLUE), money(0, -1400)), c.Build(square=39), "NOT_ENOUGH_MONEY")


def test_the_bank_never_runs_out_of_houses() -> None:
    owned = [i for i in board("classic").streets]
    events = [*owns(0, *owned)]
    for i in owned:
        events += houses(0, i, 4)
    state = given(*events)
    assert sum(state.houses) == 4 * 22 > 32
    assert of(when(state, c.Build(square=39)), BuildingBuilt)


def test_sale_to_the_bank_at_half_and_evenly() -> None:
    state = given(*owns(0, *DARK_BLUE), *houses(0, 37, 1), *houses(0, 39, 2))
    refused(state, c.SellBuilding(square=37), "SELL_EVENLY")
    events = when(state, c.SellBuilding(square=39))
    assert of(events, BuildingSold) == [BuildingSold(seat=0, square=39, refund=100, at_ms=1000)]
    refused(given(*owns(0, *DARK_BLUE)), c.SellBuilding(square=39), "NO_BUILDING")


def test_only_own_lots() -> None:
    refused(given(*owns(1, *BROWN)), c.Build(square=1), "NOT_YOUR_LOT")
    refused(given(*owns(1, 5)), c.Mortgage(square=5), "NOT_YOUR_LOT")


def test_mortgage_at_half_the_price() -> None:
    events = when(given(*owns(0, 39)), c.Mortgage(square=39))
    assert of(events, LotMortgaged) == [LotMortgaged(seat=0, square=39, amount=200, at_ms=1000)]


def test_no_mortgage_while_the_set_has_buildings() -> None:
    state = given(*owns(0, *BROWN), *houses(0, 1, 1))
    refused(state, c.Mortgage(square=3), "SET_HAS_BUILDINGS")


def test_redeem_at_half_plus_ten_percent() -> None:
    state = given(*owns(0, 1, 39), LotMortgaged(seat=0, square=1, amount=0), LotMortgaged(seat=0, square=39, amount=0))
    assert of(when(state, c.Unmortgage(square=1)), LotRedeemed)[0].amount == 33
    assert of(when(state, c.Unmortgage(square=39)), LotRedeemed)[0].amount == 220
    refused(given(*owns(0, 1)), c.Unmortgage(square=1), "NOT_MORTGAGED")
    refused(given(*owns(0, 1)), c.Mortgage(square=99), "NO_SUCH_SQUARE")
    refused(state, c.Mortgage(square=1), "ALREADY_MORTGAGED")
