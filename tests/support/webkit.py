"""The web page in a real browser: Debian's Chromium driven by Playwright, against `tablehall up`.

No browser is ever downloaded: the tests use the system's Chromium (`/usr/bin/chromium`, or
`TABLEHALL_CHROMIUM`) and skip, saying so in one line, on a machine without one.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from support.upkit import ROOT
from tablehall_sdk import Client, Role, TableView

if TYPE_CHECKING:
    from playwright.async_api import Page, ViewportSize

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
PHONE: ViewportSize = {"width": 360, "height": 780}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


@dataclass
class Served:
    grpc: str  # host:port of the gRPC services
    web: str  # the page's address, as `tablehall up` printed it


WAIT_MS = 120_000
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


async def create_table(page: Page, game: str, seats: int, options: dict[str, str], pin: str = "") -> str:
    """Fill in the game's new-table form (made from its options schema; with `pin`, a private
    table); the new table's id."""
    card = page.locator(f"[data-game={game}]")
    await card.locator("summary").click()
    await card.locator("select[name=seats]").select_option(str(seats))
    if pin:
        await card.locator("input[name=private]").check()
        await card.locator("input[name=pin]").fill(pin)
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
    os.makedirs(ARTIFACTS, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        await page.set_viewport_size(size)
        await page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
    await page.set_viewport_size(DESKTOP)


# ---- the page against GetTableView ------------------------------------------------------
# what every game's page shows in common: its version, status line, end, one-click moves
COMMON_SHOWN = """() => ({
  version: Number(document.getElementById('main').dataset.version || -1),
  status: document.querySelector('[data-testid=status]').textContent,
  finished: !document.querySelector('[data-testid=outcome]').hidden,
  clock: document.querySelector('[data-testid=clock]').textContent,
  commands: [...document.querySelectorAll('[data-testid=moves] button[data-command]')].map(
    (b) => JSON.parse(b.dataset.command)),
})"""
YOUR_MOVE = "Your move"


def buttons_of(view: TableView, board_kinds: Collection[str] = ()) -> list[dict[str, Any]]:
    """The one-click moves the page must offer for `view`: every template without parameters and
    every value of a single choice (a rule's parameter without examples needs a composer), but
    for the kinds the game's board makes by clicking (`board_kinds`)."""
    out: list[dict[str, Any]] = []
    for move in view.moves:
        if move.command.kind in board_kinds:
            continue
        params = move.parameters
        if any(p.step == 0 and not p.values for p in params):
            continue
        if not params:
            out.append({"kind": move.command.kind, "args": dict(move.command.args)})
        elif len(params) == 1 and params[0].step == 0 and len(params[0].values) <= 16:
            for value in params[0].values:
                out.append({"kind": move.command.kind, "args": {**move.command.args, params[0].field: value}})
    return out


def name_of(view: TableView, seat: int) -> str:
    """A seat's name as the page writes it (the view's players, else its names, else #seat)."""
    players = view.state.get("players")
    if isinstance(players, list):
        for player in players:
            if isinstance(player, dict) and player.get("seat") == seat and player.get("name"):
                return str(player["name"])
    names = view.state.get("names")
    if isinstance(names, list) and seat < len(names) and names[seat]:
        return str(names[seat])
    return f"#{seat}"


def as_page_writes_it(command: Mapping[str, Any]) -> str:
    return json.dumps(command, separators=(",", ":"), ensure_ascii=False)


def assert_common(shown: Mapping[str, Any], view: TableView, board_kinds: Collection[str] = ()) -> None:
    assert shown["version"] == view.version
    key = functools.partial(json.dumps, sort_keys=True)
    offered = sorted(map(key, buttons_of(view, board_kinds)))
    assert sorted(map(key, shown["commands"])) == offered, (shown, offered, view.decisions)
    mine = any(d.seat == view.seat for d in view.decisions)
    assert (YOUR_MOVE in shown["status"]) == (mine and not view.finished)
    assert shown["finished"] == view.finished
    # the earliest open clock, by whose it is, counting down (none once the game is over)
    clocks = sorted((d for d in view.decisions if d.deadline_ms > 0), key=lambda d: d.deadline_ms)
    if view.finished or not clocks:
        assert shown["clock"] == ""
    else:
        assert re.fullmatch(r".+: \d+ s left", shown["clock"]), shown["clock"]
        assert shown["clock"].startswith(name_of(view, clocks[0].seat) + ":"), (shown["clock"], clocks[0])


async def agree_with_the_seat_view(
    page: Page,
    client: Client,
    table: str,
    game_shown: str,
    expect: Callable[[TableView], dict[str, Any]],
    board_kinds: Collection[str] = (),
) -> tuple[dict[str, Any], TableView]:
    """The page and GetTableView at one version (fetched again while the table moves on): the
    common parts and `game_shown` (a JS function of the page) equal to `expect(view)`."""
    for _ in range(50):
        view = await client.view(table, Role.SEAT)
        await page.wait_for_function(
            "v => Number(document.getElementById('main').dataset.version || -1) >= v", arg=view.version, timeout=WAIT_MS
        )
        shown, game = await page.evaluate(f"() => [({COMMON_SHOWN})(), ({game_shown})()]")
        if shown["version"] == view.version:
            now = await page.evaluate(f"({COMMON_SHOWN})()")
            if now["version"] != view.version:
                continue  # a newer view arrived between the two reads
            # the table may have moved on since the read (the page with it): look again
            if (
                not agrees(shown, game, view, expect, board_kinds)
                and (await client.view(table, Role.SEAT)).version != view.version
            ):
                continue
            assert_common(shown, view, board_kinds)
            assert game == expect(view)
            return shown, view
    raise AssertionError("the page never showed the version GetTableView answered")


def agrees(
    shown: Mapping[str, Any],
    game: Any,
    view: TableView,
    expect: Callable[[TableView], dict[str, Any]],
    board_kinds: Collection[str],
) -> bool:
    try:
        assert_common(shown, view, board_kinds)
    except AssertionError:
        return False
    return bool(game == expect(view))


async def play_by_clicking(
    page: Page,
    client: Client,
    table: str,
    game_shown: str,
    expect: Callable[[TableView], dict[str, Any]],
    act: Callable[[Page, dict[str, Any], TableView], Awaitable[None]],
    max_clicks: int,
    on_first: Callable[[], Awaitable[None]] | None = None,
    board_kinds: Collection[str] = (),
    enough: Callable[[TableView], bool] = lambda view: False,
) -> tuple[int, int]:
    """Play the seat by `act` (which clicks one move) until the game ends or `enough(view)` (a
    round limit), checking the page against GetTableView before every move and after the last;
    (clicks, versions compared)."""
    clicks = compared = 0
    while True:
        await page.wait_for_function(
            "m => !document.querySelector('[data-testid=outcome]').hidden"
            " || document.querySelector('[data-testid=status]').textContent.includes(m)",
            arg=YOUR_MOVE,
            timeout=WAIT_MS,
        )
        shown, view = await agree_with_the_seat_view(page, client, table, game_shown, expect, board_kinds)
        compared += 1
        if compared == 1 and on_first is not None:
            await on_first()
        if view.finished or enough(view):
            return clicks, compared
        if YOUR_MOVE not in shown["status"]:  # the others' turn: wait for the table to move
            await page.wait_for_function(
                "v => Number(document.getElementById('main').dataset.version) > v", arg=view.version, timeout=WAIT_MS
            )
            continue
        assert clicks < max_clicks, f"the game did not end within {max_clicks} clicks"
        await act(page, shown, view)
        clicks += 1
        await page.wait_for_function(
            "v => Number(document.getElementById('main').dataset.version) > v"
            " || document.querySelector('[data-testid=notice]').textContent",
            arg=view.version,
            timeout=WAIT_MS,
        )
        notice = await page.get_by_test_id("notice").inner_text()
        assert not notice, notice  # a move the page offered for the version on screen


async def click_command(page: Page, command: Mapping[str, Any]) -> None:
    await page.locator(f"[data-testid=moves] button[data-command='{as_page_writes_it(command)}']").first.click()
