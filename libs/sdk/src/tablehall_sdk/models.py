"""What the SDK hands back: frozen dataclasses, no protobuf types."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from tablehall_sdk.errors import TablehallError


class Role(Enum):
    """How a viewer looks at a table (the server's ViewerRole)."""

    DEFAULT = "default"  # the caller's own seat if seated, else spectator
    SEAT = "seat"
    SPECTATOR = "spectator"
    AUDITOR = "auditor"


@dataclass(frozen=True)
class Identity:
    user_id: str
    token: str


@dataclass(frozen=True)
class Principal:
    """Who the caller is, as the lobby sees them (WhoAmI)."""

    user_id: str
    name: str
    roles: tuple[str, ...]
    operator: bool


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: str
    name: str
    is_bot: bool
    present: bool = False
    played_by_bot: bool = False  # a bot plays this player's seat (handed over while they were away)


@dataclass(frozen=True)
class Table:
    """A table as the lobby shows it."""

    name: str  # "tables/{id}"
    game: str
    status: str  # WAITING, STARTING, PLAYING, FINISHED, CLOSED
    options: Mapping[str, Any]
    host_user_id: str
    seats: tuple[Seat, ...]
    private: bool
    version: int

    @property
    def table_id(self) -> str:
        return self.name.split("/", 1)[1]


@dataclass(frozen=True)
class GameInfo:
    """A game the server offers (LobbyService.ListGames)."""

    id: str
    rules_version: str
    title: Mapping[str, str]  # by language: "en", "ru"
    min_seats: int
    max_seats: int
    options_schema: Mapping[str, Any]  # a JSON Schema of CreateTable's options
    supports_teams: bool

    def name(self, lang: str) -> str:
        """The game's name for people in `lang`, else English, else its id."""
        return self.title.get(lang) or self.title.get("en") or self.id


@dataclass(frozen=True)
class ChatMessage:
    """One message of a table's chat; `seat` is None for a spectator."""

    number: int
    user_id: str
    name: str
    seat: int | None
    text: str
    at_ms: int


@dataclass(frozen=True)
class Page:
    tables: tuple[Table, ...]
    next_page_token: str


@dataclass(frozen=True)
class Command:
    """One game command: `kind` is the command's field name in the game's proto
    (e.g. "buy", "bid", "build"), `args` its fields (e.g. {"amount": 10})."""

    game: str
    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def key(self) -> str:
        """A stable text form, e.g. `build{"square": 3}`."""
        return self.kind + (json.dumps(dict(self.args), sort_keys=True) if self.args else "")


@dataclass(frozen=True)
class Parameter:
    """A field of a legal move's command the client fills in: an integer range
    (`lo`..`hi` by `step`), a choice of `values`, or an engine `rule` (any value
    the server's rule accepts; `values` then holds examples)."""

    field: str
    lo: int = 0
    hi: int = 0
    step: int = 0
    values: tuple[Any, ...] = ()
    rule: str = ""

    @property
    def is_range(self) -> bool:
        return self.step > 0

    def options(self) -> tuple[Any, ...]:
        """Every value this parameter offers (a rule's examples)."""
        return tuple(range(self.lo, self.hi + 1, self.step)) if self.is_range else self.values


@dataclass(frozen=True)
class LegalMove:
    """A command template and its parameters (see docs/api.md «Legal moves»)."""

    command: Command
    parameters: tuple[Parameter, ...] = ()

    def build(self, **values: Any) -> Command:
        """The command with the given parameter values (the server judges it)."""
        return Command(self.command.game, self.command.kind, {**self.command.args, **values})


@dataclass(frozen=True)
class Decision:
    key: str
    seat: int
    kind: str
    clock: str
    opened_at_ms: int
    clock_ms: int
    deadline_ms: int
    reaction: bool = False


@dataclass(frozen=True)
class TableView:
    """The match's answer: the viewer's redacted view, legal commands, clocks."""

    table: str
    game: str
    version: int
    role: Role
    seat: int | None
    state: Mapping[str, Any]
    # the legal moves spelled out (each parameter's values; a rule's examples), at most LEGAL_LIMIT
    legal: tuple[Command, ...]
    decisions: tuple[Decision, ...]
    finished: bool
    outcome: Mapping[str, Any] | None
    moves: tuple[LegalMove, ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class Checked:
    """MatchService.CheckCommand's answer: would the command be accepted at `version`?
    `refusal` is the error SubmitCommand would raise (None when accepted)."""

    version: int
    accepted: bool
    refusal: TablehallError | None = None


@dataclass(frozen=True)
class Submitted:
    version: int
    duplicate: bool
    view: TableView
    request_id: str


@dataclass(frozen=True)
class JournalLine:
    version: int
    code: str
    params: Mapping[str, Any]
    ru: str
    en: str

    def text(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


@dataclass(frozen=True)
class Update:
    """One message of the live feed: the view after one stream version (or one command)."""

    table: str
    snapshot: bool
    version: int
    role: Role
    seat: int | None
    game: str
    state: Mapping[str, Any]
    journal: tuple[JournalLine, ...]
    decisions: tuple[Decision, ...]
    finished: bool
    outcome: Mapping[str, Any] | None


@dataclass(frozen=True)
class Verified:
    """ProjectionService.VerifyTable's answer: the hash chain, the seed, every draw and every
    command re-decided; `message` is "verified" or the first discrepancy (at `version`)."""

    table: str
    verified: bool
    message: str
    version: int
    events_checked: int
    commands_checked: int
    draws_checked: int
