"""Bot tests run the match service on a database of their own, so the tables they start
(test game matches with bot seats) never reach the session database other suites share."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from support.matchkit import Running, start_service, stop_service

from tablehall_eventstore import migrate
from tablehall_match import service as match_service


@pytest.fixture
async def match(fresh_database_url: Callable[[], Awaitable[str]]) -> AsyncIterator[Running]:
    url = await fresh_database_url()
    await migrate(url, extra=[match_service.MIGRATIONS])
    running = await start_service(url, snapshot_every=5)
    yield running
    await stop_service(running)
