"""Options of a table itself, for every game (the host's settings that are
not game rules), kept apart from the game's options.

- `spectator_delay` (0..1000, default 0): spectators see the table that many
  events behind (the projection service applies it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablehall_rules.errors import InvalidOptions

TABLE_OPTIONS: dict[str, tuple[int, int]] = {"spectator_delay": (0, 1000)}


def split(raw: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, Any]]:
    """(table options, validated; the game's raw options)."""
    table: dict[str, int] = {}
    for name, (low, high) in TABLE_OPTIONS.items():
        if name in raw:
            value = raw[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise InvalidOptions(
                    "INVALID_TABLE_OPTION",
                    f"{name} must be a whole number {low}..{high}.",
                    f"{name}: целое число от {low} до {high}.",
                )
            table[name] = value
    return table, {k: v for k, v in raw.items() if k not in TABLE_OPTIONS}


def parse(game: Any, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The game's canonical options plus the table's own, all validated."""
    table, game_raw = split(raw)
    return {**game.parse_options(game_raw), **table}
