"""The working copy of one `decide` call, shared by every game.

`decide` never changes its input: it copies the state once (`clone`), and every
event it makes is stamped with the command's time and applied to the copy at
once (`Flow.emit`), so each later rule sees the facts before it. The events
are the answer; `evolve` replays them on the real state to the same result.

A game subclasses `Flow[State]` only to name its `evolve` and to add
shorthands its rules read (`over`, `roll_dice`):

    class Flow(tablehall_rules.Flow[State]):
        evolve_event = staticmethod(evolve)
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from tablehall_rules.contract import DecideContext, PendingDecision
from tablehall_rules.randomness import DrawSource
from tablehall_rules.structcopy import copier

S = TypeVar("S")


def clone(state: S) -> S:
    """A deep copy of a state struct: what cannot change is shared, the rest copied
    (`tablehall_rules.structcopy`; a msgpack round trip rebuilt every piece and card)."""
    return copier(type(state))(state)


# event type -> whether it carries an `at_ms` stamp
_stamped: dict[type[Any], bool] = {}


def _has_stamp(kind: type[Any]) -> bool:
    known = _stamped.get(kind)
    if known is None:
        known = _stamped[kind] = "at_ms" in getattr(kind, "__struct_fields__", ())
    return known


class Flow(Generic[S]):
    """A private copy of the state that follows every event emitted so far."""

    __slots__ = ("ctx", "events", "state")

    # the game's evolve (state, event) -> state; it may update in place
    evolve_event: ClassVar[Any]

    def __init__(self, state: S, ctx: DecideContext, *, copy: bool = True) -> None:
        self.state: S = clone(state) if copy else state
        self.ctx = ctx
        self.events: list[msgspec.Struct] = []

    @property
    def now_ms(self) -> int:
        return self.ctx.now_ms

    @property
    def rng(self) -> DrawSource:
        return self.ctx.rng

    @property
    def seat(self) -> int | None:
        """The seat the command is submitted for (None: the table itself)."""
        return self.ctx.seat

    @property
    def timed_out(self) -> PendingDecision | None:
        """The decision whose clock ran out when the command is its default move.
        The match has checked it (open, past its deadline, the game's default)."""
        return self.ctx.timed_out

    def die(self) -> int:
        return self.ctx.rng.die()

    def emit(self, event: msgspec.Struct) -> None:
        """Stamp the event with the command's time (events that carry `at_ms`), keep it,
        and apply it to the working copy."""
        if _has_stamp(type(event)):
            event = msgspec.structs.replace(event, at_ms=self.ctx.now_ms)
        self.events.append(event)
        self.state = type(self).evolve_event(self.state, event)
