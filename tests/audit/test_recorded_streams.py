"""Streams recorded by earlier code (tests/data/streams, see its README) still read, replay and
verify: each export file's signature holds against the kept public key, `verify_stream` re-decides
every command and recomputes every draw, and the match's own loading path (its table rebuilt from
the stored events, whole or through a snapshot) gives the state the audit's replay gives, event
by event, with the outcome the stream recorded. A new recording is checked by adding its file."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import msgspec
import pytest

from tablehall_audit.events import StreamCopy
from tablehall_audit.export import check_signature, read_export_file
from tablehall_audit.replay import steps
from tablehall_audit.verify import verify_stream
from tablehall_eventstore import EventStore, NewEvent
from tablehall_match.live_table import REBUILD_METADATA, LiveTable
from tablehall_stream.events import MatchEnded
from tablehall_stream.names import ENDED, STARTED, stream_id

STREAMS = Path(__file__).resolve().parents[1] / "data" / "streams"
# the recording servers' public keys (a partial re-recording is signed by a server of its own)
KEYS = sorted(STREAMS.glob("signing-key*.pub.pem"))
FILES = sorted(STREAMS.glob("*.json"))
GAMES = ("puzzipolia", "homunculus", "dragons", "magnates")


def _read(path: Path) -> StreamCopy:
    found = read_export_file(path.read_bytes())
    checks = [check_signature(found.document, key.read_text()) for key in KEYS]
    assert any(signed for signed, _ in checks), f"{path.name}: {[what for _, what in checks]}"
    return found.copy


def _rebuilt(copy: StreamCopy, upto: int | None = None) -> LiveTable:
    """The match's table rebuilt from the stored events (as `MatchApp._load` does after its snapshot)."""
    live = LiveTable(copy.table_id, stream_id(copy.table_id))
    for event in copy.events[:upto]:
        live.apply_recorded(event)
    return live


def test_every_game_has_recorded_streams() -> None:
    games = {read_export_file(path.read_bytes()).document.game for path in FILES}
    assert games == set(GAMES)


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_recorded_stream_verifies(path: Path) -> None:
    copy = _read(path)
    verdict = verify_stream(copy)
    assert verdict.ok, f"{path.name}: version {verdict.version}: {verdict.message}"
    assert verdict.events_checked == len(copy.events) == copy.head_version
    assert verdict.commands_checked > 0 and verdict.draws_checked > 0


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_the_match_rebuilds_a_recorded_stream_as_its_replay(path: Path) -> None:
    copy = _read(path)
    replayed = list(steps(copy.table_id, copy.events))
    live = _rebuilt(copy)
    assert live.started is not None and live.ended
    assert (live.version, live.started.game) == (copy.head_version, read_export_file(path.read_bytes()).document.game)
    assert msgspec.to_builtins(live.state) == replayed[-1].state
    # the outcome the rules give the rebuilt state is the one the stream recorded at its end
    ended = next(e for e in copy.events if e.type == ENDED)
    recorded = msgspec.json.decode(ended.payload, type=MatchEnded).outcome
    outcome = live.game.outcome(live.state)
    assert outcome is not None and msgspec.json.decode(msgspec.json.encode(outcome)) == recorded
    # event by event, and through a snapshot taken halfway (the match's other loading path)
    started_at = next(i for i, e in enumerate(copy.events) if e.type == STARTED)
    middle = (started_at + len(copy.events)) // 2
    step_by_step = LiveTable(copy.table_id, stream_id(copy.table_id))
    for event, step in zip(copy.events, replayed, strict=True):
        step_by_step.apply_recorded(event)
        assert msgspec.to_builtins(step_by_step.state) == step.state, f"{path.name}: version {event.version}"
    halfway = _rebuilt(copy, middle + 1)
    resumed = LiveTable(copy.table_id, stream_id(copy.table_id))
    resumed.restore(halfway.snapshot())
    for event in copy.events[middle + 1 :]:
        resumed.apply_recorded(event)
    assert msgspec.to_builtins(resumed.state) == replayed[-1].state
    assert (resumed.version, resumed.draw_counter, resumed.controllers) == (
        live.version,
        live.draw_counter,
        live.controllers,
    )


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
async def test_the_match_rebuilds_a_stored_stream_from_the_metadata_it_reads(path: Path, migrated: str) -> None:
    """Stored again and read as the match's loading path reads it (`REBUILD_METADATA`, not the
    whole metadata), a recorded stream gives the table its whole events give."""
    copy = _read(path)
    whole = _rebuilt(copy)
    store = await EventStore.connect(migrated, min_size=1, max_size=2)
    try:
        sid = f"table-rebuilt-{uuid.uuid4().hex[:10]}"
        new = [NewEvent(e.type, e.schema_version, e.payload, e.metadata) for e in copy.events]
        await store.append(sid, 0, new)
        facts = await store.read_facts(sid, metadata=REBUILD_METADATA)
    finally:
        await store.close()
    assert all(set(f.metadata) <= set(REBUILD_METADATA) for f in facts)
    live = LiveTable(copy.table_id, sid)
    for fact in facts:
        live.apply_recorded(fact)
    assert msgspec.to_builtins(live.state) == msgspec.to_builtins(whole.state)
    assert (live.version, live.draw_counter, live.controllers, live.ended, live.access, live.started) == (
        whole.version,
        whole.draw_counter,
        whole.controllers,
        whole.ended,
        whole.access,
        whole.started,
    )
    assert whole.draw_counter > 0 and live.version == len(copy.events)


def test_tablehall_verify_accepts_a_recorded_file_with_the_kept_key() -> None:
    path = next(p for p in FILES if p.stem.startswith("dragons"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablehall_cli.main",
            "verify",
            "--file",
            str(path),
            "--key",
            str(STREAMS / "signing-key.pub.pem"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified" in done.stdout
