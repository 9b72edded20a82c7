"""`tablehall` as a user runs it: a subprocess with its output in files, waited on by health."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import grpc
import nats
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tablehall_platform.infra import free_port

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 120.0


@dataclass
class Up:
    proc: subprocess.Popen[str]
    port: int
    stderr: Path

    def err(self) -> str:
        return self.stderr.read_text()


def tablehall(
    args: list[str], env: Mapping[str, str], folder: Path, name: str, cwd: Path = ROOT
) -> subprocess.Popen[str]:
    """Start `tablehall ARGS` in a session of its own (as a terminal would), output in `folder/name.*`."""
    out, err = (folder / f"{name}.out").open("w"), (folder / f"{name}.err").open("w")
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "tablehall_cli.main", *args],
            env=dict(env),
            cwd=cwd,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
    finally:
        out.close()
        err.close()


def start_up(env: Mapping[str, str], folder: Path, port: int, name: str = "up", extra: tuple[str, ...] = ()) -> Up:
    """`tablehall up --port PORT`, returned once its match service answers SERVING."""
    proc = tablehall(["up", "--port", str(port), *extra], env, folder, name)
    up = Up(proc, port, folder / f"{name}.err")
    if not wait_serving(f"127.0.0.1:{port}", "tablehall.match.v1.MatchService", alive=lambda: proc.poll() is None):
        proc.kill()
        raise AssertionError(f"tablehall up did not start:\n{up.err()}")
    return up


def wait_serving(
    address: str, service: str, timeout_s: float = START_TIMEOUT_S, alive: Callable[[], bool] = lambda: True
) -> bool:
    """Whether `service` at `address` answers SERVING within `timeout_s`, asked every 0.2 s
    while `alive()` (a server process that died will not start)."""
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.RpcError:
                pass
            if not alive() or time.monotonic() > deadline:
                return False
            time.sleep(0.2)


@contextmanager
def bots_up(
    database: str, nats_url: str, folder: Path, think_ms: int = 30, extra_env: Mapping[str, str] | None = None
) -> Iterator[Up]:
    """`tablehall up --no-demo` (every service: lobby, match, timer, bot, projection, publisher) on
    `database` and `nats_url`, its bot service with a consumer of its own and `think_ms` per strong
    decision, and `extra_env`; stopped, and the bot's consumer dropped, at the end."""
    consumer = f"bot-{uuid.uuid4().hex[:12]}"
    env = {
        **base_env(folder),
        "TABLEHALL_DATABASE_URL": database,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_BOT_CONSUMER": consumer,
        "TABLEHALL_BOT_THINK_MS": str(think_ms),
        **(extra_env or {}),
    }
    up = start_up(env, folder, free_port(), extra=("--no-demo",))
    try:
        yield up
    finally:
        up.proc.terminate()
        up.proc.wait(30)
        asyncio.run(drop_consumer(nats_url, consumer))


def base_env(data_dir: Path) -> dict[str, str]:
    """The environment of a user's shell with its own data folder and no metrics port."""
    return {**os.environ, "TABLEHALL_DATA_DIR": str(data_dir), "TABLEHALL_METRICS_PORT": "0"}


async def drop_consumer(nats_url: str, consumer: str) -> None:
    """The bot's durable consumer would outlive the test on a shared NATS server."""
    client = await nats.connect(nats_url)
    try:
        with contextlib.suppress(Exception):
            await client.jetstream().delete_consumer("TABLEHALL_EVENTS", consumer)
    finally:
        await client.close()


@contextmanager
def embedded_folder() -> Iterator[Path]:
    """A folder for embedded servers outside pytest's temporary folders.

    The embedded PostgreSQL runs as another user (`pgserver` when run as root), which must reach
    its data folder; a concurrent pytest session resets /tmp/pytest-of-<user> to 0700 under it.
    """
    folder = Path(tempfile.mkdtemp(prefix="tablehall-embedded-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
