"""One reckoning of what a deal is worth to a seat, from the public board.

The bot proposes and answers trades by this one valuation, so an offer it
makes is one it would accept in the other's place, and both sides of a deal
it strikes are better off by their own reckoning:

- a lot is worth its price; more in a part of a group (each further lot of
  the group adds `PARTIAL_STEP` of the group's owned prices), much more in a
  whole street set (`SET_FACTOR`), a little more in a run of transports or
  utilities; a mortgaged lot is worth its redeem cost less;
- cash is worth itself, but a shortfall below `RESERVE` costs half again
  (cash to pay rent and to build with);
- a get-out-of-jail card is worth `CARD`;
- a seat's standing is its own worth less `RIVAL_WEIGHT` times the average
  gain of its rivals: a deal that helps the partner far more than oneself is
  a bad deal, one that helps both against the rest is a good one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SET_FACTOR = 2.5
PARTIAL_STEP = 0.2
RUN_STEP = 0.25
RESERVE = 150
SHORTFALL = 0.5
CARD = 30
RIVAL_WEIGHT = 0.5
MARGIN = 20
STREET = "street"

Square = dict[str, Any]


@dataclass(frozen=True)
class Side:
    """What one party hands over: lots (square indices), money, cards."""

    lots: tuple[int, ...] = ()
    money: int = 0
    cards: int = 0

    @staticmethod
    def of(bundle: dict[str, Any]) -> Side:
        return Side(tuple(bundle["lots"]), int(bundle["money"]), len(bundle["cards"]))


class Board:
    """The public facts the valuation needs: squares by group, owners, cash, live seats."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.squares: list[Square] = view["squares"]
        self.groups: dict[str, list[Square]] = {}
        for sq in self.squares:
            if "group" in sq:
                self.groups.setdefault(sq["group"], []).append(sq)
        self.cash = {p["seat"]: int(p["money"]) for p in view["players"]}
        self.live = [p["seat"] for p in view["players"] if p["status"] == "playing"]

    def owned(self, group: str, seat: int) -> set[int]:
        return {sq["index"] for sq in self.groups[group] if sq["owner"] == seat}

    def group_value(self, group: str, owned: set[int]) -> float:
        squares = self.groups[group]
        mine = [sq for sq in squares if sq["index"] in owned]
        if not mine:
            return 0.0
        prices = float(sum(sq["price"] for sq in mine))
        if squares[0]["kind"] == STREET:
            factor = SET_FACTOR if len(mine) == len(squares) else 1 + PARTIAL_STEP * (len(mine) - 1)
        else:
            factor = 1 + RUN_STEP * (len(mine) - 1)
        redeem = float(sum(sq["rent_card"]["redeem_cost"] for sq in mine if sq["mortgaged"]))
        houses = float(sum(sq["buildings"] * sq["rent_card"]["house_cost"] for sq in mine))
        return prices * factor - redeem + houses

    def lots_gain(self, seat: int, lots_in: Iterable[int], lots_out: Iterable[int]) -> float:
        """How much `seat`'s lots gain in worth when it receives `lots_in` and hands over `lots_out`."""
        lots_in, lots_out = set(lots_in), set(lots_out)
        touched = {self.squares[i]["group"] for i in lots_in | lots_out}
        gain = 0.0
        for group in touched:
            before = self.owned(group, seat)
            after = (before - lots_out) | {i for i in lots_in if self.squares[i]["group"] == group}
            gain += self.group_value(group, after) - self.group_value(group, before)
        return gain

    def rival_weight(self) -> float:
        """The weight of one partner's gain in a seat's standing: the average over its rivals."""
        return RIVAL_WEIGHT / max(1, len(self.live) - 1)


def cash_value(cash: float) -> float:
    return cash - SHORTFALL * max(0.0, RESERVE - cash)


@dataclass(frozen=True)
class Deal:
    """A trade between `a` and `b`: `a` hands over `a_gives`, `b` hands over `b_gives`."""

    a: int
    b: int
    a_gives: Side
    b_gives: Side


def _worth_gain(board: Board, seat: int, gives: Side, gets: Side, lots_gain: float) -> float:
    cash = board.cash[seat]
    moved = cash_value(cash - gives.money + gets.money) - cash_value(cash)
    return lots_gain + moved + CARD * (gets.cards - gives.cards)


def gains(board: Board, deal: Deal) -> tuple[float, float]:
    """How much each party's standing gains by the deal: (for a, for b)."""
    lots_a = board.lots_gain(deal.a, deal.b_gives.lots, deal.a_gives.lots)
    lots_b = board.lots_gain(deal.b, deal.a_gives.lots, deal.b_gives.lots)
    worth_a = _worth_gain(board, deal.a, deal.a_gives, deal.b_gives, lots_a)
    worth_b = _worth_gain(board, deal.b, deal.b_gives, deal.a_gives, lots_b)
    weight = board.rival_weight()
    return worth_a - weight * worth_b, worth_b - weight * worth_a


def priced(board: Board, a: int, b: int, a_lots: tuple[int, ...], b_lots: tuple[int, ...]) -> Deal | None:
    """The deal of these lots with the money that suits `a` best while `b` still gains `MARGIN`.

    Money flows from `a` to `b` (or back, when it is negative) in steps of 10;
    None when no amount leaves both parties at least `MARGIN` better off.
    """

    def deal(money: int) -> Deal:
        return Deal(a, b, Side(a_lots, max(money, 0)), Side(b_lots, max(-money, 0)))

    low = -(board.cash[b] // 10) if a_lots else 1  # money-only from a: at least 10
    high = board.cash[a] // 10
    if low > high or gains(board, deal(high * 10))[1] < MARGIN:
        return None
    # the least money from a (or the most back from b) at which b gains enough: b's gain grows with it
    while low < high:
        mid = (low + high) // 2
        if gains(board, deal(mid * 10))[1] >= MARGIN:
            high = mid
        else:
            low = mid + 1
    best = deal(low * 10)
    if best.a_gives.money == 0 and best.b_gives.money == 0 and not (a_lots and b_lots):
        return None
    return best if gains(board, best)[0] >= MARGIN else None
