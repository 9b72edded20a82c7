"""The web page in a real browser: Debian's Chromium driven by Playwright, against `tablehall up`.

No browser is ever downloaded: the tests use the system's Chromium (`/usr/bin/chromium`, or
`TABLEHALL_CHROMIUM`) and skip, saying so in one line, on a machine without one.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from support.upkit import ROOT

if TYPE_CHECKING:
    from playwright.async_api import Page

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(os.environ.get("TABLEHALL_WEB_ARTIFACTS", ROOT / ".artifacts" / "web"))
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class Served:
    grpc: str  # host:port of the gRPC services
    web: str  # the page's address, as `tablehall up` printed it


WEB_LINE = re.compile(r"^Web page: (http://\S+)$", re.M)


def chromium_path() -> str | None:
    """The system's Chromium, if there is one."""
    given = os.environ.get("TABLEHALL_CHROMIUM")
    if given:
        return given if Path(given).exists() else None
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


def web_address(stderr: Path, timeout_s: float = 60.0) -> str:
    """The page's address from the line `tablehall up` prints."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = WEB_LINE.search(stderr.read_text())
        if found:
            return found.group(1)
        time.sleep(0.2)
    raise AssertionError(f"tablehall up printed no web address:\n{stderr.read_text()}")


# ---- driving the page (Playwright's async API) ------------------------------------------
async def sign_in(page: Page, web: str, name: str) -> str:
    """Sign in from the page; the client secret it keeps (an SDK client with it is the same person)."""
    await page.goto(web)
    await page.get_by_test_id("name").fill(name)
    await page.get_by_test_id("sign-in").click()
    await page.wait_for_selector("[data-testid=games] [data-game]")
    secret: str = await page.evaluate("localStorage.getItem('tablehall.secret')")
    return secret


async def create_table(page: Page, game: str, seats: int, options: dict[str, str]) -> str:
    """Fill in the game's new-table form (made from its options schema); the new table's id."""
    card = page.locator(f"[data-game={game}]")
    await card.locator("summary").click()
    await card.locator("select[name=seats]").select_option(str(seats))
    for key, value in options.items():
        field = card.locator(f"[data-option={key}]")
        if await field.evaluate("el => el.tagName") == "SELECT":
            await field.select_option(value)
        else:
            await field.fill(value)
    await card.locator("button[type=submit]").click()
    await page.wait_for_selector("[data-testid=waiting]")
    table_id: str = await page.evaluate("location.hash.split('/')[2]")
    return table_id


async def add_bots(page: Page, levels: list[str]) -> None:
    """Add a bot of each level from the waiting room, each seen seated before the next."""
    for count, level in enumerate(levels, start=1):
        await page.get_by_test_id("bot-level").select_option(level)
        await page.get_by_test_id("add-bot").click()
        await page.wait_for_function(
            "n => [...document.querySelectorAll('[data-testid=waiting] tr')]"
            ".filter(r => /\\((bot|бот)\\)/.test(r.textContent)).length >= n",
            arg=count,
        )


async def page_version(page: Page) -> int:
    value = await page.evaluate("document.getElementById('main').dataset.version || '-1'")
    return int(value)


async def screenshots(page: Page, name: str) -> None:
    """The page at phone and desktop width, kept as test artifacts (not committed)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        await page.set_viewport_size(size)
        await page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
    await page.set_viewport_size(DESKTOP)
