"""A full state consistent with one seat's view, for bots that search.

Everything public is copied from the view. What the seat cannot see is
sampled: the order of both decks (the cards not held by players, shuffled),
other players' offers (left out: the seat cannot know they exist) and the
bookkeeping the view does not show (trade cool-downs between two other
seats, other players' offer counts this round).
It reads the view only, never a true state.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from puzzipolia.cards import DECKS, deck_cards
from puzzipolia.rules.trades import UNANSWERED_PER_RECIPIENT
from puzzipolia.state import Auction, Bundle, Debt, Offer, Player, State, Vote
from tablehall_rules import AfkLadder

View = dict[str, Any]


def _players(view: View, me: int) -> list[Player]:
    made = view["me"]["offers_made_this_round"]
    return [
        Player(
            seat=p["seat"],
            name=p["name"],
            is_bot=p["is_bot"],
            money=p["money"],
            position=p["position"],
            status=p["status"],
            in_jail=p["in_jail"],
            jail_tries=p["jail_tries"],
            jail_cards=list(p["jail_cards"]),
            offers_round=view["round"] if p["seat"] == me and made else 0,
            offers_made=made if p["seat"] == me else 0,
        )
        for p in view["players"]
    ]


def _decks(view: View, rng: random.Random) -> dict[str, list[str]]:
    held = {cid for p in view["players"] for cid in p["jail_cards"]}
    decks: dict[str, list[str]] = {}
    for deck in DECKS:
        cards = [cid for cid in deck_cards(deck) if cid not in held]
        rng.shuffle(cards)
        size = view["decks"][deck]["size"]
        # a kept card of an eliminated player goes back under the deck; sizes always agree
        decks[deck] = cards[:size]
    return decks


def _offer(o: dict[str, Any]) -> Offer:
    return Offer(
        id=o["id"],
        proposer=o["proposer"],
        recipient=o["recipient"],
        give=msgspec.convert(o["give"], Bundle),
        get=msgspec.convert(o["get"], Bundle),
        at_ms=o["at_ms"],
    )


def _key_number(view: View, prefix: str, index: int) -> int | None:
    for d in view["decisions"]:
        parts = d["key"].split(":")
        if parts[0] == prefix:
            return int(parts[index])
    return None


def _turn_opened(view: View) -> int:
    for d in view["decisions"]:
        if d["key"].startswith(("turn:", "order:")):
            return int(d["opened_at_ms"])
    return int(view["now_ms"])


def _unseen_offers(view: View, me: int, seen: list[Offer]) -> list[Offer]:
    """Stand-ins for the offers between others that the view reveals only by their number:
    a player shown `offers_full` has three unanswered offers, some of which this seat cannot see."""
    out: list[Offer] = []
    first_id = max((o.id for o in seen), default=0) + 1
    for p in view["players"]:
        if not p.get("offers_full"):
            continue
        missing = UNANSWERED_PER_RECIPIENT - sum(1 for o in seen if o.recipient == p["seat"])
        proposers = [
            q["seat"] for q in view["players"] if q["seat"] not in (me, p["seat"]) and q["status"] == "playing"
        ]
        for i in range(missing):
            proposer = proposers[i % len(proposers)] if proposers else me
            out.append(
                Offer(
                    id=first_id + len(out),
                    proposer=proposer,
                    recipient=p["seat"],
                    give=Bundle(money=1),
                    get=Bundle(money=1),
                    at_ms=int(view["now_ms"]),
                )
            )
    return out


def determinize(view: View, seat: int, rng: random.Random) -> State:
    """A state whose `view(state, Viewer.of_seat(seat))` equals `view`, hidden parts sampled."""
    squares = view["squares"]
    players = _players(view, seat)
    offers = [_offer(o) for o in view["me"]["offers"]]
    offers += _unseen_offers(view, seat, offers)
    debts = [msgspec.convert(d, Debt) for d in view["debts"]]
    auction = msgspec.convert(view["auction"], Auction) if view["auction"] is not None else None
    vote = msgspec.convert(view["vote"], Vote) if view["vote"] is not None else None
    result = view["result"]
    active = view["active_seat"]
    dice = list(view["dice"])
    doubles = view["doubles"]
    rolled_doubles = len(dice) == 2 and dice[0] == dice[1] and doubles > 0
    order = list(view["order"])
    waiting = [d["seat"] for d in view["decisions"] if d["kind"] == "order_roll"]
    rolled = {int(k): v for k, v in view["order_rolls"].items()}
    cooldown = view.get("vote_cooldown")
    return State(
        board=view["board"],
        start_money=1500,
        clock_ms=view["decision_clock_ms"],
        round_limit=view["round_limit"] or 0,
        players=players,
        seat_index={p.seat: i for i, p in enumerate(players)},
        owners=[sq["owner"] if sq.get("owner") is not None else -1 for sq in squares],
        houses=[sq.get("buildings", 0) for sq in squares],
        mortgaged=[bool(sq.get("mortgaged", False)) for sq in squares],
        decks=_decks(view, rng),
        order=order,
        order_groups=[sorted(set(waiting) | set(rolled))] if view["phase"] == "order" else [[s] for s in order],
        order_rolls=rolled,
        order_stage=_key_number(view, "order", 1) or 0,
        phase=view["phase"],
        phase_at_ms=_turn_opened(view),
        last_at_ms=view["now_ms"],
        turn_seq=_key_number(view, "turn", 1) or 0,
        active=active if active is not None else -1,
        round=view["round"],
        dice=dice,
        doubles=doubles,
        roll_again=rolled_doubles and view["phase"] != "roll",
        buy_square=view["buy_square"] if view["buy_square"] is not None else -1,
        debts=debts,
        next_debt_id=max((d.id for d in debts), default=0) + 1,
        auction=auction,
        next_auction_id=(auction.id + 1) if auction is not None else 1,
        offers=offers,
        next_offer_id=max((o.id for o in offers), default=0) + 1,
        pair_waits=dict(view["me"].get("trade_waits", {})),
        vote=vote,
        next_vote_id=(vote.id + 1) if vote is not None else 1,
        vote_fail_at_ms=cooldown["failed_at_ms"] if cooldown else -1,
        vote_fail_proposer=cooldown["proposer"] if cooldown else -2,
        eliminated=list(view["eliminated"]),
        end_reason=result["reason"] if result else "",
        places=[list(p) for p in result["places"]] if result else [],
        scores={int(k): v for k, v in result["scores"].items()} if result else {},
        afk=_ladder(view),
    )


def _ladder(view: View) -> AfkLadder:
    """The AFK ladder from the players' public marks (strikes are not shown: one for an AFK seat)."""
    ladder = AfkLadder.for_seats(
        max(p["seat"] for p in view["players"]) + 1, bots=[p["seat"] for p in view["players"] if p["is_bot"]]
    )
    for p in view["players"]:
        seat = p["seat"]
        ladder.afk[seat], ladder.absent[seat], ladder.by_bot[seat] = p["afk"], p["absent"], p["bot_controlled"]
        ladder.strikes[seat] = int(p["afk"])
    return ladder
