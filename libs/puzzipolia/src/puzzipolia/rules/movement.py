"""Moving a token: forward (the salary on passing Start), to a square, back."""

from __future__ import annotations

from puzzipolia.board import SALARY
from puzzipolia.events import Moved, SalaryPaid
from puzzipolia.flow import Flow


def move_by(f: Flow, seat: int, steps: int, via: str) -> None:
    """Forward `steps` squares; passing or landing on Start pays the salary."""
    size = f.state.geometry.size
    start = f.state.player(seat).position
    f.emit(Moved(seat=seat, from_square=start, to_square=(start + steps) % size, via=via))
    if start + steps >= size:
        f.emit(SalaryPaid(seat=seat, amount=SALARY))


def move_to(f: Flow, seat: int, target: int, via: str) -> None:
    size = f.state.geometry.size
    steps = (target - f.state.player(seat).position) % size
    move_by(f, seat, steps, via)


def move_back(f: Flow, seat: int, steps: int) -> None:
    size = f.state.geometry.size
    start = f.state.player(seat).position
    f.emit(Moved(seat=seat, from_square=start, to_square=(start - steps) % size, via="back"))
