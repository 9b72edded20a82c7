"""The working area of one `decide` call: a private copy of the state that follows every event
emitted so far, so later rules see earlier effects."""

from __future__ import annotations

import msgspec

from magnates.evolve import evolve
from magnates.state import State, clone
from tablehall_rules import DrawSource


class Flow:
    def __init__(self, state: State, now_ms: int, rng: DrawSource) -> None:
        self.state = clone(state)
        self.now_ms = now_ms
        self.rng = rng
        self.events: list[msgspec.Struct] = []

    def emit(self, event: msgspec.Struct) -> None:
        stamped = msgspec.structs.replace(event, at_ms=self.now_ms)
        self.events.append(stamped)
        self.state = evolve(self.state, stamped)

    def die(self) -> int:
        return self.rng.die()

    @property
    def over(self) -> bool:
        return self.state.phase == "over"
