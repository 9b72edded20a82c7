"""The bot policy: plays through the same commands as a person, from its seat's view only.

It buys what it can afford, bids up to a lot's worth, builds evenly with a
cash reserve (mortgaging lots outside its sets to build on a set), redeems
mortgages when rich, pays or collects to settle debts (surrendering only when
nothing else is left), and trades by one valuation (`puzzipolia.valuation`):
once every three rounds it proposes the deal for one of its sets that suits
it best while the partner gains too, and it accepts an offer that leaves it
better off by the same reckoning. It never leaves the game (⚑) and never
proposes the end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar, cast

import msgspec

import tablehall_rules
from puzzipolia import commands as c
from puzzipolia import valuation as worth
from puzzipolia.state import Bundle
from tablehall_rules import LegalMove, StructCodec
from tablehall_rules.legal import expand, spell_at

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
        self.board = worth.Board(view)
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


Kinds = type[c.Command] | tuple[type[c.Command], ...]
K = TypeVar("K", bound=msgspec.Struct)
CODEC = StructCodec(c.COMMAND_TYPES)


class _Spelled:
    """The legal commands spelled out (a view from the match carries them so)."""

    def __init__(self, commands: Sequence[c.Command]) -> None:
        self.commands = commands

    def first(self, kind: Kinds) -> c.Command | None:
        return next((x for x in self.commands if isinstance(x, kind)), None)

    def every(self, kind: type[K]) -> list[K]:
        return [x for x in self.commands if isinstance(x, kind)]

    def first_but(self, kind: Kinds) -> c.Command | None:
        return next((x for x in self.commands if not isinstance(x, kind)), None)


class _Described:
    """The same reads on the descriptors: only the commands of the kinds read are spelled out (an
    auction's bid range is one descriptor of up to ~1,500 commands; the policy reads its first)."""

    def __init__(self, moves: Sequence[LegalMove]) -> None:
        self.moves = moves

    def first(self, kind: Kinds) -> c.Command | None:
        found = next((lm for lm in self.moves if isinstance(lm.command, kind) and lm.size()), None)
        return _spelled_first(found)

    def every(self, kind: type[K]) -> list[K]:
        return [cast(K, x) for lm in self.moves if isinstance(lm.command, kind) for x in expand(lm, CODEC)]

    def first_but(self, kind: Kinds) -> c.Command | None:
        found = next((lm for lm in self.moves if not isinstance(lm.command, kind) and lm.size()), None)
        return _spelled_first(found)


def _spelled_first(lm: LegalMove | None) -> c.Command | None:
    return cast(c.Command, spell_at(lm, 0, CODEC)) if lm is not None else None


Legal = _Spelled | _Described


def choose(view: View, legal: list[c.Command], rng: random.Random) -> c.Command:
    return _choose(view, _Spelled(legal), rng)


def choose_moves(view: View, moves: Sequence[LegalMove], rng: random.Random) -> c.Command:
    """`choose(view, expand_all(moves, CODEC), rng)` on the descriptors: the same command, only the
    commands of the kinds a step reads spelled out."""
    return _choose(view, _Described(moves), rng)


def _choose(view: View, legal: Legal, rng: random.Random) -> c.Command:
    s = _Seen(view)
    for step in (_order, _debts, _offers, _auction, _buy, _choice67, _jail, _develop, _trade, _turn):
        command = step(s, legal, rng)
        if command is not None:
            return command
    return _fallback(legal)


class NoMove(tablehall_rules.NoMove):
    """The seat has nothing to do but leave: a bot makes no move then (it never leaves)."""


# answers that end a decision without spending or giving anything, in order of preference
_ANSWERS = (c.DeclineTrade, c.PassAuction, c.VoteEnd, c.EndTurn, c.Roll, c.DeclineBuy, c.CollectDebt, c.PayDebt)
NEVER = (c.Leave, c.ProposeEnd)
_ONLY_FORCED = (c.Surrender, c.Mortgage, c.SellBuilding, c.ProposeTrade, c.AcceptTrade, c.Build, c.Unmortgage)


def _fallback(legal: Legal) -> c.Command:
    """A move no step chose: a plain answer, else anything harmless; never ⚑, and never a random mortgage."""
    for kind in _ANSWERS:
        found = legal.first(kind)
        if found is not None:
            return found
    harmless = legal.first_but(NEVER + _ONLY_FORCED)
    if harmless is not None:
        return harmless
    surrender = legal.first(c.Surrender)
    if surrender is not None:  # a debt nothing else can settle
        return surrender
    raise NoMove("only leaving is legal: a bot has no decision here")


def _order(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    return legal.first(c.RollForOrder)


def _debts(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    return legal.first(c.PayDebt) or legal.first(c.CollectDebt) or legal.first(c.Surrender)


def _offers(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    offers = {o["id"]: o for o in s.view["me"]["offers"]}
    for x in legal.every(c.AcceptTrade):
        if _good_offer(s, offers[x.offer_id]):
            return x
    return legal.first(c.DeclineTrade)


def _good_offer(s: _Seen, offer: dict[str, Any]) -> bool:
    """Accept what leaves this seat better off by the same reckoning its own offers are made by."""
    deal = worth.Deal(offer["proposer"], s.me, worth.Side.of(offer["give"]), worth.Side.of(offer["get"]))
    return bool(worth.gains(s.board, deal)[1] >= worth.MARGIN / 2 and s.money >= offer["get"]["money"])


def _auction(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    passing = legal.first(c.PassAuction)
    if passing is None:
        return None
    a = s.view["auction"]
    bid = legal.first(c.Bid)
    if isinstance(bid, c.Bid):
        index = a["square"]
        limit = s.worth(index, s.me)
        if s.rival_needs(index):
            limit = max(limit, s.squares[index]["price"] * 1.5)
        if bid.amount <= min(limit, s.money - BUY_MARGIN):
            return bid
    return passing


def _buy(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    decline = legal.first(c.DeclineBuy)
    if decline is None:
        return None
    buy = legal.first(c.Buy)
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


def _choice67(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    options = legal.every(c.Choose67)
    if not options:
        return None
    position = s.players[s.me]["position"]
    size = len(s.squares)
    return max(options, key=lambda x: _square_score(s, (position + x.steps) % size))


def _jail(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    if not s.players[s.me]["in_jail"] or legal.first(c.Roll) is None:
        return None
    card = legal.first(c.UseJailCard)
    if card is not None:
        return card
    unowned = sum(1 for sq in s.squares if sq.get("owner", 0) is None)
    if unowned > len(s.squares) // 4 and s.money > 4 * RESERVE:
        return legal.first(c.PayJailFine)
    return None


def _develop(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    """On its own turn: redeem mortgages in whole sets, then build evenly, keeping a reserve."""
    if s.view["active_seat"] != s.me or not (legal.first(c.Roll) or legal.first(c.EndTurn)):
        return None
    redeem = legal.every(c.Unmortgage)
    for x in sorted(redeem, key=lambda x: s.squares[x.square]["price"]):
        cost = s.squares[x.square]["rent_card"]["redeem_cost"]
        if s.money - cost >= 3 * RESERVE:
            return x
    builds = legal.every(c.Build)
    if builds:
        best = max(builds, key=lambda x: (s.squares[x.square]["price"], -x.square))
        if s.money - s.squares[best.square]["rent_card"]["house_cost"] >= RESERVE:
            return best
    return _mortgage_to_build(s, legal)


def _mortgage_to_build(s: _Seen, legal: Legal) -> c.Command | None:
    """Short of cash for a house on a whole set: mortgage the cheapest lot outside its sets, if that pays for one."""
    sets = [
        group
        for group, squares in s.groups.items()
        if squares[0]["kind"] == "street"
        and all(sq["owner"] == s.me and not sq["mortgaged"] for sq in squares)
        and min(sq["buildings"] for sq in squares) < 5
    ]
    if not sets:
        return None
    cost = min(s.groups[group][0]["rent_card"]["house_cost"] for group in sets)
    options = [x for x in legal.every(c.Mortgage) if s.squares[x.square]["group"] not in sets]
    raised = sum(s.squares[x.square]["rent_card"]["mortgage_value"] for x in options)
    if s.money - cost >= RESERVE or s.money + raised - cost < RESERVE:
        return None
    return min(options, key=lambda x: (s.squares[x.square]["price"], x.square))


def _trade(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    """Once every three rounds, on its own turn before rolling, propose the best deal for one of its sets."""
    view = s.view
    if view["active_seat"] != s.me or view["round"] % TRADE_ROUNDS != 0:
        return None
    if view["me"]["offers_made_this_round"] or legal.first(c.Roll) is None:
        return None
    partners = {x.to_seat for x in legal.every(c.ProposeTrade)}
    best: tuple[float, worth.Deal] | None = None
    for deal in _set_deals(s, partners):
        gain = worth.gains(s.board, deal)[0]
        if best is None or gain > best[0]:
            best = (gain, deal)
    if best is None:
        return None
    deal = best[1]
    return c.ProposeTrade(
        to_seat=deal.b,
        give=Bundle(lots=list(deal.a_gives.lots), money=deal.a_gives.money),
        get=Bundle(lots=list(deal.b_gives.lots), money=deal.b_gives.money),
    )


def _tradable(s: _Seen, seat: int) -> list[int]:
    """Lots of `seat` in groups without buildings."""
    return [
        sq["index"]
        for group in s.groups.values()
        if not any(x["buildings"] for x in group)
        for sq in group
        if sq["owner"] == seat
    ]


def _set_deals(s: _Seen, partners: set[int]) -> list[worth.Deal]:
    """Priced deals that complete one of this seat's street sets: the missing lots
    for money, or for one of its own lots the partner wants (with money either way)."""
    deals: list[worth.Deal] = []
    mine = _tradable(s, s.me)
    for group, squares in sorted(s.groups.items()):
        if squares[0]["kind"] != "street" or any(sq["buildings"] for sq in squares):
            continue
        missing = [sq for sq in squares if sq["owner"] != s.me]
        owners = {sq["owner"] for sq in missing}
        if not missing or len(missing) == len(squares) or len(owners) != 1:
            continue
        partner = owners.pop()
        if partner is None or partner not in partners:
            continue
        wanted = tuple(sq["index"] for sq in missing)
        swaps = [i for i in mine if s.squares[i]["group"] != group and s.owned_in_group(s.squares[i]["group"], partner)]
        for give in [(), *((i,) for i in swaps)]:
            deal = worth.priced(s.board, s.me, partner, give, wanted)
            if deal is not None:
                deals.append(deal)
    return deals


def _turn(s: _Seen, legal: Legal, rng: random.Random) -> c.Command | None:
    return legal.first(c.Roll) or legal.first(c.EndTurn)
