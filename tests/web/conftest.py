"""`tablehall up` with its web page on a free port, and the system's Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from support.upkit import bots_up
from support.webkit import CHROMIUM_ARGS, Served, chromium_path, web_address

from tablehall_platform.infra import free_port

CHROMIUM = chromium_path()
if CHROMIUM is None:
    pytest.skip(
        "no Chromium on this machine (/usr/bin/chromium): the browser tests need Debian's chromium package",
        allow_module_level=True,
    )

from playwright.async_api import Browser, async_playwright  # noqa: E402


@pytest.fixture(scope="package")
def served(database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with bots_up(
        database_url, nats_url, tmp_path_factory.mktemp("web"), extra_env={"TABLEHALL_WEB_PORT": str(free_port())}
    ) as up:
        yield Served(f"127.0.0.1:{up.port}", web_address(up.stderr))


@pytest.fixture(scope="package")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()
