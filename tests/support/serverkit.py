"""`tablehall up` in a subprocess on a database of its own, with tokens for it (fuzz runs, benchmarks);
or every service in a process of its own (`tablehall serve SERVICE`), as a deployment runs them."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import os
import subprocess
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import nats

from tablehall_eventstore.publisher import STREAM_NAME
from tablehall_platform.auth import DevProvider, ServiceProvider
from tablehall_platform.infra import free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "up-secret-0123456789abcdef-0123456789ab"
SERVICE_SECRET = "up-service-secret-0123456789abcdef-01"


@dataclass(kw_only=True)
class ServerProcesses(abc.ABC):
    """Running server processes on a database of their own, with tokens for them (a layout of
    them: `Up`, `Split`)."""

    log_path: Path
    log: IO[str]
    people: DevProvider
    services: ServiceProvider
    nats_url: str
    bot_consumer: str
    # the ports of their /metrics by process name (none when TABLEHALL_METRICS_PORT is 0)
    metrics_ports: dict[str, int] = field(default_factory=dict)

    @property
    @abc.abstractmethod
    def processes(self) -> dict[str, subprocess.Popen[bytes]]:
        """Its processes by name, in the order they were started."""

    @abc.abstractmethod
    def address_of(self, service: str) -> str:
        """Where `service` answers."""

    @property
    def pids(self) -> dict[str, int]:
        return {name: process.pid for name, process in self.processes.items()}

    def player(self, user: str) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.people.issue(user)}")]

    def service(self, name: str) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.services.service_token(name)}")]

    @property
    def alive(self) -> bool:
        return all(process.poll() is None for process in self.processes.values())

    async def stop(self) -> None:
        """Stop every process, the last started first (the bot: it stops sending commands), and
        delete the bot consumer (the shared NATS outlives the run)."""
        for process in reversed(list(self.processes.values())):
            process.terminate()
            await asyncio.to_thread(process.wait, 30)
        self.log.close()
        await _delete_consumer(self.nats_url, self.bot_consumer)

    async def kill(self) -> None:
        """Kill what `stop` could not stop in time, then finish stopping."""
        for process in self.processes.values():
            process.kill()
            await asyncio.to_thread(process.wait)
        await self.stop()


@dataclass(kw_only=True)
class Up(ServerProcesses):
    """`tablehall up`: every service in one process, at one address."""

    process: subprocess.Popen[bytes]
    address: str

    @property
    def processes(self) -> dict[str, subprocess.Popen[bytes]]:
        return {"tablehall up": self.process}

    def address_of(self, service: str) -> str:
        return self.address


async def _delete_consumer(nats_url: str, consumer: str) -> None:
    with contextlib.suppress(Exception):  # never created if the bot service did not start
        nc = await nats.connect(nats_url)
        try:
            await nc.jetstream().delete_consumer(STREAM_NAME, consumer)
        finally:
            await nc.close()


def _env(port: int, data_dir: Path, extra_env: Mapping[str, str] | None) -> dict[str, str]:
    return {
        **os.environ,
        "TABLEHALL_PORT": str(port),
        "TABLEHALL_DB_NAME": f"tablehall_up_{uuid.uuid4().hex[:8]}",
        "TABLEHALL_DATA_DIR": str(data_dir),
        "TABLEHALL_METRICS_PORT": "0",
        "TABLEHALL_TOKEN_SECRET": SECRET,
        "TABLEHALL_SERVICE_SECRET": SERVICE_SECRET,
        "TABLEHALL_EXTRA_GAMES": "testgame=testgame.game:GAME",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]),
        "TABLEHALL_LOG_LEVEL": "warning",
        # a durable bot consumer of its own, deleted by stop()
        "TABLEHALL_BOT_CONSUMER": f"tablehall-bot-up-{uuid.uuid4().hex[:8]}",
        **(extra_env or {}),
    }


def _run_of(log_path: Path, log: IO[str], env: Mapping[str, str]) -> dict[str, Any]:
    """The fields of a `ServerProcesses` every layout fills alike: its log, the token issuers of
    `SECRET` and `SERVICE_SECRET`, the NATS and bot consumer `env` gave it."""
    return {
        "log_path": log_path,
        "log": log,
        "people": DevProvider(SECRET),
        "services": ServiceProvider(SERVICE_SECRET),
        "nats_url": _nats_url(),
        "bot_consumer": env["TABLEHALL_BOT_CONSUMER"],
    }


def _nats_url() -> str:
    """The NATS the servers find (to delete their bot consumer after)."""
    return os.environ.get("TABLEHALL_NATS_URL", "nats://127.0.0.1:4222")


def _data_dir() -> Path:
    return Path(os.environ.get("TMPDIR", "/tmp")) / f"tablehall-up-{uuid.uuid4().hex[:8]}"


def start_up(extra_env: Mapping[str, str] | None = None) -> Up:
    """Start every service on a free port; the caller waits for the channel to be ready."""
    port = free_port()
    data_dir = _data_dir()
    env = _env(port, data_dir, extra_env)
    log_path = data_dir.with_suffix(".log")
    log = open(log_path, "w")  # noqa: SIM115
    process = subprocess.Popen([str(ROOT / ".venv/bin/tablehall"), "up", "--no-demo"], env=env, stdout=log, stderr=log)
    metrics_port = int(env.get("TABLEHALL_METRICS_PORT", "0"))
    return Up(
        process=process,
        address=f"127.0.0.1:{port}",
        metrics_ports={"tablehall up": metrics_port} if metrics_port else {},
        **_run_of(log_path, log, env),
    )


# `tablehall serve SERVICE` for each, in this order: the match first (it creates the database
# and its schema; the others find them made)
SPLIT_SERVICES = ("match", "lobby", "publisher", "projection", "timer", "bot")


@dataclass(kw_only=True)
class Split(ServerProcesses):
    """Every service in a process of its own, as docker-compose and deploy/ run them."""

    started: dict[str, subprocess.Popen[bytes]]
    addresses: dict[str, str]

    @property
    def processes(self) -> dict[str, subprocess.Popen[bytes]]:
        return self.started

    def address_of(self, service: str) -> str:
        return self.addresses[service]


def start_split(extra_env: Mapping[str, str] | None = None, metrics: bool = False) -> Split:
    """Start each service in its own process on a free port (the match first, waited for until it
    serves); the caller waits for the others. `metrics`: each serves /metrics on a free port."""
    from support.upkit import wait_serving

    data_dir = _data_dir()
    ports = {name: free_port() for name in SPLIT_SERVICES}
    addresses = {name: f"127.0.0.1:{port}" for name, port in ports.items()}
    env = _env(ports["match"], data_dir, extra_env)
    env["TABLEHALL_MATCH_ADDRESS"] = addresses["match"]
    env["TABLEHALL_LOBBY_ADDRESS"] = addresses["lobby"]
    metrics_ports = {name: free_port() if metrics else 0 for name in SPLIT_SERVICES}
    log_path = data_dir.with_suffix(".log")
    log = open(log_path, "w")  # noqa: SIM115
    processes: dict[str, subprocess.Popen[bytes]] = {}
    for name in SPLIT_SERVICES:
        processes[name] = subprocess.Popen(
            [str(ROOT / ".venv/bin/tablehall"), "serve", name, "--port", str(ports[name])],
            env={**env, "TABLEHALL_METRICS_PORT": str(metrics_ports[name])},
            stdout=log,
            stderr=log,
        )
        if name == "match" and not wait_serving(
            addresses["match"], "tablehall.match.v1.MatchService", 720, lambda: processes["match"].poll() is None
        ):
            processes["match"].kill()
            log.close()
            raise RuntimeError(f"tablehall serve match did not start: see {log_path}")
    return Split(
        started=processes,
        addresses=addresses,
        metrics_ports={name: p for name, p in metrics_ports.items() if p},
        **_run_of(log_path, log, env),
    )
