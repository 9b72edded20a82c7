"""Драконы and Гомункул in the browser: their boards are not drawn by the web client yet, but
both are played from the page's generic parts (every legal move as a button or a form made from
its descriptor), each move checked against GetTableView for the seat; and the web front's own
refusals of malformed requests."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from playwright.async_api import Browser, Page
from support.webkit import (
    WAIT_MS,
    YOUR_MOVE,
    Served,
    add_bots,
    agree_with_the_seat_view,
    click_command,
    create_table,
    screenshots,
    sign_in,
)

from tablehall_sdk import Client, TableView

MOVES = 6
NEVER = {"surrender", "leave", "propose_end"}

GENERIC_SHOWN = """() => ({
  fallback: document.querySelector('[data-testid=board] details') !== null,
  players: [...document.querySelectorAll('[data-testid^=player-]')].map((r) => Number(r.dataset.testid.split('-')[1])),
})"""


def generic_expected(view: TableView) -> dict[str, Any]:
    players = view.state.get("players")
    listed = [p["seat"] for p in players] if isinstance(players, list) else []
    return {"fallback": True, "players": listed}


@pytest.mark.parametrize(("game", "options"), [("dragons", {}), ("homunculus", {"clock_ms": "90000"})])
async def test_a_game_without_a_drawn_board_is_played_from_its_move_descriptors(
    served: Served, browser: Browser, game: str, options: dict[str, str]
) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    name = f"web-{game}"
    secret = await sign_in(page, served.web, name)
    table_id = await create_table(page, game, 2, options)
    await add_bots(page, ["easy"])
    await page.get_by_test_id("start").click()
    table = f"tables/{table_id}"
    async with Client(served.grpc) as person:
        await person.sign_in_dev(name, client_secret=secret)
        for move in range(MOVES):
            await page.wait_for_function(
                "m => document.querySelector('[data-testid=status]')?.textContent.includes(m)",
                arg=YOUR_MOVE,
                timeout=WAIT_MS,
            )
            shown, view = await agree_with_the_seat_view(page, person, table, GENERIC_SHOWN, generic_expected)
            if YOUR_MOVE not in shown["status"]:
                continue
            if move == 0:
                await screenshots(page, f"{game}-play")
            await play_one(page, shown, view)
            await page.wait_for_function(
                "v => Number(document.getElementById('main').dataset.version) > v"
                " || document.querySelector('[data-testid=notice]').textContent",
                arg=view.version,
                timeout=WAIT_MS,
            )
            assert not await page.get_by_test_id("notice").inner_text()
    assert not errors
    await context.close()


async def play_one(page: Page, shown: dict[str, Any], view: TableView) -> None:
    """A button if there is one to press, else the first form (a range: its lowest value)."""
    buttons = [c for c in shown["commands"] if c["kind"] not in NEVER]
    if buttons:
        await click_command(page, buttons[0])
        return
    forms = [m for m in view.moves if m.command.kind not in NEVER and m.parameters]
    assert forms, view.moves
    await page.get_by_test_id(f"go-{forms[0].command.kind}").first.click()


async def test_the_web_front_refuses_malformed_requests_with_a_reason(served: Served) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # an IP address
        async with http.post(f"{served.web}api/sign-in", data=b"{not json") as reply:
            body = await reply.json()
            assert reply.status == 400 and body["error"]["reason"] == "BAD_WEB_REQUEST"
            assert body["error"]["messages"]["ru"] and body["error"]["messages"]["en"]
        async with http.post(f"{served.web}api/sign-in", json={"name": 7, "secret": "x" * 20}) as reply:
            assert reply.status == 400 and (await reply.json())["error"]["reason"] == "BAD_WEB_REQUEST"
        async with http.get(f"{served.web}api/games") as reply:  # no token: the server's own refusal
            assert reply.status == 401 and (await reply.json())["error"]["code"] == "UNAUTHENTICATED"
        async with http.post(f"{served.web}api/sign-in", json={"name": "web-eve", "secret": "eve-secret-0123456789"}):
            pass
        async with http.post(f"{served.web}api/tables", json={"game": "no-such-game"}) as reply:
            body = await reply.json()
            assert reply.status == 400 and body["error"]["code"] == "INVALID_ARGUMENT", body
        async with http.get(f"{served.web}api/tables/t0000000000000000/view?role=king") as reply:
            assert reply.status == 400 and (await reply.json())["error"]["reason"] == "BAD_WEB_REQUEST"
