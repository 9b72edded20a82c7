"""The platform's own events in a table's stream: the match's start and end."""

from __future__ import annotations

from typing import Any

import msgspec

from tablehall_rules import SeatInfo


class MatchStarted(msgspec.Struct, frozen=True):
    game: str
    rules_version: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    seed_sha256: str
    started_at_ms: int
    # the platform's own table options (not the game's): spectator_delay
    table_options: dict[str, Any] = {}
    # the game's teams for these options and seats (each a list of seats); [] for none
    teams: list[list[int]] = []


def table_option(started: MatchStarted, name: str, default: int = 0) -> int:
    """A platform table option (older streams kept it among the game's options)."""
    value = started.table_options.get(name, started.options.get(name, default))
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else default


class MatchEnded(msgspec.Struct, frozen=True):
    outcome: dict[str, Any]
    seed_hex: str
    ended_at_ms: int


STARTED_DECODER = msgspec.json.Decoder(MatchStarted)
ENDED_DECODER = msgspec.json.Decoder(MatchEnded)
