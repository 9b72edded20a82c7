"""Fixtures: the lobby and the match service in process, with the test game."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from support.lobbykit import Lobby, start_lobby, stop_lobby
from support.matchkit import Tokens, token_maker

from tablehall_eventstore import migrate
from tablehall_lobby import service as lobby_service
from tablehall_match import service as match_service


@pytest.fixture(scope="session")
def tokens() -> Tokens:
    return token_maker()


@pytest.fixture(scope="session")
async def lobby_db(database_url: str) -> str:
    await migrate(database_url, extra=[match_service.MIGRATIONS, lobby_service.MIGRATIONS])
    return database_url


@pytest.fixture
async def lobby(lobby_db: str) -> AsyncIterator[Lobby]:
    running = await start_lobby(lobby_db)
    yield running
    await stop_lobby(running)
