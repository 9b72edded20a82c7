"""`tablehall up` with its web page on a free port, and the system's Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright
from support.oidckit import Issuer, issuer_running
from support.oidckit import settings as oidc_settings
from support.upkit import bots_up
from support.webkit import CHROMIUM_ARGS, Served, chromium_path, web_address

from tablehall_platform.infra import free_port

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
def served(
    database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory, issuer: Issuer
) -> Iterator[Served]:
    env = {"TABLEHALL_WEB_PORT": str(free_port()), **oidc_settings(issuer, [issuer.user_id("op-1")])}
    with bots_up(database_url, nats_url, tmp_path_factory.mktemp("web"), extra_env=env) as up:
        yield Served(f"127.0.0.1:{up.port}", web_address(up.stderr))


@pytest.fixture(scope="package")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()
