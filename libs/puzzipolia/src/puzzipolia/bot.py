"""The bot policy: plays through the same commands as a person, from its seat's view only.

It buys what it can afford, bids up to a lot's worth, builds evenly with a
cash reserve, redeems mortgages when rich, pays or collects to settle debts
(surrendering only when nothing else is left), answers offers by value, and
once every three rounds proposes a trade that would complete one of its sets.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from puzzipolia import commands as c
from puzzipolia.state import Bundle

RESERVE = 150
BUY_MARGIN = 60
TRADE_ROUNDS = 3
STREETS = ("street",)

View = dict[str, Any]


class _Seen:
    """Handy lookups over a seat's view."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.me: int = view["me"]["seat"]
        self.squares: list[dict[str, Any]] = view["squares"]
        self.players = {p["seat"]: p for p in view["players"]}
        self.money: int = self.players[self.me]["money"]
        self.groups: dict[str, list[dict[str, Any]]] = {}
        for sq in self.squares:
            if "group" in sq:
                self.groups.setdefault(sq["group"], []).append(sq)

    def owned_in_group(self, group: str, seat: int) -> int:
        return sum(1 for sq in self.groups[group] if sq["owner"] == seat)

    def completes_set(self, index: int, seat: int) -> bool:
        """Whether getting `index` gives `seat` the whole group."""
        sq = self.squares[index]
        group = self.groups[sq["group"]]
        return all(s["owner"] == seat or s["index"] == index for s in group)

    def worth(self, index: int, seat: int) -> float:
        """What a lot is worth to `seat`: its price, more if it completes or grows a set."""
        sq = self.squares[index]
        if self.completes_set(index, seat):
            return float(sq["price"]) * 2.5
        if self.owned_in_group(sq["group"], seat) > 0:
            return float(sq["price"]) * 1.3
        return float(sq["price"])

    def rival_needs(self, index: int) -> bool:
        """Whether a rival would complete a set with this lot."""
        return any(
            self.completes_set(index, seat)
            for seat, p in self.players.items()
            if seat != self.me and p["status"] == "playing"
        )


def _first(legal: Sequence[c.Command], kind: type[c.Command]) -> c.Command | None:
    return next((x for x in legal if isinstance(x, kind)), None)


def choose(view: View, legal: list[c.Command], rng: random.Random) -> c.Command:
    s = _Seen(view)
    for step in (_order, _debts, _offers, _auction, _buy, _choice67, _jail, _develop, _trade, _turn):
        command = step(s, legal, rng)
        if command is not None:
            return command
    safe = [x for x in legal if not isinstance(x, (c.Leave, c.Surrender, c.ProposeEnd))]
    return safe[0] if safe else legal[0]


