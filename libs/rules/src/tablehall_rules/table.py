"""The platform's table commands and events, the same in every game.

The lobby, the timer and operators act on a table through four commands,
decided with `ctx.seat=None` (the table itself, never a player):

- `SetPresence(seat, present)`: the player's client came or went;
- `SetController(seat, by_bot)`: the seat handed to a bot, or taken back;
- `RemovePlayer(seat)`: the player is taken out of the match;
- `CloseTable(reason)`: the match ends now (`reason`: operator | idle).

The first two produce the platform's events `PresenceChanged` and
`ControllerChanged`, which every game applies to its `AfkLadder` with
`evolve_table`; a seat's presence and controller therefore behave the same in
every game. What a game's rules add on each is its `TableRules` subclass:
`on_presence`, `on_controller` (which may refuse), `on_remove` and
`on_close` (which every game must rule on: it has no default).

A game lists `TABLE_COMMANDS` among its commands and `TABLE_EVENTS` among its
events, calls `decide_table` from `decide` for a table command and
`evolve_table` from `evolve` for a table event, and subclasses `SeatedGame` for
the `TableControl` hooks the match calls.
"""

from __future__ import annotations

from typing import ClassVar, Generic, Protocol, TypeVar

import msgspec

from tablehall_rules.afk import AfkLadder
from tablehall_rules.contract import TableControl
from tablehall_rules.errors import InvalidCommand, no_such_seat, system_only
from tablehall_rules.flow import Flow

CLOSE_REASONS = ("operator", "idle")


class SetPresence(msgspec.Struct, frozen=True, tag="SetPresence"):
    """The player's client came (present) or went."""

    seat: int
    present: bool


class SetController(msgspec.Struct, frozen=True, tag="SetController"):
    """The seat handed to a bot (by_bot) or taken back by its player."""

    seat: int
    by_bot: bool


class RemovePlayer(msgspec.Struct, frozen=True, tag="RemovePlayer"):
    """The player is taken out of the match (the host or an operator removed them)."""

    seat: int


class CloseTable(msgspec.Struct, frozen=True, tag="CloseTable"):
    """The match ends now: `reason` is operator or idle."""

    reason: str


TABLE_COMMANDS: tuple[type[msgspec.Struct], ...] = (SetPresence, SetController, RemovePlayer, CloseTable)


class PresenceChanged(msgspec.Struct, frozen=True, kw_only=True, tag="PresenceChanged"):
    seat: int
    present: bool
    at_ms: int = 0


class ControllerChanged(msgspec.Struct, frozen=True, kw_only=True, tag="ControllerChanged"):
    """A bot plays the seat on (by_bot), or its player has it back."""

    seat: int
    by_bot: bool
    at_ms: int = 0


TABLE_EVENTS: tuple[type[msgspec.Struct], ...] = (PresenceChanged, ControllerChanged)


class Seated(Protocol):
    """A state that keeps its seats' AFK ladder as `afk`."""

    afk: AfkLadder


SeatedS = TypeVar("SeatedS", bound=Seated)


class TableRules(Generic[SeatedS]):
    """What a game's rules do on each table command; the platform does the rest.

    The defaults: presence and hand-over change only the AFK ladder; removal
    and closing have no default, every game rules on them.
    """

    # True: a presence or hand-over the ladder shows already is written all the same, as a game
    # whose stored streams hold such repeats wrote them (so decide answers those commands as then)
    repeats: ClassVar[bool] = False

    def on_presence(self, flow: Flow[SeatedS], seat: int, present: bool) -> None:
        """After `PresenceChanged`: the game's own consequences (none by default)."""

    def check_controller(self, state: SeatedS, seat: int, by_bot: bool) -> None:
        """Refuse a hand-over the rules forbid (raise a RuleError); allowed by default."""

    def writes_controller(self, state: SeatedS, seat: int, by_bot: bool) -> bool:
        """Whether an allowed hand-over writes `ControllerChanged`: by default when it changes
        the ladder (or always, with `repeats`); a game whose rules give a bot's own seat a
        meaning of its own says so here."""
        return self.repeats or state.afk.by_bot[seat] != by_bot

    def on_controller(self, flow: Flow[SeatedS], seat: int, by_bot: bool) -> None:
        """After `ControllerChanged`: the game's own consequences (none by default)."""

    def on_remove(self, flow: Flow[SeatedS], seat: int) -> None:
        raise NotImplementedError(f"{type(self).__name__} must rule on removing a player")

    def on_close(self, flow: Flow[SeatedS], reason: str) -> None:
        raise NotImplementedError(f"{type(self).__name__} must rule on closing the table")


def is_table_command(command: object) -> bool:
    return isinstance(command, TABLE_COMMANDS)


def decide_table(flow: Flow[SeatedS], command: msgspec.Struct, rules: TableRules[SeatedS]) -> None:
    """Decide one of the platform's table commands on the game's working copy
    (refused as SYSTEM_ONLY when a seat sends it: only the table does)."""
    if flow.seat is not None:
        raise system_only()
    ladder = flow.state.afk
    if isinstance(command, CloseTable):
        if command.reason not in CLOSE_REASONS:
            raise InvalidCommand(
                "BAD_REASON",
                "A table closes for: operator, idle.",
                "Стол закрывается по причине: operator, idle.",
            )
        rules.on_close(flow, command.reason)
        return
    seat: int = getattr(command, "seat", -1)
    if not 0 <= seat < ladder.seats:
        raise no_such_seat(seat)
    if isinstance(command, SetPresence):
        if ladder.is_absent(seat) != command.present and not rules.repeats:
            return  # nothing changes: the seat is already so
        flow.emit(PresenceChanged(seat=seat, present=command.present))
        rules.on_presence(flow, seat, command.present)
    elif isinstance(command, SetController):
        rules.check_controller(flow.state, seat, command.by_bot)
        if not rules.writes_controller(flow.state, seat, command.by_bot):
            return
        flow.emit(ControllerChanged(seat=seat, by_bot=command.by_bot))
        rules.on_controller(flow, seat, command.by_bot)
    elif isinstance(command, RemovePlayer):
        rules.on_remove(flow, seat)
    else:
        raise TypeError(f"not a table command: {type(command).__name__}")


def evolve_table(ladder: AfkLadder, event: msgspec.Struct) -> bool:
    """Apply a table event to the ladder; False when `event` is not one."""
    # the exact type, not isinstance: a struct class's isinstance that fails costs 0.3 µs (its
    # metaclass's instance check), paid by every other event of a rebuild; events are never subclassed
    if type(event) is PresenceChanged:
        ladder.presence(event.seat, event.present)
        return True
    if type(event) is ControllerChanged:
        ladder.controller(event.seat, event.by_bot)
        return True
    return False


class SeatedGame(TableControl):
    """The `TableControl` hooks for a game on the platform's table commands.

    The host's proposal to end (`host_end_command`) stays the game's own: only
    some games have such a rule.
    """

    def presence_command(self, seat: int, present: bool) -> msgspec.Struct | None:
        return SetPresence(seat=seat, present=present)

    def controller_command(self, seat: int, by_bot: bool) -> msgspec.Struct | None:
        return SetController(seat=seat, by_bot=by_bot)

    def remove_command(self, seat: int) -> msgspec.Struct | None:
        return RemovePlayer(seat=seat)

    def close_command(self, reason: str) -> msgspec.Struct | None:
        return CloseTable(reason="idle" if reason == "idle" else "operator")
