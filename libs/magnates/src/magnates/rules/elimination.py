"""Elimination and the end of the game: last standing, the round limit, a closed table."""

from __future__ import annotations

from magnates import events as e
from magnates.flow import Flow
from magnates.rules.worth import net_worth
from magnates.state import State
from tablehall_rules import Outcome


def eliminate(flow: Flow, seat: int, reason: str) -> None:
    if not flow.state.players[seat].alive:
        return
    flow.emit(e.Eliminated(seat, reason))
    if len(flow.state.live_seats()) <= 1 and not flow.over:
        finish(flow, "last_standing")


def places(state: State, by_worth: bool) -> list[list[int]]:
    """Live players first (by net worth, equal worth shares a place), then the eliminated, the
    last out first."""
    live = state.live_seats()
    out: list[list[int]] = []
    if by_worth:
        worth = {s: net_worth(state, s) for s in live}
        for value in sorted(set(worth.values()), reverse=True):
            out.append([s for s in live if worth[s] == value])
    elif live:
        out.append(live)
    out += [[s] for s in reversed(state.out_order)]
    return out


def finish(flow: Flow, reason: str) -> None:
    state = flow.state
    scores = {s: net_worth(state, s) for s in range(len(state.players))}
    flow.emit(e.Finished(places(state, by_worth=reason != "last_standing"), reason, scores))


def standings(state: State) -> list[list[int]]:
    """Live places by net worth (everything is public); the final places once over."""
    if state.phase == "over":
        return [list(p) for p in state.places]
    return places(state, by_worth=True)


def outcome(state: State) -> Outcome | None:
    if state.phase != "over":
        return None
    return Outcome(places=[list(p) for p in state.places], reason=state.end_reason, scores=dict(state.scores))
