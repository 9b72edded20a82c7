"""Embedded servers after a run that died: stale state and lock files, leftovers reused, never doubled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from support.upkit import embedded_folder

from tablehall_platform.embedded import (
    NATS_STATE,
    PG_HANDLES,
    drop_dead_handles,
    embedded_nats,
    nats_servers_on,
    stop_pid,
)


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


_KILL_POSTMASTER = """
import os, signal, sys, time
from pathlib import Path
from tablehall_platform.embedded import embedded_postgres, pid_alive
data = Path(sys.argv[1])
embedded_postgres(data)
pid = int((data / "postgres" / "postmaster.pid").read_text().split()[0])
os.kill(pid, signal.SIGKILL)  # the server dies: its postmaster.pid and socket lock stay behind
while pid_alive(pid):
    time.sleep(0.05)
print(pid)
os._exit(0)  # and so does this run, without its clean-up
"""

_START_QUERY_STOP = """
import asyncio, sys
from pathlib import Path
import asyncpg
from tablehall_platform.embedded import embedded_postgres
uri, stop = embedded_postgres(Path(sys.argv[1]))
async def ask() -> int:
    conn = await asyncpg.connect(uri)
    try:
        return int(await conn.fetchval("SELECT 41 + 1"))
    finally:
        await conn.close()
print(asyncio.run(ask()))
stop()
"""


def test_a_postgres_that_died_leaves_lock_files_a_new_run_replaces() -> None:
    with embedded_folder() as data:

        def run(script: str) -> str:
            done = subprocess.run(
                [sys.executable, "-c", script, str(data)], capture_output=True, text=True, timeout=120, check=False
            )
            assert done.returncode == 0, done.stderr
            return done.stdout.strip().splitlines()[-1]

        pgdata = data / "postgres"
        try:
            killed = int(run(_KILL_POSTMASTER))
            assert int((pgdata / "postmaster.pid").read_text().split()[0]) == killed  # stale
            assert run(_START_QUERY_STOP) == "42"
            assert not (pgdata / "postmaster.pid").exists()  # and the clean stop stopped it
        finally:
            if (pgdata / "postmaster.pid").exists():
                stop_pid(int((pgdata / "postmaster.pid").read_text().split()[0]))
