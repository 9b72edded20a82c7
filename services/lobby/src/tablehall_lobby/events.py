"""The lobby's facts in a table's stream (`lobby.*`) and in its chat stream.

Each is a frozen msgspec struct; its stored type is the prefix and the class
name (`lobby.SeatTaken`) and its payload is exactly its fields (no tag), so
other services read them with plain structs. They hold facts only (ids,
numbers, flags, times), no prose and never a PIN. `PresenceChanged` has a
fixed shape: the timer service reads it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablehall_rules import SeatInfo
from tablehall_stream.names import ENDED, LOBBY_PREFIX, STARTED, stream_id

PREFIX = LOBBY_PREFIX
CHAT_PREFIX = "chat."
MATCH_STARTED = STARTED
MATCH_ENDED = ENDED
table_stream = stream_id


def chat_stream(table_id: str) -> str:
    return f"chat-{table_id}"


class TableCreated(msgspec.Struct, frozen=True):
    table_id: str
    game: str
    options: dict[str, Any]
    seat_count: int
    host_user_id: str
    host_name: str
    private: bool
    spectators_allowed: bool
    at_ms: int


class OptionsChanged(msgspec.Struct, frozen=True):
    options: dict[str, Any]
    by: str
    at_ms: int


class PrivacyChanged(msgspec.Struct, frozen=True):
    """The table became private (a new PIN was set) or public. The PIN itself
    is kept hashed outside the stream."""

    private: bool
    by: str
    at_ms: int


class SpectatorsAllowed(msgspec.Struct, frozen=True):
    allowed: bool
    by: str
    at_ms: int


class SpectatorChatAllowed(msgspec.Struct, frozen=True):
    allowed: bool
    by: str
    at_ms: int


class BotSeatsToSpectators(msgspec.Struct, frozen=True):
    allowed: bool
    by: str
    at_ms: int


class Invited(msgspec.Struct, frozen=True):
    user_id: str
    by: str
    at_ms: int


class SeatTaken(msgspec.Struct, frozen=True):
    seat: int
    user_id: str
    name: str
    at_ms: int


class SeatLeft(msgspec.Struct, frozen=True):
    seat: int
    user_id: str
    at_ms: int


class BotAdded(msgspec.Struct, frozen=True):
    seat: int
    bot_id: str
    name: str
    by: str
    at_ms: int
    # "easy" or "strong" (events written before difficulties existed are easy)
    difficulty: str = "easy"


class BotRemoved(msgspec.Struct, frozen=True):
    seat: int
    bot_id: str
    by: str
    at_ms: int


class PlayerRemoved(msgspec.Struct, frozen=True):
    seat: int
    user_id: str
    by: str
    by_operator: bool
    was_present: bool
    at_ms: int


class SpectatorEntered(msgspec.Struct, frozen=True):
    user_id: str
    name: str
    with_pin: bool
    at_ms: int


class SpectatorRemoved(msgspec.Struct, frozen=True):
    user_id: str
    by: str
    at_ms: int


class StartRequested(msgspec.Struct, frozen=True):
    """The host pressed start: the roster is frozen (seats numbered 0..n-1)."""

    seats: list[SeatInfo]
    options: dict[str, Any]
    by: str
    at_ms: int


class StartAborted(msgspec.Struct, frozen=True):
    """The match refused to start (a rule on the final roster): the table is
    open again with its seats as before."""

    reason: str
    at_ms: int


class SeatHandedToBot(msgspec.Struct, frozen=True):
    seat: int
    user_id: str
    by: str
    at_ms: int


class SeatReclaimed(msgspec.Struct, frozen=True):
    seat: int
    user_id: str
    at_ms: int


class BotSeatTaken(msgspec.Struct, frozen=True):
    """A spectator took over a bot's seat, with what the bot has."""

    seat: int
    user_id: str
    name: str
    bot_id: str
    at_ms: int


class PresenceChanged(msgspec.Struct, frozen=True):
    seat: int
    user_id: str
    present: bool
    at_ms: int


class TableClosed(msgspec.Struct, frozen=True):
    by: str
    by_operator: bool
    at_ms: int


class MessagePosted(msgspec.Struct, frozen=True):
    """One chat line (stream `chat-{table_id}`, type `chat.MessagePosted`)."""

    user_id: str
    name: str
    seat: int | None
    text: str
    at_ms: int


class PinGuessesLimited(msgspec.Struct, frozen=True):
    """Wrong PINs were tried at this table (by anyone): PIN entry is closed
    until `locked_until_ms`. Recorded by the lobby itself (sender
    `system:pins`) so the host sees it; written when the lock starts and at
    each doubling of the failures, so guessing cannot flood the stream."""

    failures: int
    locked_until_ms: int
    at_ms: int


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
    StartAborted,
    SeatHandedToBot,
    SeatReclaimed,
    BotSeatTaken,
    PresenceChanged,
    TableClosed,
    PinGuessesLimited,
)


class Codec:
    """Payloads of one family of untagged structs, keyed by class name."""

    def __init__(self, prefix: str, types: tuple[type[msgspec.Struct], ...]) -> None:
        self.prefix = prefix
        self._decoders = {t.__name__: msgspec.json.Decoder(t) for t in types}
        self._encoder = msgspec.json.Encoder()

    def type_of(self, event: msgspec.Struct) -> str:
        return self.prefix + type(event).__name__

    def encode(self, event: msgspec.Struct) -> bytes:
        return self._encoder.encode(event)

    def decode(self, event_type: str, payload: bytes | str) -> msgspec.Struct:
        """The event of a stored type (`lobby.SeatTaken`)."""
        decoded: msgspec.Struct = self._decoders[event_type.removeprefix(self.prefix)].decode(payload)
        return decoded


CODEC = Codec(PREFIX, LOBBY_EVENT_TYPES)
CHAT_CODEC = Codec(CHAT_PREFIX, (MessagePosted,))
