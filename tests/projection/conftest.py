"""Fixtures: the match and projection services in process, with the test game."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from support.matchkit import Tokens, token_maker
from support.projectionkit import Stack, start_stack, stop_stack

from tablehall_eventstore import migrate
from tablehall_match import service as match_service
from tablehall_projection import service as projection_service

FOLDERS = [match_service.MIGRATIONS, projection_service.MIGRATIONS]


@pytest.fixture(scope="session")
def tokens() -> Tokens:
    return token_maker()


@pytest.fixture(scope="session")
async def projection_db(database_url: str) -> str:
    await migrate(database_url, extra=FOLDERS)
    return database_url


@pytest.fixture
async def stack(projection_db: str) -> AsyncIterator[Stack]:
    running = await start_stack(projection_db)
    yield running
    await stop_stack(running)


@pytest.fixture
async def empty_db(fresh_database_url: Callable[[], Awaitable[str]]) -> str:
    """A migrated database of its own (an empty global order)."""
    url = await fresh_database_url()
    await migrate(url, extra=FOLDERS)
    return url
