from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from support.clientkit import Server, migrate_everything, start_server, stop_server


@pytest.fixture
async def server(
    fresh_database_url: Callable[[], Awaitable[str]], nats_url: str, tmp_path: Path
) -> AsyncIterator[Server]:
    """Every service but the bot, in process, on its own empty database."""
    url = await migrate_everything(await fresh_database_url())
    running = await start_server(url, nats_url, tmp_path)
    yield running
    await stop_server(running)
