"""Fixtures: an in-process match service on a free port, with the test game."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from support.matchkit import Running, Tokens, start_service, stop_service, token_maker

from tablehall_eventstore import migrate
from tablehall_match import service as match_service


@pytest.fixture(scope="session")
def tokens() -> Tokens:
    return token_maker()


@pytest.fixture(scope="session")
async def migrated(database_url: str) -> str:
    await migrate(database_url, extra=[match_service.MIGRATIONS])
    return database_url


@pytest.fixture
async def match(migrated: str) -> AsyncIterator[Running]:
    running = await start_service(migrated, snapshot_every=5)
    yield running
    await stop_service(running)
