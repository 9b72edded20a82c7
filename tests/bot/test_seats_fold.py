"""Which seats a bot plays, folded from a table's stream."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import msgspec
from tablehall_bot.seats import BotSeat, TableSeats
from tablehall_bot.tables import Tables

from tablehall_eventstore import EventStore


def _apply(t: TableSeats, version: int, kind: str, payload: dict[str, object], **meta: object) -> None:
    t.apply(version, kind, msgspec.json.encode(payload), dict(meta))


def _started(t: TableSeats) -> None:
    _apply(
        t,
        1,
        "lobby.BotAdded",
        {"seat": 1, "bot_id": "bot:t:1", "name": "Bot 1", "by": "h", "at_ms": 1, "difficulty": "strong"},
    )
    _apply(t, 2, "lobby.BotAdded", {"seat": 2, "bot_id": "bot:t:2", "name": "Bot 2", "by": "h", "at_ms": 1})
    seats = [
        {"seat": 0, "user_id": "alice", "name": "Alice", "is_bot": False},
        {"seat": 1, "user_id": "bot:t:1", "name": "Bot 1", "is_bot": True},
        {"seat": 2, "user_id": "bot:t:2", "name": "Bot 2", "is_bot": True},
    ]
    _apply(t, 3, "match.Started", {"game": "testgame", "seats": seats}, pending=[{"key": "k1", "seat": 1}])


def test_bot_seats_come_from_the_start_with_their_difficulty() -> None:
    t = TableSeats(handed_difficulty="strong")
    _started(t)
    assert [(s.seat, s.difficulty, s.handed_over) for s in t.bot_seats()] == [(1, "strong", False), (2, "easy", False)]
    assert [(s.seat, keys) for s, keys in t.waiting_seats()] == [(1, ["k1"])]


def test_a_handed_seat_is_played_until_reclaimed_and_a_taken_bot_seat_never_again() -> None:
    t = TableSeats(handed_difficulty="strong")
    _started(t)
    _apply(t, 4, "lobby.SeatHandedToBot", {"seat": 0, "user_id": "alice", "by": "h", "at_ms": 5})
    assert t.bot_seats()[0] == BotSeat(0, "alice", "strong", True)
    _apply(t, 5, "lobby.BotSeatTaken", {"seat": 2, "user_id": "carol", "name": "C", "bot_id": "bot:t:2", "at_ms": 6})
    _apply(t, 6, "lobby.SeatReclaimed", {"seat": 0, "user_id": "alice", "at_ms": 7}, pending=[{"key": "k2", "seat": 0}])
    assert [s.seat for s in t.bot_seats()] == [1]
    assert t.waiting_seats() == []


def test_an_ended_match_has_no_bot_seats() -> None:
    t = TableSeats()
    _started(t)
    _apply(t, 4, "match.Ended", {"outcome": {}}, pending=[])
    assert t.ended and t.bot_seats() == [] and t.waiting_seats() == []


def test_a_bot_removed_during_the_game_is_played_no_more_but_one_removed_before_the_start_is_ignored() -> None:
    t = TableSeats()
    _apply(t, 1, "lobby.BotRemoved", {"seat": 1, "bot_id": "bot:t:0", "by": "h", "at_ms": 1})  # before the start
    _started(t)
    assert [s.seat for s in t.bot_seats()] == [1, 2]
    _apply(
        t,
        4,
        "lobby.BotRemoved",
        {"seat": 1, "bot_id": "bot:t:1", "by": "h", "at_ms": 9},
        pending=[{"key": "k", "seat": 1}],
    )
    assert [s.seat for s in t.bot_seats()] == [2] and t.waiting_seats() == []


# ---- Tables: the fold brought up to date from relayed events, PostgreSQL read only for what is missing


@dataclass(frozen=True)
class _Event:
    version: int
    type: str
    payload: bytes
    metadata: dict[str, Any]
    schema_version: int = 1


class _Stream:
    """A table's stream as `Tables` reads it (`read_stream`), counting the reads."""

    def __init__(self) -> None:
        self.events: list[_Event] = []
        self.reads: list[int] = []  # the first version of each read

    def add(self, kind: str, payload: dict[str, object], **meta: object) -> _Event:
        event = _Event(len(self.events) + 1, kind, msgspec.json.encode(payload), dict(meta))
        self.events.append(event)
        return event

    async def read_stream(self, stream_id: str, from_version: int = 1) -> list[_Event]:
        assert stream_id == "table-t1"
        self.reads.append(from_version)
        return self.events[from_version - 1 :]


def _table_started(stream: _Stream) -> None:
    stream.add("lobby.BotAdded", {"seat": 1, "bot_id": "bot:t:1", "name": "Bot 1", "by": "h", "at_ms": 1})
    seats = [
        {"seat": 0, "user_id": "alice", "name": "Alice", "is_bot": False},
        {"seat": 1, "user_id": "bot:t:1", "name": "Bot 1", "is_bot": True},
    ]
    stream.add("match.Started", {"game": "testgame", "seats": seats}, pending=[{"key": "k1", "seat": 1}])


def _relay(tables: Tables, event: _Event) -> None:
    tables.observe("t1", event.version, event.type, event.payload, event.metadata)


async def test_relayed_events_that_follow_the_fold_are_folded_without_a_read() -> None:
    stream = _Stream()
    _table_started(stream)
    tables = Tables(cast(EventStore, stream), "easy")
    assert [s.seat for s in (await tables.seats("t1", at_least=2)).bot_seats()] == [1]
    assert stream.reads == [1]  # a table new here: read from its start
    handed = stream.add("lobby.SeatHandedToBot", {"seat": 0, "user_id": "alice", "by": "h", "at_ms": 5})
    moved = stream.add("testgame.Moved", {}, pending=[{"key": "k2", "seat": 0}])
    _relay(tables, handed)
    _relay(tables, moved)
    _relay(tables, moved)  # a redelivery changes nothing
    seats = await tables.seats("t1", at_least=moved.version)
    assert stream.reads == [1]
    assert [(s.seat, s.handed_over) for s in seats.bot_seats()] == [(0, True), (1, False)]
    assert [(s.seat, keys) for s, keys in seats.waiting_seats()] == [(0, ["k2"])]


async def test_after_a_gap_in_the_relayed_events_the_missing_ones_are_read_from_the_stream() -> None:
    stream = _Stream()
    _table_started(stream)
    tables = Tables(cast(EventStore, stream), "easy")
    await tables.seats("t1", at_least=2)
    stream.add("lobby.SeatHandedToBot", {"seat": 0, "user_id": "alice", "by": "h", "at_ms": 5})  # not relayed here
    moved = stream.add("testgame.Moved", {}, pending=[{"key": "k2", "seat": 0}])
    _relay(tables, moved)  # after a gap: not folded
    seats = await tables.seats("t1", at_least=moved.version)
    assert stream.reads == [1, 3]  # only what was missing
    assert [s.seat for s in seats.bot_seats()] == [0, 1] and seats.version == 4
    assert (await tables.seats("t1")).version == 4 and stream.reads == [1, 3, 5]  # no `at_least`: always read
