"""Elimination and the end of the game: who is out, when the game is over, the places.

An eliminated player's army and dominoes leave the board, its cards go under the discard pile,
its mines stay as nobody's hidden mines, the tiles in its hand go back to the bazaar (evolve);
the ring takes its lots back. The game ends when one player, or one team, is left; places after
it: the last eliminated best. Live standings go by army strength (public facts only).
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.board import STRENGTH
from homunculus.flow import Flow
from homunculus.rules.ring_lots import after_elimination
from homunculus.rules.ring_roll import ring_goes_on
from homunculus.state import State
from tablehall_boards import Kind
from tablehall_rules import Outcome

# The longest game the rules allow (`nature.max_commands`): 30 rounds after the last capture end
# it, and a capture takes one of the 64 pieces, so at most 65 × 30 rounds of up to 4 turns. A
# turn is one action and what the rules allow beside it: its ring part (a roll, the lot, the
# Dungeon, doubles thrice), purchases into 4 slots, one item, estates and one trade, about 12
# commands. A resurrection (12 gold) gives a piece back and an auction's bids are bounded only by
# the gold, so this bounds the games without them; random games end far inside it.
MAX_COMMANDS = 65 * 30 * 4 * 12

# the army's strength when 30 quiet rounds end the game (the king counts nothing)
ARMY_VALUE = {Kind.PAWN: 1, Kind.KNIGHT: 3, Kind.BISHOP: 3, Kind.ROOK: 5, Kind.QUEEN: 9}


def eliminate(flow: Flow, seat: int, reason: str) -> None:
    if not flow.state.alive[seat]:
        return
    flow.emit(e.Eliminated(seat, reason))
    # the ring: lots back to the bank, offers and bids lapse; an auction it ended lets the turn go on
    if after_elimination(flow, seat):
        ring_goes_on(flow, flow.state.turn)
    check_finish(flow)


def units(state: State) -> list[list[int]]:
    """The sides of the game: the teams, then every player in none."""
    out: list[list[int]] = [list(t) for t in state.teams]
    teamed = {p for t in state.teams for p in t}
    out += [[p] for p in range(state.players) if p not in teamed]
    return out


def check_finish(flow: Flow, reason: str = "kings") -> None:
    s = flow.state
    if s.finished:
        return
    all_units = units(s)
    live = [u for u in all_units if any(s.alive[p] for p in u)]
    if len(live) > 1:
        return
    flow.emit(e.Finished(places_of(s, all_units), reason))


def places_of(state: State, all_units: list[list[int]]) -> list[list[int]]:
    """Live units first (together), then the others, the last eliminated best."""
    order = {p: i for i, p in enumerate(state.eliminated)}
    live = sorted(p for u in all_units if any(state.alive[q] for q in u) for p in u)
    out = [live] if live else []
    gone = [u for u in all_units if not any(state.alive[q] for q in u)]
    gone.sort(key=lambda u: max(order.get(p, -1) for p in u), reverse=True)
    out += [sorted(u) for u in gone]
    return out


def army_strength(state: State, unit: list[int]) -> int:
    """Pawn 1, knight/bishop 3, rook 5, queen 9 (the king counts nothing)."""
    return sum(ARMY_VALUE.get(pc.kind, 0) for pc in state.pieces.values() if pc.side in unit)


def places_by_strength(state: State) -> list[list[int]]:
    """Live units by army strength (equal strength shares a place: a draw), then the others."""
    all_units = units(state)
    live = [u for u in all_units if any(state.alive[p] for p in u)]
    out: list[list[int]] = []
    for score in sorted({army_strength(state, u) for u in live}, reverse=True):
        out.append(sorted(p for u in live if army_strength(state, u) == score for p in u))
    return out + places_of(state, all_units)[1 if live else 0 :]


def close(flow: Flow, reason: str) -> None:
    """The table is closed: the game ends as it stands, the live players share first place."""
    flow.emit(e.Finished(places_of(flow.state, units(flow.state)), f"closed:{reason}"))


def outcome(state: State) -> Outcome | None:
    """The result once the game is over: the last army (or team) standing first."""
    if not state.finished:
        return None
    return Outcome(places=state.places, reason=state.end_reason, teams=[list(t) for t in state.teams])


def standings(state: State) -> list[list[int]]:
    """Live players (teams together) by army strength (the piercing strengths, the king 4),
    then the eliminated, last out best."""
    all_units = [sorted(u) for u in units(state)]
    by_side = [0] * len(state.alive)  # one pass over the pieces, not one per unit and score
    for pc in state.pieces.values():
        by_side[pc.side] += STRENGTH[pc.kind]
    live = [u for u in all_units if any(state.alive[p] for p in u)]
    gone = [u for u in all_units if not any(state.alive[p] for p in u)]
    strength = [sum(by_side[p] for p in u) for u in live]
    out: list[list[int]] = []
    for score in sorted(set(strength), reverse=True):
        out.append(sorted(p for u, s in zip(live, strength, strict=True) if s == score for p in u))
    order = {p: i for i, p in enumerate(state.eliminated)}
    gone.sort(key=lambda u: max(order.get(p, -1) for p in u), reverse=True)
    return out + gone
