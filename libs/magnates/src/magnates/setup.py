"""Options and the first events: seats on home corners, start cash, the first turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from magnates import events as e
from magnates import tables
from tablehall_rules import DecideContext, InvalidOptions, SeatInfo

MIN_SEATS, MAX_SEATS = 2, 4
DEFAULTS: dict[str, int] = {"round_limit": 0, "clock_ms": 30_000}
OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "round_limit": {
            "type": "integer",
            "minimum": 0,
            "maximum": 1000,
            "default": 0,
            "description": "0: play to the last one standing; N: after N rounds the highest net worth wins",
        },
        "clock_ms": {"type": "integer", "minimum": 1000, "maximum": 600_000, "default": 30_000},
    },
}


def parse_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(raw) - set(DEFAULTS)
    if unknown:
        raise InvalidOptions("UNKNOWN_OPTION", f"Unknown options {sorted(unknown)}.", "Неизвестные настройки.")
    out = {**DEFAULTS, **raw}
    limit, clock = out["round_limit"], out["clock_ms"]
    if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= 1000:
        raise InvalidOptions("INVALID_ROUND_LIMIT", "round_limit must be 0..1000.", "Лимит раундов: от 0 до 1000.")
    if not isinstance(clock, int) or isinstance(clock, bool) or not 1000 <= clock <= 600_000:
        raise InvalidOptions("INVALID_CLOCK", "clock_ms must be 1000..600000.", "Часы: от 1000 до 600000 мс.")
    return out


def start(options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
    opts = parse_options(options)
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise InvalidOptions("SEAT_COUNT", "Магнаты is played by 2 to 4.", "В «Магнаты» играют от 2 до 4.")
    corners = list(tables.CORNERS_FOR[len(seats)])
    return [
        e.Started(list(seats), corners, opts["round_limit"], opts["clock_ms"], tables.START_CASH, ctx.now_ms),
        e.TurnStarted(0, 1, ctx.now_ms),
        e.PhaseChanged("roll", at_ms=ctx.now_ms),
    ]
