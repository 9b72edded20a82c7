"""A decision in progress: a working copy of the state and the events made so far.

`decide` never changes its input: it copies the state once, and every event it makes is
applied to the copy at once (`emit`), so each later rule sees the facts before it. The events
are then the answer; `evolve` replays them on the real state to the same result.
"""

from __future__ import annotations

import msgspec

from homunculus.evolve import evolve
from homunculus.state import State
from tablehall_rules import DecideContext


def copy_state(state: State) -> State:
    return msgspec.json.decode(msgspec.json.encode(state), type=State)


class Tx:
    __slots__ = ("ctx", "events", "state")

    def __init__(self, state: State, ctx: DecideContext) -> None:
        self.state = copy_state(state)
        self.ctx = ctx
        self.events: list[msgspec.Struct] = []

    @property
    def now(self) -> int:
        return self.ctx.now_ms

    def emit(self, event: msgspec.Struct) -> None:
        self.events.append(event)
        evolve(self.state, event)
