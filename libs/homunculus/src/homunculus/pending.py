"""Open decisions: the turn player's decision (with its clock) and the «Уно!» reaction windows."""

from __future__ import annotations

import msgspec

from homunculus import commands as c
from homunculus.cards import HAND_LIMIT
from homunculus.ring.state import AUCTION
from homunculus.rules.ring_commands import ring_default, ring_pending
from homunculus.state import ACTION, AFTER_DRAW, State
from tablehall_rules import PendingDecision


def turn_key(state: State) -> str:
    return f"turn:{state.decision_no}"


def turn_decision(state: State) -> PendingDecision:
    return PendingDecision(
        key=turn_key(state),
        seat=state.turn,
        kind=state.phase,
        clock="turn",
        opened_at_ms=state.turn_started_ms,
        clock_ms=state.afk.clock_ms(state.turn, state.clock_ms),
    )


def pending(state: State) -> list[PendingDecision]:
    if state.finished:
        return []
    out = [turn_decision(state)] if state.phase != AUCTION else []
    out += ring_pending(state)
    window = state.uno
    if window is not None:
        for p in state.live_players():
            if p == window.seat or not state.allied(p, window.seat):
                kind = "uno" if p == window.seat else "catch"
                out.append(
                    PendingDecision(
                        key=f"{kind}:{window.seat}:{window.no}:{p}",
                        seat=p,
                        kind=kind,
                        clock="reaction",
                        opened_at_ms=state.turn_started_ms,
                        clock_ms=0,
                        reaction=True,
                    )
                )
    return out


def default_command(state: State, decision: PendingDecision) -> msgspec.Struct:
    """The safe move when the turn's clock runs out: draw (and keep), exchange, keep, end;
    the ring's decisions: decline the lot, pass the bid, decline the trade, try doubles."""
    ring_move = ring_default(state, decision)
    if ring_move is not None:
        return ring_move
    if state.phase == ACTION:
        hand = state.hands[state.turn]
        if len(hand) >= HAND_LIMIT:
            card = min(hand)
            return c.ExchangeCard(card.colour, card.value)
        return c.DrawCard()
    if state.phase == AFTER_DRAW:
        return c.KeepCard()
    return c.EndTurn()
