"""The engine contract every game library implements.

A game is a pure library (no I/O, no clock, no global randomness):

- `parse_options(raw)`: validated, canonical table options, or `InvalidOptions`;
- `start(options, seats, ctx)`: the first events of a match (set-up, order roll);
- `decide(state, command, ctx)`: the events a command produces, or a `RuleError`;
  it never changes `state`;
- `evolve(state, event)`: the state after an event; total and deterministic;
  it may update `state` in place and return it (the caller hands it over);
- `view(state, viewer)`: what a seat, a spectator or an auditor may see;
- `legal(state, seat, now_ms)`: the seat's legal moves as descriptors that stay
  small however many commands they admit (`tablehall_rules.legal`): a list, or a
  `LegalMoves` whose costly parts are found when first read;
- `pending(state)`: the open decisions with their clocks and audiences;
- `default_command(state, decision)`: the safe move when a clock runs out;
- `outcome(state)`: the result once the match has ended;
- `teams(options, seat_count)`: the teams these options make (none by default).

A game class subclasses `Game[State]` (and each optional hook protocol it
implements: `TableControl`, `Journaled`, `HasStandings`, the bot hooks), so
mypy checks every signature; the platform tests for a hook with `isinstance`.

Commands and events are frozen tagged `msgspec.Struct`s, so one codec
(`tablehall_rules.codec`) serves every game for JSON, snapshots and replay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar, runtime_checkable

import msgspec

from tablehall_rules.nature import GameNature
from tablehall_rules.randomness import DrawSource
from tablehall_rules.setups import Setup

if TYPE_CHECKING:
    from tablehall_rules.legal import LegalMove

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

    @property
    def is_auditor(self) -> bool:
        return self.role == "auditor"


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
    `timed_out` is the open decision whose clock ran out when the command is
    that decision's default move (made by the platform, never by a player).
    """

    seat: int | None
    now_ms: int
    rng: DrawSource
    timed_out: PendingDecision | None = None

    @property
    def timeout(self) -> bool:
        """The command is a default move made because a clock ran out."""
        return self.timed_out is not None


class PendingDecision(msgspec.Struct, frozen=True, omit_defaults=True):
    """A decision a seat must take, and its clock.

    `key` identifies the decision uniquely within the table's life (it changes
    when the decision is taken, so a late default move for it is refused);
    the deadline is `opened_at_ms + clock_ms`. Several seats may have open
    decisions at once (every bidder of an auction, every voter).

    `audience`: the seats that may know this decision exists besides `seat`
    itself (None: everybody, spectators included; [] : only `seat`). A private
    trade offer is known to its two parties only. The platform shows each
    viewer only the decisions it may know of (`tablehall_rules.disclosure`).

    `reaction`: a reaction window (e.g. «Уно!» / «Поймать»): the seat may act
    out of turn while it is open, the first committed command wins; it has no
    clock, no default move, and closing unused costs the seat nothing (no
    clock strike, no timeout line, no AFK step).
    """

    key: str
    seat: int
    kind: str
    clock: str
    opened_at_ms: int
    clock_ms: int
    audience: list[int] | None = None
    reaction: bool = False

    @property
    def deadline_ms(self) -> int:
        return self.opened_at_ms + self.clock_ms

    @property
    def has_clock(self) -> bool:
        """A clock the timer runs out (reaction windows have none)."""
        return not self.reaction

    def clock_ran_out(self, now_ms: int) -> bool:
        """Whether its clock has run out at `now_ms`: the match then refuses a command for it
        (CLOCK_RAN_OUT) and the timer plays the default."""
        return self.has_clock and now_ms >= self.deadline_ms

    def known_to(self, seat: int | None) -> bool:
        """Whether a viewer in `seat` (None: a spectator) may know of this decision."""
        if self.audience is None:
            return True
        return seat is not None and (seat == self.seat or seat in self.audience)


