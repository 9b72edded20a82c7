"""`tablehall up` in a subprocess on a database of its own, with tokens for it (fuzz runs, benchmarks)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import nats

from tablehall_eventstore.publisher import STREAM_NAME
from tablehall_platform.auth import DevProvider, ServiceProvider
from tablehall_platform.infra import free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "up-secret-0123456789abcdef-0123456789ab"
SERVICE_SECRET = "up-service-secret-0123456789abcdef-01"


@dataclass
class Up:
    process: subprocess.Popen[bytes]
    address: str
    log_path: Path
    log: IO[str]
    people: DevProvider
    services: ServiceProvider
    nats_url: str
    bot_consumer: str

    def player(self, user: str) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.people.issue(user)}")]

    def service(self, name: str) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.services.service_token(name)}")]

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    async def stop(self) -> None:
        """Stop the server and delete its bot consumer (the shared NATS outlives the run)."""
        self.process.terminate()
        await asyncio.to_thread(self.process.wait, 30)
        self.log.close()
        with contextlib.suppress(Exception):  # never created if the bot service did not start
            nc = await nats.connect(self.nats_url)
            try:
                await nc.jetstream().delete_consumer(STREAM_NAME, self.bot_consumer)
            finally:
                await nc.close()


def start_up(extra_env: Mapping[str, str] | None = None) -> Up:
    """Start every service on a free port; the caller waits for the channel to be ready."""
    port = free_port()
    data_dir = Path(os.environ.get("TMPDIR", "/tmp")) / f"tablehall-up-{uuid.uuid4().hex[:8]}"
    env = {
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
        **(extra_env or {}),
    }
    bot_consumer = f"tablehall-bot-up-{uuid.uuid4().hex[:8]}"
    env["TABLEHALL_BOT_CONSUMER"] = bot_consumer  # a durable consumer of its own, deleted by stop()
    log_path = data_dir.with_suffix(".log")
    log = open(log_path, "w")  # noqa: SIM115
    process = subprocess.Popen([str(ROOT / ".venv/bin/tablehall"), "up", "--no-demo"], env=env, stdout=log, stderr=log)
    nats_url = os.environ.get("TABLEHALL_NATS_URL", "nats://127.0.0.1:4222")
    return Up(
        process,
        f"127.0.0.1:{port}",
        log_path,
        log,
        DevProvider(SECRET),
        ServiceProvider(SERVICE_SECRET),
        nats_url,
        bot_consumer,
    )
