"""The working area of one `decide` call: a private copy of the state that
follows every event emitted so far, so later rules see earlier effects."""

from __future__ import annotations

import msgspec

from puzzipolia.events import Event
from puzzipolia.evolve import evolve
from puzzipolia.state import State, clone
from tablehall_rules import DrawSource


class Flow:
    def __init__(self, state: State, now_ms: int, rng: DrawSource, *, copy: bool = True) -> None:
        self.state = clone(state) if copy else state
        self.now_ms = now_ms
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        stamped = msgspec.structs.replace(event, at_ms=self.now_ms)
        self.events.append(stamped)
        self.state = evolve(self.state, stamped)

    def roll_dice(self) -> list[int]:
        return [self.rng.die(), self.rng.die()]
