"""Fixtures: a fresh database per test (the timer follows every table in it),
an in-process match service, and a factory of in-process timers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from support.matchkit import Tokens, start_service, stop_service, token_maker
from support.timerkit import Env, RunningTimer, migrate_all, start_timer, stop_timer


@pytest.fixture(scope="session")
def tokens() -> Tokens:
    return token_maker()


@pytest.fixture
async def env(fresh_database_url: Callable[[], Awaitable[str]]) -> AsyncIterator[Env]:
    url = await migrate_all(await fresh_database_url())
    match = await start_service(url)
    timers: list[RunningTimer] = []

    async def make(**options: Any) -> RunningTimer:
        timer = await start_timer(url, match.address, **options)
        timers.append(timer)
        return timer

    async def stop(timer: RunningTimer) -> None:
        timers.remove(timer)
        await stop_timer(timer)

    yield Env(url, match, make, stop)
    for timer in list(timers):
        await stop_timer(timer)
    await stop_service(match)
