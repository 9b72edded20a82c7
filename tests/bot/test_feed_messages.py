"""The bot's feed reads both kinds of message the publisher sends: one event's envelope, or the
events of one command as an array of envelopes (`tablehall_eventstore.publisher.messages`)."""

from __future__ import annotations

import datetime
import uuid

import msgspec
import pytest
from tablehall_bot.feed import envelopes_of

from tablehall_eventstore import RecordedEvent
from tablehall_eventstore.publisher import message_body, messages


def _event(version: int, metadata: dict[str, object], stream: str = "table-t1") -> RecordedEvent:
    return RecordedEvent(
        event_id=uuid.uuid4(),
        stream_id=stream,
        version=version,
        position=version,
        type="g.E",
        schema_version=1,
        payload=b'{"v": %d}' % version,
        metadata=metadata,
        recorded_at=datetime.datetime.now(datetime.UTC),
    )


def test_one_event_and_a_commands_events_read_back_in_order() -> None:
    events = [
        _event(1, {"command_id": "c1"}),
        _event(2, {"command_id": "c1", "pending": []}),
        _event(3, {}),  # a lobby event: alone
        _event(4, {"command_id": "c2", "pending": []}),
        _event(1, {"command_id": "c2"}, stream="table-t2"),  # another table's: never grouped with t1's
    ]
    groups = messages(events)
    assert [[e.version for e in g] for g in groups] == [[1, 2], [3], [4], [1]]
    read = [envelopes_of(message_body(g)) for g in groups]
    assert [[(e.stream_id, e.version) for e in r] for r in read] == [
        [("table-t1", 1), ("table-t1", 2)],
        [("table-t1", 3)],
        [("table-t1", 4)],
        [("table-t2", 1)],
    ]
    assert msgspec.json.decode(read[0][0].payload) == {"v": 1} and "pending" in read[0][1].metadata


def test_an_unreadable_message_is_refused() -> None:
    with pytest.raises(msgspec.DecodeError):
        envelopes_of(b'"not an envelope"')
