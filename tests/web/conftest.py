"""`tablehall up` with its web page on a free port, and the system's Chromium."""

from __future__ import annotations

import os
import signal
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
from support.upkit import base_env, drop_consumer, start_up
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
    tmp = tmp_path_factory.mktemp("web")
    consumer = f"bot-web-test-{uuid.uuid4().hex[:8]}"
    env = {
        **base_env(tmp / "data"),
        "TABLEHALL_DATABASE_URL": database_url,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_BOT_CONSUMER": consumer,
        "TABLEHALL_BOT_THINK_MS": "30",
        "TABLEHALL_WEB_PORT": str(free_port()),
    }
    up = start_up(env, tmp, free_port(), extra=("--no-demo",))
    try:
        yield Served(f"127.0.0.1:{up.port}", web_address(up.stderr))
    finally:
        os.killpg(up.proc.pid, signal.SIGINT)
        try:
            up.proc.wait(60)
        except subprocess.TimeoutExpired:
            up.proc.kill()
        import asyncio

        asyncio.run(drop_consumer(nats_url, consumer))


@pytest.fixture(scope="package")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()
