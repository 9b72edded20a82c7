"""Embedded NATS after a run that died: a stale state file, a leftover that is reused."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tablehall_platform.embedded import NATS_STATE, PG_HANDLES, drop_dead_handles, embedded_nats, nats_servers_on


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_stale_state_file_starts_a_fresh_server(tmp_path: Path) -> None:
    store = tmp_path / "nats"
    store.mkdir()
    (store / NATS_STATE).write_text(json.dumps({"pid": _dead_pid(), "port": 1, "owner": _dead_pid()}))
    url, stop = embedded_nats(tmp_path)
    try:
        state = json.loads((store / NATS_STATE).read_text())
        assert nats_servers_on(store.resolve()) == [state["pid"]]
        assert url == f"nats://127.0.0.1:{state['port']}" and state["owner"] == os.getpid()
    finally:
        stop()
    assert nats_servers_on(store.resolve()) == []
    assert not (store / NATS_STATE).exists()


def test_a_leftover_of_a_dead_run_is_reused_never_doubled(tmp_path: Path) -> None:
    store = (tmp_path / "nats").resolve()
    first_url, first_stop = embedded_nats(tmp_path)
    try:
        state = json.loads((store / NATS_STATE).read_text())
        # the run that started it dies without stopping it
        (store / NATS_STATE).write_text(json.dumps({**state, "owner": _dead_pid()}))
        url, stop = embedded_nats(tmp_path)
        assert url == first_url
        assert nats_servers_on(store) == [state["pid"]]
        assert json.loads((store / NATS_STATE).read_text())["owner"] == os.getpid()
        stop()
        assert nats_servers_on(store) == []
    finally:
        first_stop()


def test_a_leftover_without_its_state_file_is_stopped_before_a_new_one(tmp_path: Path) -> None:
    store = (tmp_path / "nats").resolve()
    _, first_stop = embedded_nats(tmp_path)
    try:
        orphan = nats_servers_on(store)
        (store / NATS_STATE).unlink()
        _, stop = embedded_nats(tmp_path)
        running = nats_servers_on(store)
        assert len(running) == 1 and running != orphan
        stop()
        assert nats_servers_on(store) == []
    finally:
        first_stop()


def test_dead_handles_of_the_embedded_postgres_are_dropped(tmp_path: Path) -> None:
    (tmp_path / PG_HANDLES).write_text(json.dumps([_dead_pid(), os.getpid()]))
    drop_dead_handles(tmp_path)
    assert json.loads((tmp_path / PG_HANDLES).read_text()) == [os.getpid()]
