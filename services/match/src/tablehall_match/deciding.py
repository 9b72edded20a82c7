"""Deciding one command on a live table: the platform's checks (a seed, the match not over, the
run-out decision still open, the decisions the command was chosen for still open), then the
game's `decide` with the table's next draws."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from tablehall_match.live_table import LiveTable
from tablehall_platform.errors import Refused
from tablehall_rules import DecideContext, DrawSource


def decide(
    live: LiveTable,
    seat: int | None,
    command: msgspec.Struct,
    decision_key: str,
    for_decisions: Sequence[str],
    now_ms: Callable[[], int],
) -> tuple[list[msgspec.Struct], DecideContext]:
    """The command's events and the context they were decided in (its draws)."""
    if live.seed is None:
        raise Refused("NO_SEED", "The table's seed is missing.", ru="Нет зерна стола.")
    game = live.game
    if live.ended:
        raise Refused("GAME_OVER", "The game is over.", ru="Игра окончена.")
    timed_out = None
    if decision_key:
        timed_out = next((d for d in game.pending(live.state) if d.key == decision_key and d.seat == seat), None)
        if timed_out is None:
            raise Refused(
                "DECISION_ALREADY_TAKEN",
                "That decision has been taken already.",
                ru="Это решение уже принято.",
            )
    if for_decisions:
        require_open(live, seat, for_decisions, now_ms())
    ctx = DecideContext(
        seat=seat,
        now_ms=now_ms(),
        rng=DrawSource(live.seed, live.draw_counter),
        timed_out=timed_out,
    )
    events = game.decide(live.state, command, ctx)
    if not events:
        raise Refused("NOTHING_HAPPENED", "The command changes nothing.", ru="Команда ничего не меняет.")
    return events, ctx


def require_open(live: LiveTable, seat: int | None, keys: Sequence[str], now_ms: int) -> None:
    """The decisions a command was chosen for are all still open, their clocks running."""
    open_now = {d.key: d for d in live.pending() if d.seat == seat}
    if any(key not in open_now for key in keys):
        raise Refused(
            "DECISION_ALREADY_TAKEN",
            "That decision has been taken already.",
            ru="Это решение уже принято.",
        )
    if any(open_now[key].clock_ran_out(now_ms) for key in keys):
        raise Refused(
            "CLOCK_RAN_OUT",
            "The decision's clock has run out: the timer makes its move.",
            ru="Время на решение вышло: ход сделает таймер.",
        )
