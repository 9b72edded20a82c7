"""Optional hooks a game may implement for the projection service.

- `journal(state_before, event) -> list[JournalEntry]`: the table's log as
  structured entries (a stable `code` and its `params`) with a rendered line
  in Russian and English. `audience` is the seats that may read the entry;
  None means everyone at or watching the table. An entry that reveals hidden
  information names its audience, and the game adds a public entry beside it
  when the others should know that something happened ("Alice drew a card").
- `standings(state) -> list[list[int]]`: live places (seats; ties share a
  place) computed from public information only, since everybody reads them.

Both are pure and total, like `view`. A game without them gets the
platform's generic entries (start, end, timeouts) and places at the end only.

The convention every game follows (`Lines` keeps it):

- every event type either has a line (a renderer) or is declared silent
  (bookkeeping nobody reads: phase changes, acted markers); an event with
  neither is a bug, found by `Lines.missing` in the conformance checks and
  raised as `MissingLine` at run time rather than written as an empty line;
- an entry's `code` is UPPER_SNAKE: the event's type name (`DieRolled` ->
  `DIE_ROLLED`) for the entry that tells the event, or a more particular
  UPPER_SNAKE name where one event reads several ways (`TRADE_ACCEPTED`);
- `params` are the event's fields (without `at_ms`) unless the renderer says
  otherwise; both `ru` and `en` are filled.

The platform's table events (`PresenceChanged`, `ControllerChanged`) have
lines here (`table_entry`), given the seat's name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar, runtime_checkable

import msgspec

from tablehall_rules.codec import type_name


class JournalEntry(msgspec.Struct, frozen=True):
    """One line of a table's journal."""

    code: str
    params: dict[str, Any] = msgspec.field(default_factory=dict)
    ru: str = ""
    en: str = ""
    # seats allowed to read the entry; None: everybody (players and spectators)
    audience: list[int] | None = None

    def visible_to_seat(self, seat: int | None) -> bool:
        """Whether a viewer in `seat` (None: a spectator) may read the entry."""
        return self.audience is None or (seat is not None and seat in self.audience)


@runtime_checkable
class Journaled(Protocol):
    def journal(self, state_before: Any, event: msgspec.Struct) -> list[JournalEntry]: ...


@runtime_checkable
class HasStandings(Protocol):
    def standings(self, state: Any) -> list[list[int]]: ...


def event_code(kind: type[msgspec.Struct]) -> str:
    """The journal code of an event type: its name in UPPER_SNAKE (`DieRolled` -> `DIE_ROLLED`)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", type_name(kind)).upper()


def event_params(event: msgspec.Struct) -> dict[str, Any]:
    """An event's fields as journal params (its time stamp left out)."""
    data = msgspec.to_builtins(event)
    data.pop("at_ms", None)
    data.pop("type", None)
    return dict(data)


def entry(
    event: msgspec.Struct,
    ru: str,
    en: str,
    *,
    params: dict[str, Any] | None = None,
    audience: list[int] | None = None,
    code: str | None = None,
) -> JournalEntry:
    """The entry that tells `event`, by the convention above."""
    return JournalEntry(
        code=code or event_code(type(event)),
        params=event_params(event) if params is None else params,
        ru=ru,
        en=en,
        audience=audience,
    )


class MissingLine(LookupError):
    """An event type with no journal line that was not declared silent."""


Renderer = Callable[[Any, Any], "JournalEntry | list[JournalEntry]"]
F = TypeVar("F", bound=Callable[..., Any])


class Lines:
    """A game's journal lines by event type: `@lines.of(DieRolled)` registers a
    renderer `(event, state_before) -> entry or entries`; `silent` event types
    write nothing."""

    def __init__(self, silent: Iterable[type[msgspec.Struct]] = ()) -> None:
        self.silent: frozenset[type[msgspec.Struct]] = frozenset(silent)
        self.renderers: dict[type[msgspec.Struct], Renderer] = {}

    def of(self, *kinds: type[msgspec.Struct]) -> Callable[[F], F]:
        def register(fn: F) -> F:
            for kind in kinds:
                if kind in self.renderers or kind in self.silent:
                    raise ValueError(f"{kind.__name__} has a line already")
                self.renderers[kind] = fn
            return fn

        return register

    def entries(self, state_before: Any, event: msgspec.Struct) -> list[JournalEntry]:
        kind = type(event)
        if kind in self.silent:
            return []
        renderer = self.renderers.get(kind)
        if renderer is None:
            raise MissingLine(f"no journal line for {kind.__name__} (give it one or declare it silent)")
        out = renderer(event, state_before)
        return out if isinstance(out, list) else [out]

    def missing(self, kinds: Iterable[type[msgspec.Struct]]) -> list[str]:
        """The event types among `kinds` with neither a line nor a silence."""
        return sorted(k.__name__ for k in kinds if k not in self.silent and k not in self.renderers)


def table_entry(event: msgspec.Struct, name: str) -> JournalEntry:
    """The line of a platform table event (`PresenceChanged`, `ControllerChanged`) for the seat `name`."""
    present = getattr(event, "present", None)
    if present is not None:
        if present:
            return entry(event, f"{name}: снова за столом.", f"{name} is back at the table.")
        return entry(event, f"{name}: нет за столом.", f"{name} left the table.")
    if getattr(event, "by_bot", False):
        return entry(event, f"За игрока {name} играет бот.", f"A bot plays for {name}.")
    return entry(event, f"{name}: снова играет сам.", f"{name} plays the seat again.")
