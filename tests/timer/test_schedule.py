"""The pure fold of a table's clocks: given events, then the next action."""

from __future__ import annotations

from typing import Any

import msgspec

from tablehall_rules import PendingDecision as Decision
from tablehall_timer.schedule import CloseIdle, Fire, TableClock

IDLE = 3_600_000


def started(at: int, bots: tuple[bool, ...] = (False, False)) -> tuple[str, bytes, dict[str, Any]]:
    seats = [{"seat": i, "user_id": f"u{i}", "name": f"U{i}", "is_bot": b} for i, b in enumerate(bots)]
    return "match.Started", msgspec.json.encode({"seats": seats, "started_at_ms": at, "game": "g"}), {"now_ms": at}


def move(
    seat: int | None, at: int, pending: list[Decision], timeout: bool = False
) -> tuple[str, bytes, dict[str, Any]]:
    meta = {"seat": seat, "now_ms": at, "timeout": timeout, "pending": msgspec.to_builtins(pending)}
    return "g.Moved", b"{}", meta


def presence(seat: int, present: bool, at: int) -> tuple[str, bytes, dict[str, Any]]:
    body = {"seat": seat, "user_id": f"u{seat}", "present": present, "at_ms": at}
    return "lobby.PresenceChanged", msgspec.json.encode(body), {}


def fold(*events: tuple[str, bytes, dict[str, Any]]) -> TableClock:
    table = TableClock("t")
    for position, (kind, payload, meta) in enumerate(events, start=1):
        table.apply(position, kind, payload, meta)
    return table


def turn(key: str, seat: int, opened: int, clock: int = 1000) -> Decision:
    return Decision(key, seat, "turn", "decision", opened, clock)


def test_the_earliest_open_decision_is_next_and_a_default_move_is_no_move() -> None:
    a, b = turn("a", 0, 100, 5000), turn("b", 1, 100, 800)
    table = fold(started(100), move(None, 100, [a, b]))
    assert table.next_action(IDLE) == (900, Fire(b))
    table.done.add("b")
    assert table.next_action(IDLE) == (5100, Fire(a))
    table.apply(3, *move(0, 6000, [turn("c", 1, 6000)], timeout=True))
    assert table.done == set() and table.last_move_ms == 100  # a timeout is not a move
    table.apply(4, *move(1, 6500, [turn("d", 0, 6500)]))
    assert table.last_move_ms == 6500


def test_a_table_whose_humans_are_all_away_stands_still_and_restarts_clocks_on_return() -> None:
    d = turn("a", 0, 1000)
    table = fold(presence(0, False, 500), started(1000), move(None, 1000, [d]), presence(1, False, 1200))
    assert table.standing_still
    assert table.next_action(IDLE) == (1000 + IDLE, CloseIdle(1000))  # only the idle close remains
    table.apply(5, *presence(0, True, 9000))
    assert not table.standing_still and table.next_action(IDLE) == (10_000, Fire(d))


def test_a_table_of_bots_never_stands_still_and_a_bot_counts_only_if_human() -> None:
    d = turn("a", 0, 0)
    bots = fold(started(0, (True, True)), move(None, 0, [d]), presence(0, False, 1), presence(1, False, 2))
    assert not bots.standing_still and bots.next_action(IDLE) == (1000, Fire(d))
    mixed = fold(started(0, (False, True)), move(None, 0, [d]), presence(0, False, 1))
    assert mixed.standing_still


def test_an_idle_close_once_made_waits_for_a_new_move_and_an_ended_table_has_nothing_to_do() -> None:
    table = fold(started(0), move(None, 0, [turn("a", 0, 0, 600_000)]))
    assert table.next_action(1000) == (1000, CloseIdle(0))
    table.closed_for_move_ms = 0
    assert table.next_action(1000) == (600_000, Fire(turn("a", 0, 0, 600_000)))
    table.apply(3, "match.Ended", b"{}", {"pending": []})
    assert table.finished and table.next_action(1000) is None


def test_events_seen_already_are_ignored() -> None:
    table = fold(started(0), move(0, 50, [turn("a", 1, 50)]))
    table.apply(1, *move(0, 99, [turn("x", 0, 99)]))
    assert [d.key for d in table.decisions] == ["a"] and table.last_move_ms == 50
