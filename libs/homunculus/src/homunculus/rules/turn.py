"""Turn order, elimination and the end of the game.

Turns go to the next live player in the current direction (clockwise, player order, until a
«Разворот»). A card's effect on the next player (skip, draw 2 or 4 and skip) is queued during
the turn and applied when it ends. An eliminated player's army and dominoes leave the board,
its cards go under the discard pile, its mines stay as nobody's hidden mines, the tiles in its
hand go back to the bazaar. The game ends when one player, or one team, is left.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.rules.ring_lots import after_elimination
from homunculus.rules.ring_roll import begin_ring
from homunculus.tx import Tx
from tablehall_boards import Kind
from tablehall_boards.deck import draw

QUIET_ROUNDS = 30  # rounds in a row without a capture end the game
ARMY_VALUE = {Kind.PAWN: 1, Kind.KNIGHT: 3, Kind.BISHOP: 3, Kind.ROOK: 5, Kind.QUEEN: 9}


def draw_cards(tx: Tx, seat: int, count: int, reason: str) -> None:
    _, drawn = draw(tx.state.deck, count, tx.ctx.rng)
    tx.emit(e.CardsDrawn(seat, drawn, reason))


def close_uno(tx: Tx) -> None:
    """Any accepted command other than «Уно!» / «Поймать» closes an open window (no cost)."""
    if tx.state.uno is not None:
        tx.emit(e.UnoClosed(tx.state.uno.seat))


def eliminate(tx: Tx, seat: int, reason: str) -> None:
    if not tx.state.alive[seat]:
        return
    tx.emit(e.Eliminated(seat, reason))
    after_elimination(tx, seat)  # the ring: lots back to the bank, offers and bids lapse
    check_finish(tx)


def units(tx: Tx) -> list[list[int]]:
    s = tx.state
    units: list[list[int]] = [list(t) for t in s.teams]
    teamed = {p for t in s.teams for p in t}
    units += [[p] for p in range(s.players) if p not in teamed]
    return units


def check_finish(tx: Tx, reason: str = "kings") -> None:
    s = tx.state
    if s.finished:
        return
    all_units = units(tx)
    live = [u for u in all_units if any(s.alive[p] for p in u)]
    if len(live) > 1:
        return
    tx.emit(e.Finished(places_of(tx, all_units), reason))


def places_of(tx: Tx, units: list[list[int]]) -> list[list[int]]:
    """Live units first (together), then the others, the last eliminated best."""
    s = tx.state
    order = {p: i for i, p in enumerate(s.eliminated)}
    live = sorted(p for u in units if any(s.alive[q] for q in u) for p in u)
    out = [live] if live else []
    gone = [u for u in units if not any(s.alive[q] for q in u)]
    gone.sort(key=lambda u: max(order.get(p, -1) for p in u), reverse=True)
    out += [sorted(u) for u in gone]
    return out


def end_turn(tx: Tx) -> None:
    """Pass the turn on, applying the queued effect on the next player."""
    s = tx.state
    if s.finished:
        return
    pointer = s.turn
    if s.next_draws:
        draw_cards(tx, s.next_live(pointer), s.next_draws, "penalty")
    for _ in range(s.skips):
        victim = tx.state.next_live(pointer)
        if not _round_goes_on(tx):
            return
        if tx.state.alive[victim]:
            tx.emit(e.TurnSkipped(victim))
            pointer = victim
    if _round_goes_on(tx):
        tx.emit(e.TurnBegan(tx.state.next_live(pointer), tx.now))
        begin_ring(tx)  # every turn begins with the ring roll


def _round_goes_on(tx: Tx) -> bool:
    """Before the next turn (or skip): end the round if every live player has had one; after
    30 quiet rounds in a row the armies' strength decides. False when the game ended."""
    s = tx.state
    if any(p not in s.round_seen for p in s.live_players()):
        return True
    tx.emit(e.RoundEnded(s.round_no, quiet=not s.captured_this_round))
    if tx.state.quiet_rounds >= QUIET_ROUNDS:
        tx.emit(e.Finished(places_by_strength(tx), "strength"))
        return False
    from homunculus.rules.round_die import roll_round_die  # the die uses this module's rules

    roll_round_die(tx)
    return not tx.state.finished


def army_strength(tx: Tx, unit: list[int]) -> int:
    """Pawn 1, knight/bishop 3, rook 5, queen 9 (the king counts nothing)."""
    return sum(ARMY_VALUE.get(pc.kind, 0) for pc in tx.state.pieces.values() if pc.side in unit)


def places_by_strength(tx: Tx) -> list[list[int]]:
    """Live units by army strength (equal strength shares a place: a draw), then the others."""
    s = tx.state
    all_units = units(tx)
    live = [u for u in all_units if any(s.alive[p] for p in u)]
    out: list[list[int]] = []
    for score in sorted({army_strength(tx, u) for u in live}, reverse=True):
        out.append(sorted(p for u in live if army_strength(tx, u) == score for p in u))
    return out + places_of(tx, all_units)[1 if live else 0 :]
