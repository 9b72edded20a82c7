"""The choice a card leaves to the player: 67! moves 6 or 7 squares (the cards themselves: `landing`)."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.events import Choice67Made
from puzzipolia.flow import Flow
from puzzipolia.rules.guards import require_active
from puzzipolia.rules.landing import land
from puzzipolia.rules.movement import move_by
from puzzipolia.rules.turn import continue_turn
from tablehall_rules import invalid

SIXTY_SEVEN_CHOICES = (6, 7)


def choose_67(f: Flow, cmd: c.Choose67, seat: int) -> None:
    require_active(f.state, seat, "card67")
    if cmd.steps not in SIXTY_SEVEN_CHOICES:
        raise invalid("BAD_CHOICE", "67! moves 6 or 7 squares.", "67! — это 6 или 7 полей.")
    f.emit(Choice67Made(seat=seat, steps=cmd.steps))
    move_by(f, seat, cmd.steps, "choice")
    land(f, seat)
    continue_turn(f)
