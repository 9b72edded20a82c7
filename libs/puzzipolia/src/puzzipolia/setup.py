"""Table options and the first events of a match: decks, dealt streets, the order roll."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from puzzipolia.board import board
from puzzipolia.cards import DECKS, deck_cards
from puzzipolia.events import GameStarted, SeatEntry, StreetDealt
from puzzipolia.evolve import evolve
from puzzipolia.flow import Flow
from puzzipolia.rules import turn
from puzzipolia.state import BIG_TABLE, LARGE_BOARD_FROM
from tablehall_rules import DecideContext, InvalidOptions, SeatInfo

START_MONEY = (1000, 1500, 2000, 3000)
DECISION_CLOCK_S = (20, 30, 45, 60, 90)
BIG_TABLE_ROUND_LIMITS = (12, 10, 8)
MAX_ROUND_LIMIT = 1000
MIN_SEATS = 2
MAX_SEATS = 16


def _bad(field: str, allowed: str) -> InvalidOptions:
    return InvalidOptions(
        "BAD_OPTION",
        f"Option {field} must be one of {allowed}.",
        f"Параметр {field} должен быть из {allowed}.",
    )


# what parse_options accepts, for clients (the lobby's ListGames)
OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "start_money": {"type": "integer", "enum": list(START_MONEY), "default": 1500},
        "decision_clock_s": {"type": "integer", "enum": list(DECISION_CLOCK_S), "default": 30},
        "round_limit": {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_ROUND_LIMIT,
            "default": 0,
            "description": "0: none; tables of 7+ players need 12, 10 or 8 (12 when 0)",
        },
    },
}


def parse_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical options: start_money, decision_clock_s, round_limit (0: none)."""
    unknown = set(raw) - {"start_money", "decision_clock_s", "round_limit"}
    if unknown:
        raise InvalidOptions(
            "UNKNOWN_OPTION",
            f"Unknown options: {sorted(unknown)}.",
            f"Неизвестные параметры: {sorted(unknown)}.",
        )
    money = raw.get("start_money", 1500)
    clock = raw.get("decision_clock_s", 30)
    limit = raw.get("round_limit") or 0
    if money not in START_MONEY or isinstance(money, bool):
        raise _bad("start_money", str(START_MONEY))
    if clock not in DECISION_CLOCK_S or isinstance(clock, bool):
        raise _bad("decision_clock_s", str(DECISION_CLOCK_S))
    if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= MAX_ROUND_LIMIT:
        raise _bad("round_limit", f"0..{MAX_ROUND_LIMIT}")
    return {"start_money": int(money), "decision_clock_s": int(clock), "round_limit": int(limit)}


def start(options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
    opts = parse_options(options)
    n = len(seats)
    if not MIN_SEATS <= n <= MAX_SEATS or len({s.seat for s in seats}) != n:
        raise InvalidOptions("BAD_SEATS", "2 to 16 distinct seats are needed.", "Нужно от 2 до 16 разных мест.")
    limit = opts["round_limit"]
    if n >= BIG_TABLE:
        # big tables always have a round limit: 12, 10 or 8 (12 unless chosen)
        limit = limit or BIG_TABLE_ROUND_LIMITS[0]
        if limit not in BIG_TABLE_ROUND_LIMITS:
            raise _bad("round_limit (7+ players)", str(BIG_TABLE_ROUND_LIMITS))
    kind = "large" if n >= LARGE_BOARD_FROM else "classic"
    started = GameStarted(
        at_ms=ctx.now_ms,
        board=kind,
        start_money=opts["start_money"],
        clock_ms=opts["decision_clock_s"] * 1000,
        round_limit=limit,
        seats=[SeatEntry(seat=s.seat, name=s.name, is_bot=s.is_bot) for s in seats],
        decks={deck: ctx.rng.shuffled(deck_cards(deck)) for deck in DECKS},
    )
    f = Flow(evolve(None, started), ctx, copy=False)
    f.events.append(started)
    if kind == "large":
        _deal_streets(f, [s.seat for s in seats])
    if n >= BIG_TABLE:
        turn.roll_order_for_all(f)
        turn.finish_order_if_decided(f)
    return f.events


def _deal_streets(f: Flow, seats: list[int]) -> None:
    """One random street each, no two in one group while groups last."""
    geometry = board("large")
    groups = [g for name, g in geometry.groups.items() if name not in ("transport", "utility")]
    shuffled = [groups[i] for i in f.rng.permutation(len(groups))]
    for i, seat in enumerate(seats):
        free = [sq for sq in shuffled[i % len(shuffled)] if f.state.owners[sq] < 0]
        f.emit(StreetDealt(seat=seat, square=free[f.rng.randint(0, len(free) - 1)]))
