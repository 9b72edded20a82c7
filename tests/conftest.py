"""Shared fixtures: real PostgreSQL and NATS, found as the README says.

Addresses from TABLEHALL_DATABASE_URL / TABLEHALL_NATS_URL, else the local
default ports, else a Docker engine (testcontainers), else embedded servers
from pip wheels in `.data/test`. Each test session works in its own new
database, dropped at the end; `fresh_database_url` gives a test a database of
its own when it needs an empty global order.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest
from support.matchkit import Running, Tokens, start_service, stop_service, token_maker

from tablehall_eventstore import migrate
from tablehall_match import service as match_service
from tablehall_platform.infra import Servers, ensure_database, find_servers, with_database

ROOT = Path(__file__).resolve().parent.parent
# development sign-in: the SDK keeps its client secret in the user's config folder; not the real one
os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="tablehall-test-config-"))
# the services' token secrets of every server the tests start: in the checkout, not the user's data folder
os.environ.setdefault("TABLEHALL_SECRETS_DIR", str(ROOT / ".data" / "test" / "secrets"))
# tests drive their human seats without presence streams: their first clocks start at once (the
# wait for the players' presence has tests of its own, which set it)
os.environ.setdefault("TABLEHALL_TIMER_FIRST_CLOCK_WAIT_SECONDS", "0")
# every `tablehall up` a test starts: no web page on the shared port 8080 (the web tests choose theirs)
os.environ.setdefault("TABLEHALL_WEB_PORT", "0")


@pytest.fixture(scope="session")
async def servers() -> AsyncIterator[Servers]:
    found = await find_servers(
        data_dir=ROOT / ".data" / "test",
        db_name="postgres",
        database_url=os.environ.get("TABLEHALL_DATABASE_URL"),
        nats_url=os.environ.get("TABLEHALL_NATS_URL"),
        allow_docker=True,
    )
    yield found
    found.stop()


async def _drop(server_url: str, name: str) -> None:
    conn = await asyncpg.connect(with_database(server_url, "postgres"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture(scope="session")
async def database_url(servers: Servers) -> AsyncIterator[str]:
    name = f"tablehall_test_{uuid.uuid4().hex[:10]}"
    url = await ensure_database(servers.database_url, name)
    yield url
    await _drop(servers.database_url, name)


@pytest.fixture(scope="session")
def nats_url(servers: Servers) -> str:
    return servers.nats_url


@pytest.fixture
async def fresh_database_url(servers: Servers) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    made: list[str] = []

    async def make() -> str:
        name = f"tablehall_test_{uuid.uuid4().hex[:10]}"
        made.append(name)
        return await ensure_database(servers.database_url, name)

    yield make
    for name in made:
        await _drop(servers.database_url, name)


@pytest.fixture(scope="session")
def tokens() -> Tokens:
    """tokens(user, roles=("player",)): gRPC metadata signing in as `user`."""
    return token_maker()


@pytest.fixture(scope="session")
async def migrated(database_url: str) -> str:
    await migrate(database_url, extra=[match_service.MIGRATIONS])
    return database_url


@pytest.fixture
async def match(migrated: str) -> AsyncIterator[Running]:
    """A match service in this process on a free port (snapshots every 5 events)."""
    running = await start_service(migrated, snapshot_every=5)
    yield running
    await stop_service(running)
