"""The end (Окончание игры): after 22 rounds, or when a player is removed or the table closes.

A player with no own king-six on the board (a die of its colour showing 6; domino sixes and black
sixes do not count) scores 0; then the pips of the dominoes left in its hand are subtracted.
The higher final score wins; equal scores share the place.
"""

from __future__ import annotations

from dragons.board import NO_DOMINO
from dragons.events import GameEnded
from dragons.evolve import Flow
from dragons.state import OVER, State
from tablehall_rules import Outcome

KING = 6


def has_king(st: State, seat: int) -> bool:
    return any(o == seat and f == KING and d == NO_DOMINO for o, f, d in zip(st.owner, st.face, st.domino, strict=True))


def hand_pips(st: State, seat: int) -> int:
    return sum(t.pips for t in st.player(seat).hand)


def final_score(st: State, seat: int) -> int:
    base = st.player(seat).score if has_king(st, seat) else 0
    return base - hand_pips(st, seat)


def places_by(scores: list[int]) -> list[list[int]]:
    order = sorted(set(scores), reverse=True)
    return [[seat for seat, s in enumerate(scores) if s == value] for value in order]


def outcome(st: State) -> Outcome | None:
    """Places, the reason and the final scores once the game is over."""
    if st.phase != OVER:
        return None
    return Outcome(places=[list(p) for p in st.places], reason=st.end_reason, scores=dict(enumerate(st.final)))


def standings(st: State) -> list[list[int]]:
    """Live places by score (public), final places once over."""
    if st.phase == OVER:
        return [list(p) for p in st.places]
    return places_by([p.score for p in st.players])


def end_game(f: Flow, reason: str, loser: int | None = None) -> None:
    st = f.state
    seats = range(len(st.players))
    final = [final_score(st, s) for s in seats]
    places = places_by(final) if loser is None else [[s for s in seats if s != loser], [loser]]
    f.emit(
        GameEnded(
            reason=reason,
            scores=[st.player(s).score for s in seats],
            final=final,
            places=places,
            king=[has_king(st, s) for s in seats],
            hand_pips=[hand_pips(st, s) for s in seats],
        )
    )
