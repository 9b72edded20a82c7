"""The end of a match: net worth, places and the GameEnded event."""

from __future__ import annotations

import tablehall_rules
from puzzipolia.events import GameEnded
from puzzipolia.state import State
from tablehall_rules import Outcome

# how each `Outcome.reason` reads to people
END_REASONS = {
    "round_limit": {"en": "the round limit was reached", "ru": "сыграны все круги"},
    "vote": {"en": "the players voted to end it", "ru": "игроки проголосовали за конец"},
    "last_standing": {"en": "one player is left", "ru": "остался один игрок"},
    "operator": {"en": "an operator closed the table", "ru": "оператор закрыл стол"},
    "idle": {"en": "the table stood idle", "ru": "стол простаивал"},
}


def net_worth(st: State, seat: int) -> int:
    """Cash + lots at price (mortgaged at half) + buildings at their cost."""
    geometry = st.geometry
    total = st.player(seat).money
    for index, owner in enumerate(st.owners):
        if owner != seat:
            continue
        sq = geometry.squares[index]
        total += sq.price // 2 if st.mortgaged[index] else sq.price
        total += st.houses[index] * sq.house_cost
    return total


def places(st: State) -> tuple[list[list[int]], dict[int, int]]:
    """Players still in the game by net worth (ties share a place), then the
    eliminated ones, the last to go first."""
    scores = {p.seat: net_worth(st, p.seat) for p in st.players}
    live = sorted(st.live_seats(), key=lambda s: (-scores[s], s))
    result: list[list[int]] = []
    for seat in live:
        if result and scores[result[-1][0]] == scores[seat]:
            result[-1].append(seat)
        else:
            result.append([seat])
    result.extend([seat] for seat in reversed(st.eliminated))
    return result, scores


def end_game(f: tablehall_rules.Flow[State], reason: str) -> None:
    ranking, scores = places(f.state)
    f.emit(GameEnded(reason=reason, places=ranking, scores=scores))


def standings(state: State) -> list[list[int]]:
    """Live places by net worth: cash, lots and buildings are all public."""
    return [list(p) for p in places(state)[0]]


def outcome(state: State) -> Outcome | None:
    if state.phase != "over":
        return None
    return Outcome(places=[list(p) for p in state.places], reason=state.end_reason, scores=dict(state.scores))
