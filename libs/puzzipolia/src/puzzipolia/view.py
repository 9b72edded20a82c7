"""What a viewer may see. The one place where redaction happens.

Public: the board (owners, buildings, mortgages, every rent card with the row
in force), money, positions, jail, get-out cards, debts, the auction, the vote,
the open decisions with their clocks, deck sizes. Private to a seat: the
offers it made or received and what "collect" would sell and mortgage for its
debt. Nobody but an auditor sees the deck order or other players' offers.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import msgspec

from puzzipolia.pending import pending
from puzzipolia.rules.debts import collect_plan
from puzzipolia.rules.end import net_worth
from puzzipolia.rules.rent import rent_card
from puzzipolia.rules.trades import UNANSWERED_PER_RECIPIENT
from puzzipolia.state import Offer, State
from tablehall_rules import JsonView, SharedJson, Viewer
from tablehall_rules.disclosure import visible_decisions

# the squares' part of a view depends only on the board and its owners, buildings and mortgages,
# which change on a few moves of a game: built once for each such board and shared by every view
# until it changes (a `SharedJson`: read-only, encoded once). The boards seen last are kept, the
# least recently seen dropped first: one is about 100 kB with its JSON, so at most ~100 MB
SQUARES_KEPT = 1024
_kept_squares: OrderedDict[tuple[str, tuple[int, ...], tuple[int, ...], tuple[bool, ...]], SharedJson] = OrderedDict()


def _squares(st: State) -> SharedJson:
    key = (st.board, tuple(st.owners), tuple(st.houses), tuple(st.mortgaged))
    found = _kept_squares.get(key)
    if found is None:
        found = _kept_squares[key] = SharedJson(build_squares(st))
        if len(_kept_squares) > SQUARES_KEPT:
            _kept_squares.popitem(last=False)
    else:
        _kept_squares.move_to_end(key)
    return found


def build_squares(st: State) -> list[dict[str, Any]]:
    """Every square as a view shows it: names, owner, buildings, mortgage, the rent card."""
    out = []
    for sq in st.geometry.squares:
        i = sq.index
        entry: dict[str, Any] = {"index": i, "key": sq.key, "kind": sq.kind, "en": sq.en, "ru": sq.ru}
        if sq.is_ownable:
            entry.update(
                group=sq.group,
                price=sq.price,
                owner=st.owners[i] if st.owners[i] >= 0 else None,
                buildings=st.houses[i],
                hotel=st.houses[i] == 5,
                mortgaged=st.mortgaged[i],
                rent_card=rent_card(st, i),
            )
        elif sq.amount:
            entry["amount"] = sq.amount
        out.append(entry)
    return out


def _players(st: State) -> list[dict[str, Any]]:
    return [
        {
            "seat": p.seat,
            "name": p.name,
            "is_bot": p.is_bot,
            "bot_controlled": st.afk.by_bot[p.seat],
            "money": p.money,
            "position": p.position,
            "status": p.status,
            "in_jail": p.in_jail,
            "jail_tries": p.jail_tries,
            "jail_cards": list(p.jail_cards),
            "afk": st.afk.is_afk(p.seat),
            "absent": st.afk.is_absent(p.seat),
            "net_worth": net_worth(st, p.seat),
            "in_order": st.order.index(p.seat) if p.seat in st.order else None,
            # the seed's "at most three unanswered offers per person" shows when it binds, and
            # only then: anyone proposing to this player is told so
            "offers_full": sum(1 for o in st.offers if o.recipient == p.seat) >= UNANSWERED_PER_RECIPIENT,
        }
        for p in st.players
    ]


def _offer(o: Offer) -> dict[str, Any]:
    return {
        "id": o.id,
        "proposer": o.proposer,
        "recipient": o.recipient,
        "give": msgspec.to_builtins(o.give),
        "get": msgspec.to_builtins(o.get),
        "at_ms": o.at_ms,
    }


def _me(st: State, seat: int) -> dict[str, Any]:
    p = st.player(seat)
    debts = st.debts_of(seat)
    me: dict[str, Any] = {
        "seat": seat,
        "offers_made_this_round": p.offers_made if p.offers_round == st.round else 0,
        "offers": [_offer(o) for o in st.offers if seat in (o.proposer, o.recipient)],
        # until when this seat and each partner may not trade again (after a declined offer)
        "trade_waits": {k: until for k, until in sorted(st.pair_waits.items()) if str(seat) in k.split("-")},
        "collect": None,
    }
    if debts:
        steps, covered = collect_plan(st, seat, debts[0].amount)
        me["collect"] = {
            "debt_id": debts[0].id,
            "covers": covered,
            "steps": [msgspec.to_builtins(s) for s in steps],
            "raises": sum(s.amount for s in steps),
        }
    return me


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    a = state.auction
    v = state.vote
    out: dict[str, Any] = {
        "game": "puzzipolia",
        "board": state.board,
        "phase": state.phase,
        "active_seat": state.active if state.active >= 0 else None,
        "round": state.round,
        "round_limit": state.round_limit or None,
        "decision_clock_ms": state.clock_ms,
        "dice": list(state.dice),
        "doubles": state.doubles,
        "buy_square": state.buy_square if state.buy_square >= 0 else None,
        "order": list(state.order),
        "order_rolls": {str(k): v for k, v in state.order_rolls.items()},
        "squares": _squares(state),
        "players": _players(state),
        "debts": [msgspec.to_builtins(d) for d in state.debts],
        "auction": msgspec.to_builtins(a) if a is not None else None,
        "vote": msgspec.to_builtins(v) if v is not None else None,
        # a failed vote delays the next proposal (public: everybody saw it fail)
        "vote_cooldown": {"failed_at_ms": state.vote_fail_at_ms, "proposer": state.vote_fail_proposer}
        if state.vote_fail_proposer != -2
        else None,
        # who went out, first to last (public; it decides their places)
        "eliminated": list(state.eliminated),
        "decks": {deck: {"size": len(cards)} for deck, cards in state.decks.items()},
        "decisions": [msgspec.to_builtins(d) for d in visible_decisions(pending(state), viewer)],
        "now_ms": state.last_at_ms,
        "result": {
            "reason": state.end_reason,
            "places": state.places,
            "scores": {str(seat): score for seat, score in state.scores.items()},
        }
        if state.phase == "over"
        else None,
    }
    if viewer.role == "seat" and viewer.seat is not None and state.has_seat(viewer.seat):
        out["me"] = _me(state, viewer.seat)
    elif viewer.role == "auditor":
        out["decks"] = {deck: {"size": len(cards), "order": list(cards)} for deck, cards in state.decks.items()}
        out["offers"] = [_offer(o) for o in state.offers]
    return JsonView(out)
