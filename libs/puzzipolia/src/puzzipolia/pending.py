"""Open decisions with their clocks, and the safe default move for each."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.rules.buying import auction_clock_ms
from puzzipolia.rules.debts import collect_plan
from puzzipolia.rules.trades import OFFER_LIFE_MS
from puzzipolia.rules.turn import seats_to_roll_for_order
from puzzipolia.rules.vote import VOTE_MS
from puzzipolia.state import State
from tablehall_rules import PendingDecision
from tablehall_rules.afk import AFK_CLOCK_MS

_TURN_KINDS = {"roll": "roll", "buy": "buy", "card67": "card67", "end": "end_turn"}


def pending(state: State) -> list[PendingDecision]:
    if state.phase == "over":
        return []
    out: list[PendingDecision] = []
    if state.phase == "order":
        for seat in seats_to_roll_for_order(state):
            out.append(
                PendingDecision(
                    f"order:{state.order_stage}:{seat}",
                    seat,
                    "order_roll",
                    "decision",
                    state.phase_at_ms,
                    state.clock_for(seat),
                )
            )
    seen_debtors: set[int] = set()
    for d in state.debts:
        if d.debtor not in seen_debtors:
            seen_debtors.add(d.debtor)
            out.append(
                PendingDecision(f"debt:{d.id}", d.debtor, "debt", "decision", d.at_ms, state.clock_for(d.debtor))
            )
    kind = _TURN_KINDS.get(state.phase)
    if kind is not None and not state.debts:
        if kind == "roll" and state.player(state.active).in_jail:
            kind = "jail"
        out.append(
            PendingDecision(
                f"turn:{state.turn_seq}",
                state.active,
                kind,
                "decision",
                state.phase_at_ms,
                state.clock_for(state.active),
            )
        )
    a = state.auction
    if a is not None:
        for seat in a.bidders:
            if seat == a.high_bidder:
                continue
            key = f"auction:{a.id}:{a.bids}:{a.clock_at_ms}:{seat}"
            if state.is_away(seat):
                out.append(PendingDecision(key, seat, "auction_pass", "afk", a.clock_at_ms, AFK_CLOCK_MS))
            else:
                out.append(PendingDecision(key, seat, "auction", "auction", a.clock_at_ms, auction_clock_ms(a)))
    for o in state.offers:
        # a trade offer is private to its two parties
        out.append(
            PendingDecision(
                f"offer:{o.id}", o.recipient, "offer_answer", "offer", o.at_ms, OFFER_LIFE_MS, audience=[o.proposer]
            )
        )
    v = state.vote
    if v is not None:
        for seat in v.voters:
            if seat not in v.yes:
                out.append(PendingDecision(f"vote:{v.id}:{seat}", seat, "vote_answer", "vote", v.at_ms, VOTE_MS))
    return out


def default_command(state: State, decision: PendingDecision) -> c.Command:
    kind = decision.kind
    if kind == "order_roll":
        return c.RollForOrder()
    if kind in ("roll", "jail"):
        return c.Roll()
    if kind == "buy":
        return c.DeclineBuy()
    if kind == "card67":
        return c.Choose67(steps=7)
    if kind == "end_turn":
        return c.EndTurn()
    if kind == "debt":
        debt = next(d for d in state.debts if d.debtor == decision.seat)
        _, covered = collect_plan(state, decision.seat, debt.amount)
        return c.CollectDebt() if covered else c.Surrender()
    if kind == "auction":
        return c.CloseAuction()
    if kind == "auction_pass":
        return c.PassAuction()
    if kind == "offer_answer":
        return c.DeclineTrade(offer_id=int(decision.key.split(":")[1]))
    if kind == "vote_answer":
        return c.CloseVote()
    raise ValueError(f"unknown decision kind {kind!r}")