def _order(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    return _first(legal, c.RollForOrder)


def _debts(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    return _first(legal, c.PayDebt) or _first(legal, c.CollectDebt) or _first(legal, c.Surrender)


def _offers(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    offers = {o["id"]: o for o in s.view["me"]["offers"]}
    for x in legal:
        if isinstance(x, c.AcceptTrade) and _good_offer(s, offers[x.offer_id]):
            return x
    return _first(legal, c.DeclineTrade)


def _side_value(s: _Seen, side: dict[str, Any], receiver: int) -> float:
    return float(sum(s.worth(i, receiver) for i in side["lots"]) + side["money"] + 50 * len(side["cards"]))


def _good_offer(s: _Seen, offer: dict[str, Any]) -> bool:
    gain = _side_value(s, offer["give"], s.me)
    loss = sum(s.squares[i]["price"] for i in offer["get"]["lots"]) + offer["get"]["money"]
    loss += 50 * len(offer["get"]["cards"])
    # handing a rival a whole set costs far more than the lot's price
    loss += sum(2 * s.squares[i]["price"] for i in offer["get"]["lots"] if s.completes_set(i, offer["proposer"]))
    return bool(gain > 1.1 * loss and s.money >= offer["get"]["money"])


def _auction(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    passing = _first(legal, c.PassAuction)
    if passing is None:
        return None
    a = s.view["auction"]
    bid = _first(legal, c.Bid)
    if isinstance(bid, c.Bid):
        index = a["square"]
        limit = s.worth(index, s.me)
        if s.rival_needs(index):
            limit = max(limit, s.squares[index]["price"] * 1.5)
        if bid.amount <= min(limit, s.money - BUY_MARGIN):
            return bid
    return passing


def _buy(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    decline = _first(legal, c.DeclineBuy)
    if decline is None:
        return None
    buy = _first(legal, c.Buy)
    index = s.view["buy_square"]
    price = s.squares[index]["price"]
    if buy is not None and (s.money - price >= BUY_MARGIN or s.completes_set(index, s.me)):
        return buy
    return decline


def _square_score(s: _Seen, index: int) -> float:
    sq = s.squares[index]
    kind = sq["kind"]
    if kind == "go_to_jail":
        return -100
    if kind == "tax":
        return -float(sq["amount"])
    if kind == "find":
        return float(sq["amount"])
    if "owner" not in sq:
        return 0
    if sq["owner"] is None:
        return sq["price"] / 5 if s.money > sq["price"] else 0
    card = sq["rent_card"]
    if sq["owner"] == s.me or card["current"] is None:
        return 0
    return -float(card["rows"][card["current"]]["amount"])


def _choice67(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    options = [x for x in legal if isinstance(x, c.Choose67)]
    if not options:
        return None
    position = s.players[s.me]["position"]
    size = len(s.squares)
    return max(options, key=lambda x: _square_score(s, (position + x.steps) % size))


def _jail(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    if not s.players[s.me]["in_jail"] or _first(legal, c.Roll) is None:
        return None
    card = _first(legal, c.UseJailCard)
    if card is not None:
        return card
    unowned = sum(1 for sq in s.squares if sq.get("owner", 0) is None)
    if unowned > len(s.squares) // 4 and s.money > 4 * RESERVE:
        return _first(legal, c.PayJailFine)
    return None


def _develop(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    """On its own turn: redeem mortgages in whole sets, then build evenly, keeping a reserve."""
    if s.view["active_seat"] != s.me or not (_first(legal, c.Roll) or _first(legal, c.EndTurn)):
        return None
    redeem = [x for x in legal if isinstance(x, c.Unmortgage)]
    for x in sorted(redeem, key=lambda x: s.squares[x.square]["price"]):
        cost = s.squares[x.square]["rent_card"]["redeem_cost"]
        if s.money - cost >= 3 * RESERVE:
            return x
    builds = [x for x in legal if isinstance(x, c.Build)]
    if builds:
        best = max(builds, key=lambda x: (s.squares[x.square]["price"], -x.square))
        if s.money - s.squares[best.square]["rent_card"]["house_cost"] >= RESERVE:
            return best
    return None


def _trade(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    """Once every three rounds, on its own turn, offer money for the lots that complete a set."""
    view = s.view
    if view["active_seat"] != s.me or view["round"] % TRADE_ROUNDS != 0:
        return None
    if view["me"]["offers_made_this_round"] or _first(legal, c.Roll) is None:
        return None
    partners = {x.to_seat for x in legal if isinstance(x, c.ProposeTrade)}
    for group, squares in sorted(s.groups.items()):
        if group in ("transport", "utility"):
            continue
        missing = [sq for sq in squares if sq["owner"] != s.me]
        if len(missing) != 1 or len(missing) == len(squares):
            continue
        lot = missing[0]
        owner = lot["owner"]
        if owner is None or owner not in partners or any(sq["buildings"] for sq in squares):
            continue
        offer = int(lot["price"] * 1.5)
        if s.money - offer < RESERVE:
            continue
        return c.ProposeTrade(to_seat=owner, give=Bundle(money=offer), get=Bundle(lots=[lot["index"]]))
    return None


def _turn(s: _Seen, legal: list[c.Command], rng: random.Random) -> c.Command | None:
    return _first(legal, c.Roll) or _first(legal, c.EndTurn)
