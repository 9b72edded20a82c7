"""Пузиполия in the browser, against `tablehall up`: a table with bots made from the page, played
to its end by clicking, the page checked against GetTableView for the seat after every move; a
spectator's page following the same table live; a refused move showing the server's message."""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import Browser, Page
from support.webkit import (
    WAIT_MS,
    Served,
    add_bots,
    click_command,
    create_table,
    page_version,
    play_by_clicking,
    screenshots,
    sign_in,
)

from tablehall_sdk import Client, Command, Role, TableView

MAX_CLICKS = 60
DELAY = 3  # the table's spectator delay, in events
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

# what Пузиполия's page shows of the state
SHOWN = """() => {
  const seatOf = (el) => Number(el.dataset.testid.split('-')[1]);
  return {
    players: [...document.querySelectorAll('[data-testid^=player-]')].map((r) => (
      {seat: seatOf(r), money: Number(r.dataset.money), position: Number(r.dataset.position)})),
    squares: [...document.querySelectorAll('[data-testid^=sq-]')].map((g) => ({
      index: seatOf(g), owner: g.dataset.owner === '' ? null : Number(g.dataset.owner),
      buildings: Number(g.dataset.buildings), mortgaged: g.dataset.mortgaged === '1'})),
    tokens: Object.fromEntries([...document.querySelectorAll('[data-testid^=token-]')].map((t) => (
      [String(seatOf(t)), Number(t.dataset.position)]))),
  };
}"""


def expected(view: TableView) -> dict[str, Any]:
    state = view.state
    return {
        "players": [{"seat": p["seat"], "money": p["money"], "position": p["position"]} for p in state["players"]],
        "squares": [
            {
                "index": sq["index"],
                "owner": sq.get("owner"),
                "buildings": sq.get("buildings", 0),
                "mortgaged": bool(sq.get("mortgaged", False)),
            }
            for sq in state["squares"]
        ],
        "tokens": {str(p["seat"]): p["position"] for p in state["players"] if p["status"] not in ("out", "bankrupt")},
    }


def choose(commands: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in PREFERENCE:
        for command in commands:
            if command["kind"] == kind and (kind != "vote_end" or command["args"].get("yes")):
                return command
    allowed = [c for c in commands if c["kind"] not in NEVER]
    assert allowed, commands
    return allowed[0]


async def act(page: Page, shown: dict[str, Any], view: TableView) -> None:
    await click_command(page, choose(shown["commands"]))


async def test_puzzipolia_from_the_lobby_to_the_end_by_clicking(served: Served, browser: Browser) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    secret = await sign_in(page, served.web, "web-ann")
    await screenshots(page, "lobby")
    table_id = await create_table(
        page, "puzzipolia", 4, {"round_limit": "1", "decision_clock_s": "90", "spectator_delay": str(DELAY)}
    )
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
    assert await watcher.get_by_test_id("live").get_attribute("data-delay") == str(DELAY)

    table = f"tables/{table_id}"
    async with Client(served.grpc) as ann:
        await ann.sign_in_dev("web-ann", client_secret=secret)  # the page's person, through the SDK

        async def act_and_watch(page: Page, shown: dict[str, Any], view: TableView) -> None:
            await act(page, shown, view)
            seen = await page_version(watcher)
            now = await ann.view(table, Role.SEAT)  # read after the spectator's page: never older
            if not now.finished:  # the spectator trails the table by its delay, until the end
                assert seen <= now.version - DELAY, (seen, now.version)
            watched.append(seen)

        clicks, compared = await play_by_clicking(
            page, ann, table, SHOWN, expected, act_and_watch, MAX_CLICKS, lambda: screenshots(page, "puzzipolia-play")
        )
        final = await ann.view(table, Role.SEAT)
    assert final.finished and clicks >= 3 and compared > clicks
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
        for _ in range(10):  # the same person rolls from another client (again after a tie)
            await bea.submit(table, view.seat, command)
            checked = await bea.check(table, view.seat, command)
            if not checked.accepted:
                break
    assert not checked.accepted and checked.refusal is not None
    await stale.evaluate("button => button.click()")  # the button the page showed before that roll
    notice = page.get_by_test_id("notice")
    await notice.filter(has_text=checked.refusal.reason).wait_for(timeout=WAIT_MS)
    text = await notice.inner_text()
    assert checked.refusal.text("ru") in text and text.startswith("Отказ:")
    await screenshots(page, "puzzipolia-refusal")

    # a trade composed as two bundles: first one-sided (the server's rule refuses it), then a fair one;
    # the half-filled form stays as it was across the redraws in between
    composer = page.get_by_test_id("trade-1")
    await composer.wait_for(timeout=WAIT_MS)  # offered whatever the bot owns by now
    await composer.locator("summary").click()
    give, get = (composer.locator("fieldset").nth(i).locator("[data-field=money]") for i in (0, 1))
    await give.fill("20")
    await page.get_by_test_id("trade-send-1").click()
    await notice.filter(has_text="ONE_SIDED_TRADE").wait_for(timeout=WAIT_MS)
    assert (await notice.inner_text()).startswith("Отказ:")
    assert await give.input_value() == "20"
    await get.fill("10")
    await page.get_by_test_id("trade-send-1").click()
    offered = page.get_by_test_id("journal").locator("li").filter(has_text="предлагает")
    await offered.first.wait_for(timeout=WAIT_MS)
    assert "20" in await offered.first.inner_text() and "10" in await offered.first.inner_text()
    await screenshots(page, "puzzipolia-trade")
    await context.close()
    await asyncio.sleep(0)
