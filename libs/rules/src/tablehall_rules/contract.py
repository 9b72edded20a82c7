"""The engine contract every game library implements.

A game is a pure library (no I/O, no clock, no global randomness):

- `parse_options(raw)`: validated, canonical table options, or `InvalidOptions`;
- `start(options, seats, ctx)`: the first events of a match (set-up, order roll);
- `decide(state, command, ctx)`: the events a command produces, or a `RuleError`;
  it never changes `state`;
- `evolve(state, event)`: the state after an event; total and deterministic;
  it may update `state` in place and return it (the caller hands it over);
- `view(state, viewer)`: what a seat, a spectator or an auditor may see;
- `legal_commands(state, seat)`: commands the seat may submit now;
- `pending(state)`: the open decisions with their clocks;
- `default_command(state, decision)`: the safe move when a clock runs out;
- `outcome(state)`: the result once the match has ended.

Commands and events are frozen tagged `msgspec.Struct`s, so one codec
(`tablehall_rules.codec`) serves every game for JSON, snapshots and replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

import msgspec

from tablehall_rules.randomness import DrawSource

S = TypeVar("S")

Role = Literal["seat", "spectator", "auditor"]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at a table: one seat, any spectator, or an auditor."""

    role: Role
    seat: int | None = None

    @classmethod
    def of_seat(cls, seat: int) -> Viewer:
        return cls("seat", seat)

    @classmethod
    def spectator(cls) -> Viewer:
        return cls("spectator")

    @classmethod
    def auditor(cls) -> Viewer:
        return cls("auditor")


class SeatInfo(msgspec.Struct, frozen=True):
    """A seat as the lobby hands it to the game at start."""

    seat: int
    user_id: str
    name: str
    is_bot: bool = False


@dataclass(slots=True)
class DecideContext:
    """Everything `decide` may depend on besides state and command.

    `seat` is the seat the command is submitted for (None: the table itself,
    e.g. a host or operator action); `now_ms` is the service's timestamp for
    the command (rules that count time compare it with timestamps in state);
    `timeout` says the command is a default move made because a clock ran out.
    """

    seat: int | None
    now_ms: int
    rng: DrawSource
    timeout: bool = False


class PendingDecision(msgspec.Struct, frozen=True):
    """A decision a seat must take, and its clock.

    `key` identifies the decision uniquely within the table's life (it changes
    when the decision is taken, so a late default move for it is refused);
    the deadline is `opened_at_ms + clock_ms`.
    """

    key: str
    seat: int
    kind: str
    clock: str
    opened_at_ms: int
    clock_ms: int

    @property
    def deadline_ms(self) -> int:
        return self.opened_at_ms + self.clock_ms


class Outcome(msgspec.Struct, frozen=True):
    """How a match ended: `places[0]` holds the winners (ties share a place)."""

    places: list[list[int]]
    reason: str
    scores: dict[int, int] = msgspec.field(default_factory=dict)


CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)


class Game(Protocol, Generic[S]):
    """What the platform needs of a game. See the module docstring."""

    id: ClassVar[str]
    rules_version: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    state_type: ClassVar[type[Any]]
    command_types: ClassVar[Sequence[type[msgspec.Struct]]]
    event_types: ClassVar[Sequence[type[msgspec.Struct]]]

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]: ...

    def start(
        self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext
    ) -> list[msgspec.Struct]: ...

    def decide(self, state: S, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]: ...

    def evolve(self, state: S | None, event: msgspec.Struct) -> S: ...

    def view(self, state: S, viewer: Viewer) -> dict[str, Any]: ...

    def legal_commands(self, state: S, seat: int) -> list[msgspec.Struct]: ...

    def pending(self, state: S) -> list[PendingDecision]: ...

    def default_command(self, state: S, decision: PendingDecision) -> msgspec.Struct: ...

    def outcome(self, state: S) -> Outcome | None: ...


class TableControl(Protocol):
    """Optional hooks that let the lobby and the timer act on any game.

    Each returns the game's own system command (decided with `ctx.seat=None`)
    or None when the game has no rule for it.
    """

    def presence_command(self, seat: int, present: bool) -> msgspec.Struct | None: ...

    def controller_command(self, seat: int, by_bot: bool) -> msgspec.Struct | None: ...

    def remove_command(self, seat: int) -> msgspec.Struct | None: ...

    def close_command(self, reason: str) -> msgspec.Struct | None: ...


@dataclass
class Upcasters:
    """Upgrades stored event payloads from older schema versions.

    `register(type, from_version, fn)` adds a step from `from_version` to
    `from_version + 1`; `upcast` applies steps until the current version.
    """

    steps: dict[tuple[str, int], Any] = field(default_factory=dict)

    def register(self, event_type: str, from_version: int, fn: Any) -> None:
        self.steps[(event_type, from_version)] = fn

    def upcast(self, event_type: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
        while (step := self.steps.get((event_type, version))) is not None:
            payload = step(payload)
            version += 1
        return payload