class Outcome(msgspec.Struct, frozen=True, omit_defaults=True):
    """How a match ended: `places[0]` holds the winners (ties share a place).

    In a team game a team's seats share its place; `teams` repeats the teams
    (seat lists) so a reader of the outcome alone can tell them apart.
    """

    places: list[list[int]]
    reason: str
    scores: dict[int, int] = msgspec.field(default_factory=dict)
    teams: list[list[int]] = msgspec.field(default_factory=list)


@runtime_checkable
class Game(Protocol, Generic[S]):
    """What the platform needs of a game. See the module docstring.

    The members with a body are defaults a game subclassing this protocol
    inherits; the rest it must implement.
    """

    id: ClassVar[str]
    rules_version: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    state_type: ClassVar[type[Any]]
    command_types: ClassVar[Sequence[type[msgspec.Struct]]]
    event_types: ClassVar[Sequence[type[msgspec.Struct]]]
    # upgrades of stored events from older schema versions (None: none yet)
    upcasters: ClassVar[Upcasters | None] = None
    # stored event types the rules no longer write (still in `event_types`, so old streams replay):
    # name -> the event the rules now write in its place, given the old one (None: none, the facts
    # before it imply it). The verifier accepts exactly these (`tablehall_audit.verify`)
    retired_events: ClassVar[Mapping[str, Callable[[Any], msgspec.Struct | None]]] = {}
    # earlier rules versions whose streams these rules re-decide alike but where a change says:
    # version -> what changed since. The verifier checks such a stream with these rules and names
    # the change in any discrepancy (a version missing here: "recorded under other rules")
    earlier_rules: ClassVar[Mapping[str, str]] = {}
    # the game's name for people, by language ("en", "ru")
    title: ClassVar[Mapping[str, str]] = {}
    # a JSON Schema (draft 2020-12) of the options `parse_options` accepts, for clients
    options_schema: ClassVar[Mapping[str, Any]] = {"type": "object"}
    # whether some options make teams (`teams` says which)
    supports_teams: ClassVar[bool] = False
    # how each `Outcome.reason` reads to people, by language: {"round_limit": {"en": ..., "ru": ...}}
    end_reasons: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    # what kind of game this is (`tablehall_rules.nature`); the default assumes the most
    nature: ClassVar[GameNature] = GameNature(
        hidden_information=True, chance=True, simultaneous=True, max_commands=100_000
    )
    # the tables the conformance suite plays (`tablehall_rules.conformance`; empty: the
    # fewest and the most seats with default options)
    conformance_setups: ClassVar[Sequence[Setup]] = ()

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]: ...

    def start(
        self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext
    ) -> list[msgspec.Struct]: ...

    def decide(self, state: S, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]: ...

    def evolve(self, state: S | None, event: msgspec.Struct) -> S: ...

    def view(self, state: S, viewer: Viewer) -> dict[str, Any]: ...

    def legal(self, state: S, seat: int, now_ms: int) -> Sequence[LegalMove]: ...

    def pending(self, state: S) -> list[PendingDecision]: ...

    def default_command(self, state: S, decision: PendingDecision) -> msgspec.Struct: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def teams(self, options: Mapping[str, Any], seat_count: int) -> list[list[int]]:
        """The teams (lists of seats) these options make; [] when everyone plays alone."""
        return []


@runtime_checkable
class TableControl(Protocol):
    """Optional hooks that let the lobby and the timer act on any game.

    Each returns the game's own system command (decided with `ctx.seat=None`)
    or None when the game has no rule for it.
    """

    def presence_command(self, seat: int, present: bool) -> msgspec.Struct | None: ...

    def controller_command(self, seat: int, by_bot: bool) -> msgspec.Struct | None: ...

    def remove_command(self, seat: int) -> msgspec.Struct | None: ...

    def close_command(self, reason: str) -> msgspec.Struct | None: ...

    def host_end_command(self, host_seat: int | None) -> msgspec.Struct | None:
        """The host proposes ending the game for all (its seat, None when unseated);
        None: the game has no such rule."""
        return None


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
