"""Пузиполия in the browser, against `tablehall up`: a table with bots made from the page, played
to its end by clicking, the page checked against GetTableView for the seat after every move; a
spectator's page following the same table live; a refused move showing the server's message."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import Browser, Page
from support.webkit import Served, add_bots, create_table, page_version, screenshots, sign_in

from tablehall_sdk import Client, Command, Role, TableView

WAIT_MS = 120_000
MAX_CLICKS = 60
# what a person at the table would press first, in this order; never leave or give up
PREFERENCE = (
    "roll_for_order",
    "roll",
    "buy",
    "pay_debt",
    "collect_debt",
    "pay_jail_fine",
    "choose_67",
    "pass_auction",
    "vote_end",
    "end_turn",
    "decline_buy",
    "decline_trade",
)
NEVER = {"leave", "surrender", "propose_end"}

SHOWN = """() => {
  const main = document.getElementById('main');
  const seatOf = (el) => Number(el.dataset.testid.split('-')[1]);
  return {
    version: Number(main.dataset.version || -1),
    status: document.querySelector('[data-testid=status]').textContent,
    finished: !document.querySelector('[data-testid=outcome]').hidden,
    players: [...document.querySelectorAll('[data-testid^=player-]')].map((r) => (
      {seat: seatOf(r), money: Number(r.dataset.money), position: Number(r.dataset.position)})),
    squares: [...document.querySelectorAll('[data-testid^=sq-]')].map((g) => ({
      index: seatOf(g), owner: g.dataset.owner === '' ? null : Number(g.dataset.owner),
      buildings: Number(g.dataset.buildings), mortgaged: g.dataset.mortgaged === '1'})),
    tokens: [...document.querySelectorAll('[data-testid^=token-]')].map((t) => (
      {seat: seatOf(t), position: Number(t.dataset.position)})),
    commands: [...document.querySelectorAll('[data-testid=moves] button[data-command]')].map(
      (b) => JSON.parse(b.dataset.command)),
  };
}"""


def buttons_of(view: TableView) -> list[dict[str, Any]]:
    """The one-click moves the page must offer for `view`: every template without parameters and
    every value of a single choice (a rule's parameter without examples needs a composer)."""
    out: list[dict[str, Any]] = []
    for move in view.moves:
        params = move.parameters
        if any(p.step == 0 and not p.values for p in params):
            continue
        if not params:
            out.append({"kind": move.command.kind, "args": dict(move.command.args)})
        elif len(params) == 1 and params[0].step == 0 and len(params[0].values) <= 16:
            for value in params[0].values:
                out.append({"kind": move.command.kind, "args": {**move.command.args, params[0].field: value}})
    return out


def key(command: dict[str, Any]) -> str:
    return json.dumps(command, sort_keys=True)


def assert_page_matches(shown: dict[str, Any], view: TableView) -> None:
    state = view.state
    assert shown["version"] == view.version
    assert shown["players"] == [
        {"seat": p["seat"], "money": p["money"], "position": p["position"]} for p in state["players"]
    ]
    assert shown["squares"] == [
        {
            "index": sq["index"],
            "owner": sq.get("owner"),
            "buildings": sq.get("buildings", 0),
            "mortgaged": bool(sq.get("mortgaged", False)),
        }
        for sq in state["squares"]
    ]
    alive = {p["seat"]: p["position"] for p in state["players"] if p["status"] not in ("out", "bankrupt")}
    assert {t["seat"]: t["position"] for t in shown["tokens"]} == alive
    assert sorted(map(key, shown["commands"])) == sorted(map(key, buttons_of(view)))
    mine = any(d.seat == view.seat for d in view.decisions)
    assert ("Your move" in shown["status"]) == (mine and not view.finished)


async def agree_with_the_seat_view(page: Page, client: Client, table: str) -> dict[str, Any]:
    """The page and GetTableView at one version (fetched again while the table moves on)."""
    for _ in range(50):
        view = await client.view(table, Role.SEAT)
        await page.wait_for_function(
            "v => Number(document.getElementById('main').dataset.version || -1) >= v", arg=view.version, timeout=WAIT_MS
        )
        shown: dict[str, Any] = await page.evaluate(SHOWN)
        if shown["version"] == view.version:
            assert_page_matches(shown, view)
            return shown
    raise AssertionError("the page never showed the version GetTableView answered")


def choose(commands: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in PREFERENCE:
        for command in commands:
            if command["kind"] == kind and (kind != "vote_end" or command["args"].get("yes")):
                return command
    allowed = [c for c in commands if c["kind"] not in NEVER]
    assert allowed, commands
    return allowed[0]


async def test_puzzipolia_from_the_lobby_to_the_end_by_clicking(served: Served, browser: Browser) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    secret = await sign_in(page, served.web, "web-ann")
    table_id = await create_table(page, "puzzipolia", 4, {"round_limit": "1", "decision_clock_s": "90"})
    await add_bots(page, ["easy", "strong", "easy"])
    await screenshots(page, "lobby-waiting-room")
    await page.get_by_test_id("start").click()
    await page.wait_for_selector("[data-testid=pz-board]", timeout=WAIT_MS)

    watcher_context = await browser.new_context()
    watcher = await watcher_context.new_page()
    await sign_in(watcher, served.web, "web-watcher")
    await watcher.goto(f"{served.web}#/watch/{table_id}")
    await watcher.wait_for_selector("[data-testid=pz-board]", timeout=WAIT_MS)
    watched = [await page_version(watcher)]

    table = f"tables/{table_id}"
    async with Client(served.grpc) as ann:
        await ann.sign_in_dev("web-ann", client_secret=secret)  # the page's person, through the SDK
        clicks, compared = 0, 0
        while True:
            await page.wait_for_function(
                "() => !document.querySelector('[data-testid=outcome]').hidden"
                " || document.querySelector('[data-testid=status]').textContent.includes('Your move')",
                timeout=WAIT_MS,
            )
            shown = await agree_with_the_seat_view(page, ann, table)
            compared += 1
            if compared == 1:
                await screenshots(page, "puzzipolia-play")
            if shown["finished"]:
                break
            if "Your move" not in shown["status"]:  # the others' turn: wait for the table to move
                await page.wait_for_function(
                    "v => Number(document.getElementById('main').dataset.version) > v",
                    arg=shown["version"],
                    timeout=WAIT_MS,
                )
                continue
            assert clicks < MAX_CLICKS, "the game did not end within the clicks of one round"
            command = choose(shown["commands"])
            before = shown["version"]
            as_page_writes_it = json.dumps(command, separators=(",", ":"), ensure_ascii=False)
            await page.locator(f"[data-testid=moves] button[data-command='{as_page_writes_it}']").first.click()
            clicks += 1
            await page.wait_for_function(
                "v => Number(document.getElementById('main').dataset.version) > v"
                " || document.querySelector('[data-testid=notice]').textContent",
                arg=before,
                timeout=WAIT_MS,
            )
            watched.append(await page_version(watcher))
        final = await ann.view(table, Role.SEAT)
    assert final.finished and clicks >= 3
    await screenshots(page, "puzzipolia-over")

    # the spectator followed the table live, to the same end, with no move of its own
    await watcher.wait_for_function(
        "v => Number(document.getElementById('main').dataset.version) >= v", arg=final.version, timeout=WAIT_MS
    )
    assert watched == sorted(watched) and watched[-1] > watched[0]
    assert await watcher.locator("[data-testid=moves] button").count() == 0
    assert await watcher.get_by_test_id("outcome").is_visible()
    assert "spectator" in await watcher.get_by_test_id("title").inner_text()
    await screenshots(watcher, "puzzipolia-spectator")
    assert not errors
    await context.close()
    await watcher_context.close()


async def test_a_refused_move_shows_the_servers_message_in_the_players_language(
    served: Served, browser: Browser
) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    secret = await sign_in(page, served.web, "web-bea")
    await page.get_by_test_id("lang").click()  # to Russian
    await page.wait_for_selector("html[lang=ru]")
    table_id = await create_table(page, "puzzipolia", 2, {"round_limit": "1", "decision_clock_s": "90"})
    await add_bots(page, ["easy"])
    await page.get_by_test_id("start").click()
    roll = page.locator("[data-testid=moves] button[data-command*=roll_for_order]")
    await roll.wait_for(timeout=WAIT_MS)
    stale = await roll.element_handle()
    assert stale is not None
    table = f"tables/{table_id}"
    async with Client(served.grpc) as bea:
        await bea.sign_in_dev("web-bea", client_secret=secret)
        view = await bea.view(table, Role.SEAT)
        assert view.seat is not None
        command = Command("puzzipolia", "roll_for_order")
        await bea.submit(table, view.seat, command)  # the same person rolls from another client
        checked = await bea.check(table, view.seat, command)
    assert not checked.accepted and checked.refusal is not None
    await stale.evaluate("button => button.click()")  # the button the page showed before that roll
    notice = page.get_by_test_id("notice")
    await notice.filter(has_text=checked.refusal.reason).wait_for(timeout=WAIT_MS)
    text = await notice.inner_text()
    assert checked.refusal.text("ru") in text and text.startswith("Отказ:")
    await screenshots(page, "puzzipolia-refusal")
    await context.close()
    await asyncio.sleep(0)
