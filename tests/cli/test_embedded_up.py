"""Embedded servers in every order: start, SIGKILL, start again, Ctrl-C: nothing left running."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from support.upkit import base_env, embedded_folder, start_up

from tablehall_platform.embedded import nats_servers_on, pid_alive, stop_pid
from tablehall_platform.infra import free_port


def _postgres_pid(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().split()[0])


def test_killed_then_restarted_then_interrupted_leaves_nothing_running(tmp_path: Path) -> None:
    with embedded_folder() as data:
        try:
            _start_kill_start_interrupt(tmp_path, data)
        finally:  # a failed run leaves no servers behind on the machine
            for pid in nats_servers_on((data / "nats").resolve()):
                stop_pid(pid)
            if (data / "postgres" / "postmaster.pid").exists():
                stop_pid(_postgres_pid(data / "postgres"))


def _start_kill_start_interrupt(tmp_path: Path, data: Path) -> None:
    env = base_env(data)
    env["TABLEHALL_EMBEDDED"] = "1"
    for name in ("TABLEHALL_DATABASE_URL", "TABLEHALL_NATS_URL"):
        env.pop(name, None)
    store, pgdata = (data / "nats").resolve(), (data / "postgres").resolve()

    first = start_up(env, tmp_path, free_port(), "first", ("--no-demo",))
    try:
        nats_pid, pg_pid = nats_servers_on(store), _postgres_pid(pgdata)
        assert len(nats_pid) == 1 and pid_alive(pg_pid)
    finally:
        first.proc.kill()  # SIGKILL: the servers stay behind
        first.proc.wait()
    assert nats_servers_on(store) == nats_pid and pid_alive(pg_pid)

    second = start_up(env, tmp_path, free_port(), "second", ("--no-demo",))
    try:
        # the leftovers are reused: one nats-server on the store, the same PostgreSQL
        assert nats_servers_on(store) == nats_pid
        assert _postgres_pid(pgdata) == pg_pid
        assert json.loads((pgdata / ".handle_pids.json").read_text()) == [second.proc.pid]
        # Ctrl-C in a terminal goes to the whole foreground process group
        os.killpg(second.proc.pid, signal.SIGINT)
        assert second.proc.wait(timeout=60) == 0, second.err()
    finally:
        if second.proc.poll() is None:
            second.proc.kill()
    err = second.err()
    assert "Traceback" not in err, err
    assert '"event": "stopped"' in err
    assert nats_servers_on(store) == []
    assert not pid_alive(pg_pid)
    assert not (store / "server.json").exists()
