"""Event store fixtures: a migrated store on the session database, and fresh
stores (own database) for tests that need an empty global order."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from tablehall_eventstore import EventStore, migrate


@pytest.fixture(scope="session")
async def store(database_url: str) -> AsyncIterator[EventStore]:
    await migrate(database_url)
    s = await EventStore.connect(database_url, min_size=1, max_size=8)
    yield s
    await s.close()


@pytest.fixture
async def fresh_store(
    fresh_database_url: Callable[[], Awaitable[str]],
) -> AsyncIterator[Callable[[], Awaitable[EventStore]]]:
    made: list[EventStore] = []

    async def make() -> EventStore:
        url = await fresh_database_url()
        await migrate(url)
        s = await EventStore.connect(url, min_size=1, max_size=8)
        made.append(s)
        return s

    yield make
    for s in made:
        await s.close()


@pytest.fixture
def sid() -> Callable[[str], str]:
    """Unique stream ids, so tests sharing the session database never collide."""
    run = uuid.uuid4().hex[:8]

    def make(name: str = "s") -> str:
        return f"t{run}.{name}"

    return make
