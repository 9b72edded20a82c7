"""`tablehall up` with its web page on a free port, and the system's Chromium."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from playwright.async_api import Browser, async_playwright
from support.oidckit import Issuer, issuer_running
from support.oidckit import settings as oidc_settings
from support.upkit import bots_up
from support.webkit import CHROMIUM_ARGS, Served, chromium_path, web_address

from tablehall_platform.infra import Servers, ensure_database, free_port, with_database

CHROMIUM = chromium_path()
HERE = Path(__file__).parent
NO_CHROMIUM = "no Chromium on this machine (/usr/bin/chromium): the browser tests need Debian's chromium package"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Without a browser, every test that needs one skips with one reason (no browser is downloaded)."""
    if CHROMIUM is None:
        for item in items:  # every item of the session: only this folder's
            if item.path.is_relative_to(HERE) and "browser" in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.skip(reason=NO_CHROMIUM))


@pytest.fixture(scope="package")
def issuer() -> Iterator[Issuer]:
    """An OpenID Connect issuer the server trusts beside the development sign-in."""
    with issuer_running() as running:
        yield running


@pytest.fixture(scope="package")
async def web_database(servers: Servers) -> AsyncIterator[str]:
    """A database of the web tests' own (as tests/bot's `tablehall up` has one of its own). On the
    session's database, which the rest of the suite fills with tables of its own making, the
    lobby's ListTables answered the page INTERNAL (2026-12-03, the whole suite in one process: the
    lobby never drew its tables and three tests failed; with this fixture all passed)."""
    name = f"tablehall_test_web_{uuid.uuid4().hex[:10]}"
    url = await ensure_database(servers.database_url, name)
    yield url
    conn = await asyncpg.connect(with_database(servers.database_url, "postgres"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture(scope="package")
def served(
    web_database: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory, issuer: Issuer
) -> Iterator[Served]:
    env = {"TABLEHALL_WEB_PORT": str(free_port()), **oidc_settings(issuer, [issuer.user_id("op-1")])}
    with bots_up(web_database, nats_url, tmp_path_factory.mktemp("web"), extra_env=env) as up:
        yield Served(f"127.0.0.1:{up.port}", web_address(up.stderr))


@pytest.fixture(scope="package")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()
