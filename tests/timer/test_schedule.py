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


def test_the_first_clocks_wait_for_every_human_seat_to_see_the_table() -> None:
    """Seats 0 and 1 are people, seat 2 a bot: the first decision's clock starts when the last
    person's client shows the table (its first presence), at most `first_wait_ms` after the start."""
    wait = 30_000
    d = turn("order", 0, 1000, 30_000)

    def table(*later: tuple[str, bytes, dict[str, Any]]) -> TableClock:
        clock = TableClock("t", first_wait_ms=wait)
        events = (started(1000, (False, False, True)), move(None, 1000, [d]), *later)
        for position, (kind, payload, meta) in enumerate(events, start=1):
            clock.apply(position, kind, payload, meta)
        return clock

    assert table().next_action(IDLE) == (1000 + wait + 30_000, Fire(d))  # nobody has looked yet
    assert table(presence(0, True, 9000)).next_action(IDLE) == (1000 + wait + 30_000, Fire(d))
    both = table(presence(0, True, 9000), presence(1, True, 14_000))
    assert both.next_action(IDLE) == (14_000 + 30_000, Fire(d))
    assert both.fires_at_ms(turn("later", 1, 50_000, 30_000)) == 80_000  # later decisions keep their own clocks
    late = table(presence(0, True, 9000), presence(1, True, 90_000))
    assert late.next_action(IDLE) == (1000 + wait + 30_000, Fire(d))  # the wait is bounded


def test_a_person_present_before_the_start_sees_the_table_at_once() -> None:
    d = turn("order", 0, 1000, 30_000)
    clock = TableClock("t", first_wait_ms=30_000)
    events = (presence(0, True, 500), started(1000, (False, True)), move(None, 1000, [d]))
    for position, (kind, payload, meta) in enumerate(events, start=1):
        clock.apply(position, kind, payload, meta)
    assert clock.next_action(IDLE) == (31_000, Fire(d))


def test_bots_playing_on_with_no_person_present_do_not_keep_the_idle_close_away() -> None:
    """The rules' idle policy: a table none of whose people is present stands and waits; an hour
    without a move (theirs) closes it. Bots moving meanwhile change nothing."""
    d = turn("t1", 1, 2000)
    table = fold(started(1000, (False, True)), move(0, 2000, [d]), presence(0, False, 2500))
    assert table.standing_still
    for i in range(10):
        table.apply(10 + i, *move(1, 3000 + i * 60_000, [turn(f"b{i}", 1, 3000 + i * 60_000)]))
    assert table.next_action(IDLE) == (2000 + IDLE, CloseIdle(2000))
    table.apply(30, *presence(0, True, 700_000))
    table.apply(31, *move(1, 701_000, [d]))  # with a person back, a bot's move is a move again
    assert table.last_move_ms == 701_000
