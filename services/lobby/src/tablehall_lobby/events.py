"""The lobby's facts in a table's stream (`lobby.*`) and in its chat stream.

Each is a frozen msgspec struct whose tag is its type name without the
prefix. They hold facts only (ids, numbers, flags, times), no prose and never
a PIN. `PresenceChanged` has a fixed shape: the timer service reads it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablehall_rules import SeatInfo, StructCodec

PREFIX = "lobby."
CHAT_PREFIX = "chat."
MATCH_STARTED = "match.Started"
MATCH_ENDED = "match.Ended"


def table_stream(table_id: str) -> str:
    return f"table-{table_id}"


def chat_stream(table_id: str) -> str:
    return f"chat-{table_id}"


class TableCreated(msgspec.Struct, frozen=True, tag="TableCreated"):
    table_id: str
    game: str
    options: dict[str, Any]
    seat_count: int
    host_user_id: str
    host_name: str
    private: bool
    spectators_allowed: bool
    at_ms: int


class OptionsChanged(msgspec.Struct, frozen=True, tag="OptionsChanged"):
    options: dict[str, Any]
    by: str
    at_ms: int


class PrivacyChanged(msgspec.Struct, frozen=True, tag="PrivacyChanged"):
    """The table became private (a new PIN was set) or public. The PIN itself
    is kept hashed outside the stream."""

    private: bool
    by: str
    at_ms: int


class SpectatorsAllowed(msgspec.Struct, frozen=True, tag="SpectatorsAllowed"):
    allowed: bool
    by: str
    at_ms: int


class SpectatorChatAllowed(msgspec.Struct, frozen=True, tag="SpectatorChatAllowed"):
    allowed: bool
    by: str
    at_ms: int


class BotSeatsToSpectators(msgspec.Struct, frozen=True, tag="BotSeatsToSpectators"):
    allowed: bool
    by: str
    at_ms: int


class Invited(msgspec.Struct, frozen=True, tag="Invited"):
    user_id: str
    by: str
    at_ms: int


class SeatTaken(msgspec.Struct, frozen=True, tag="SeatTaken"):
    seat: int
    user_id: str
    name: str
    at_ms: int


class SeatLeft(msgspec.Struct, frozen=True, tag="SeatLeft"):
    seat: int
    user_id: str
    at_ms: int


class BotAdded(msgspec.Struct, frozen=True, tag="BotAdded"):
    seat: int
    bot_id: str
    name: str
    by: str
    at_ms: int


class BotRemoved(msgspec.Struct, frozen=True, tag="BotRemoved"):
    seat: int
    bot_id: str
    by: str
    at_ms: int


class PlayerRemoved(msgspec.Struct, frozen=True, tag="PlayerRemoved"):
    seat: int
    user_id: str
    by: str
    by_operator: bool
    was_present: bool
    at_ms: int


class SpectatorEntered(msgspec.Struct, frozen=True, tag="SpectatorEntered"):
    user_id: str
    name: str
    with_pin: bool
    at_ms: int


class SpectatorRemoved(msgspec.Struct, frozen=True, tag="SpectatorRemoved"):
    user_id: str
    by: str
    at_ms: int


class StartRequested(msgspec.Struct, frozen=True, tag="StartRequested"):
    """The host pressed start: the roster is frozen (seats numbered 0..n-1)."""

    seats: list[SeatInfo]
    options: dict[str, Any]
    by: str
    at_ms: int


class SeatHandedToBot(msgspec.Struct, frozen=True, tag="SeatHandedToBot"):
    seat: int
    user_id: str
    by: str
    at_ms: int


class SeatReclaimed(msgspec.Struct, frozen=True, tag="SeatReclaimed"):
    seat: int
    user_id: str
    at_ms: int


class BotSeatTaken(msgspec.Struct, frozen=True, tag="BotSeatTaken"):
    """A spectator took over a bot's seat, with what the bot has."""

    seat: int
    user_id: str
    name: str
    bot_id: str
    at_ms: int


class PresenceChanged(msgspec.Struct, frozen=True, tag="PresenceChanged"):
    seat: int
    user_id: str
    present: bool
    at_ms: int


class TableClosed(msgspec.Struct, frozen=True, tag="TableClosed"):
    by: str
    by_operator: bool
    at_ms: int


class MessagePosted(msgspec.Struct, frozen=True, tag="MessagePosted"):
    """One chat line (stream `chat-{table_id}`, type `chat.MessagePosted`)."""

    user_id: str
    name: str
    seat: int | None
    text: str
    at_ms: int


LobbyEvent = (
    TableCreated
    | OptionsChanged
    | PrivacyChanged
    | SpectatorsAllowed
    | SpectatorChatAllowed
    | BotSeatsToSpectators
    | Invited
    | SeatTaken
    | SeatLeft
    | BotAdded
    | BotRemoved
    | PlayerRemoved
    | SpectatorEntered
    | SpectatorRemoved
    | StartRequested
    | SeatHandedToBot
    | SeatReclaimed
    | BotSeatTaken
    | PresenceChanged
    | TableClosed
)

LOBBY_EVENT_TYPES: tuple[type[msgspec.Struct], ...] = (
    TableCreated,
    OptionsChanged,
    PrivacyChanged,
    SpectatorsAllowed,
    SpectatorChatAllowed,
    BotSeatsToSpectators,
    Invited,
    SeatTaken,
    SeatLeft,
    BotAdded,
    BotRemoved,
    PlayerRemoved,
    SpectatorEntered,
    SpectatorRemoved,
    StartRequested,
    SeatHandedToBot,
    SeatReclaimed,
    BotSeatTaken,
    PresenceChanged,
    TableClosed,
)

CODEC: StructCodec[Any] = StructCodec(LOBBY_EVENT_TYPES)
CHAT_CODEC: StructCodec[Any] = StructCodec([MessagePosted])


def stored_type(event: msgspec.Struct) -> str:
    """The stream's event type of a lobby event, e.g. `lobby.SeatTaken`."""
    return PREFIX + CODEC.name(event)
