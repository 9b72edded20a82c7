"""What a search scores a sampled world by: the seat's chance to win.

At the round limit the highest net worth wins, and the dice move the difference of two players'
net worth by about `ROUND_SPREAD` a round (one standard deviation; measured over 300 heads-up games
of the easy bot against itself at a round limit of 20, rounds 3-20 alike, 1565-1889). The live
seat's chance is then that of a normal variable: its lead over the richest rival, in units of the
spread of the rounds still to play, `Phi(lead / (ROUND_SPREAD * sqrt(rounds_left)))`. The share of
the net worth (the previous evaluation) ranks positions alike at one moment but not across time:
a lead of 2000 is a near-certain win at the last turn and a coin toss with 15 rounds to go, and a
search whose rollouts stop at different depths needs that difference.

Without a round limit (play to the last one standing) there is no clock to the end, and the score
is the seat's share of the live players' net worth. An eliminated seat scores 0; a finished game
scores 1 for a sole winner, a share of 1 for a shared first place.
"""

from __future__ import annotations

import math

from magnates.rules.worth import net_worth
from magnates.state import State

ROUND_SPREAD = 1650.0
# the least time left in rounds (the last turn still has dice to roll: never a hard 0 or 1 in play)
LEAST_ROUNDS = 0.05


def rounds_left(state: State) -> float:
    """Rounds still to play, the current one counted by the share of its live players yet to move."""
    live = state.live_seats()
    done = sum(1 for s in live if s < state.turn)
    return max(state.round_limit - state.round + (len(live) - done) / len(live), LEAST_ROUNDS)


def win_chance(state: State, seat: int) -> float:
    if state.phase == "over":
        first = state.places[0] if state.places else []
        return 1.0 / len(first) if seat in first else 0.0
    if not state.players[seat].alive:
        return 0.0
    live = state.live_seats()
    if len(live) == 1:
        return 1.0
    worth = {s: max(net_worth(state, s), 0) for s in live}
    if state.round_limit == 0:
        total = sum(worth.values())
        return worth[seat] / total if total else 1.0 / len(live)
    lead = worth[seat] - max(w for s, w in worth.items() if s != seat)
    z = lead / (ROUND_SPREAD * math.sqrt(rounds_left(state)))
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
