"""Turn order, rounds and the phases of a turn.

Turns go to the next live player in the current direction (clockwise, player order, until a
«Разворот»). A card's effect on the next player (skip, draw 2 or 4 and skip) is queued during
the turn and applied when it ends. A round ends when every live player has had a turn (skips
count); after it the round die rolls, and 30 quiet rounds in a row end the game by strength.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.flow import Flow
from homunculus.rules.draws import draw_cards
from homunculus.rules.end import eliminate, places_by_strength
from homunculus.rules.ring_roll import begin_ring
from homunculus.rules.round_die import roll_round_die
from tablehall_rules import IllegalCommand, illegal

# what the turn expects in each phase, said with the refusal of anything else
EXPECTED: dict[str, tuple[str, str]] = {
    "action": ("Play a card, place a domino or draw a card.", "Сыграйте карту, поставьте кость или возьмите карту."),
    "continue": ("One more action, or end the turn.", "Ещё одно действие или конец хода."),
    "after_draw": ("Play the card you drew, or keep it.", "Сыграйте взятую карту или оставьте её."),
    "free_move": ("Make the free move, or end the turn.", "Сделайте свободный ход или закончите ход."),
    "buy": ("Buy the lot you stand on, or decline it.", "Купите участок, на котором стоите, или откажитесь."),
    "auction": ("The auction goes first: bid or pass.", "Сначала аукцион: ставка или пас."),
    "dungeon": ("You are in the Dungeon: roll, pay 5 or use a pass.", "Вы в Темнице: бросок, 5 золота или пропуск."),
}


def wrong_phase(phase: str = "") -> IllegalCommand:
    """Not at this point of the turn; the refusal says what the turn expects now."""
    en, ru = EXPECTED.get(phase, ("Wait for your moment.", "Дождитесь своего момента."))
    return illegal(
        "WRONG_PHASE", f"That is not possible at this point of the turn. {en}", f"Сейчас этого сделать нельзя. {ru}"
    )


QUIET_ROUNDS = 30  # rounds in a row without a capture end the game


def close_uno(flow: Flow) -> None:
    """Any accepted command other than «Уно!» / «Поймать» closes an open window (no cost)."""
    if flow.state.uno is not None:
        flow.emit(e.UnoClosed(flow.state.uno.seat))


def end_turn(flow: Flow) -> None:
    """Pass the turn on, applying the queued effect on the next player."""
    s = flow.state
    if s.finished:
        return
    pointer = s.turn
    if s.next_draws:
        draw_cards(flow, s.next_live(pointer), s.next_draws, "penalty")
    for _ in range(s.skips):
        victim = flow.state.next_live(pointer)
        if not _round_goes_on(flow):
            return
        if flow.state.alive[victim]:
            flow.emit(e.TurnSkipped(victim))
            pointer = victim
    if _round_goes_on(flow):
        flow.emit(e.TurnBegan(flow.state.next_live(pointer), flow.now_ms))
        begin_ring(flow)  # every turn begins with the ring roll


def _round_goes_on(flow: Flow) -> bool:
    """Before the next turn (or skip): end the round if every live player has had one; after
    30 quiet rounds in a row the armies' strength decides. False when the game ended."""
    s = flow.state
    if any(p not in s.round_seen for p in s.live_players()):
        return True
    flow.emit(e.RoundEnded(s.round_no, quiet=not s.captured_this_round))
    if flow.state.quiet_rounds >= QUIET_ROUNDS:
        flow.emit(e.Finished(places_by_strength(flow.state), "strength"))
        return False
    roll_round_die(flow)
    return not flow.state.finished


def put_out(flow: Flow, seat: int, reason: str) -> None:
    """The player is out (surrender, the clock, the table's removal); on its turn the turn goes on."""
    was_turn = flow.state.turn == seat
    eliminate(flow, seat, reason)
    if was_turn and not flow.state.finished:
        end_turn(flow)
