"""The verifier and a game's retired event types (`Game.retired_events`): Пузиполия's stored
`AfkChanged`, which its rules no longer write, verifies exactly where the rules' own events imply it
(or where it stands for the `BackFromAfk` the rules write now); one that says more is caught."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import msgspec

from tablehall_audit.chain import event_hash
from tablehall_audit.events import AuditEvent, StreamCopy
from tablehall_audit.export import read_export_file
from tablehall_audit.verify import verify_stream

HANDOVER = Path(__file__).resolve().parents[1] / "data" / "streams" / "puzzipolia-handover.json"


def _chained(table_id: str, events: list[AuditEvent]) -> StreamCopy:
    """The events renumbered and re-hashed, as a store would hold them (the chain holds)."""
    out: list[AuditEvent] = []
    prev: str | None = None
    for version, event in enumerate(events, start=1):
        digest = event_hash(prev, event.type, event.payload, event.hash_scheme, event.metadata_text)
        out.append(dataclasses.replace(event, version=version, prev_hash=prev, hash=digest))
        prev = digest
    return StreamCopy(table_id, out, len(out), prev)


def _recorded() -> StreamCopy:
    return read_export_file(HANDOVER.read_bytes()).copy


def _afk_changed(copy: StreamCopy) -> list[int]:
    return [i for i, e in enumerate(copy.events) if e.type == "puzzipolia.AfkChanged"]


def test_the_recorded_stream_holds_retired_events_and_verifies() -> None:
    copy = _recorded()
    assert len(_afk_changed(copy)) == 4
    assert verify_stream(copy).ok


def test_an_afk_changed_that_says_what_the_rules_do_not_is_a_discrepancy() -> None:
    copy = _recorded()
    at = _afk_changed(copy)[2]  # seat 0 AFK after its run-out clock (implied)
    forged = copy.events[at]
    payload = msgspec.json.decode(forged.payload)
    assert payload["seat"] == 0 and payload["afk"] is True
    # the bot's seat 2, which no clock or presence made AFK
    payload["seat"] = 2
    events = list(copy.events)
    events[at] = dataclasses.replace(forged, payload=msgspec.json.encode(payload))
    verdict = verify_stream(_chained(copy.table_id, events))
    assert not verdict.ok and verdict.version == forged.version and "retired" in verdict.message


def test_a_back_from_afk_the_rules_write_cannot_be_left_out() -> None:
    copy = _recorded()
    backs = [i for i in _afk_changed(copy) if msgspec.json.decode(copy.events[i].payload)["afk"] is False]
    # the second one stands for a BackFromAfk (seat 0 was AFK): dropping it loses a fact
    at = backs[1]
    back, bid = copy.events[at], copy.events[at + 1]
    events = [*copy.events[:at], dataclasses.replace(bid, metadata=back.metadata, metadata_text=back.metadata_text)]
    events += copy.events[at + 2 :]
    verdict = verify_stream(_chained(copy.table_id, events))
    assert not verdict.ok and verdict.version == at + 1, verdict.message
    assert "BackFromAfk" in verdict.message
