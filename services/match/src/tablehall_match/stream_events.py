"""The platform's own events in a table's stream, and naming of game events.

A table's stream holds lobby events (`lobby.*`, written by the lobby),
`match.Started`, the game's events (`<game>.<Tag>`) and `match.Ended`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tablehall_rules import SeatInfo

STARTED = "match.Started"
ENDED = "match.Ended"


class MatchStarted(msgspec.Struct, frozen=True):
    game: str
    rules_version: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    seed_sha256: str
    started_at_ms: int
    # the platform's own table options (not the game's): spectator_delay
    table_options: dict[str, Any] = {}


def table_option(started: MatchStarted, name: str, default: int = 0) -> int:
    """A platform table option (older streams kept it among the game's options)."""
    value = started.table_options.get(name, started.options.get(name, default))
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else default


class MatchEnded(msgspec.Struct, frozen=True):
    outcome: dict[str, Any]
    seed_hex: str
    ended_at_ms: int


def stream_id(table_id: str) -> str:
    return f"table-{table_id}"


def game_event_type(game_id: str, tag: str) -> str:
    return f"{game_id}.{tag}"


def split_type(event_type: str) -> tuple[str, str]:
    prefix, _, tag = event_type.partition(".")
    return prefix, tag
