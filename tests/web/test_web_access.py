"""Getting in and getting a seat back, in the browser against `tablehall up`: OIDC sign-in
through an issuer the server trusts (beside the development sign-in the page also offers); a
private table's PIN to sit down and to watch; presence held while a seat's page is open, and
the seat taken back from the bot the host handed it to; the auditor's view of a finished table,
offered to operators only."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import grpc
from playwright.async_api import Browser, BrowserContext, Page
from support.oidckit import Issuer
from support.webkit import WAIT_MS, Served, create_table, page_version, sign_in

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall_platform.auth import DevProvider
from tablehall_sdk import Client, Command, Role, new_request_id

PIN = "4321"


async def fresh_page(browser: Browser) -> tuple[BrowserContext, Page, list[str]]:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{error} {error.stack}"))
    return context, page, errors


async def test_oidc_sign_in_as_the_lobby_offers_it(served: Served, browser: Browser, issuer: Issuer) -> None:
    context, page, errors = await fresh_page(browser)
    await page.goto(served.web)
    oidc = page.get_by_test_id("sign-in-oidc")
    await oidc.wait_for(timeout=WAIT_MS)
    assert "Test ID" in await oidc.inner_text() and await page.get_by_test_id("name").count() == 1  # dev beside it

    # a forged answer (no attempt of this browser's): refused with its reason, nobody signed in
    await page.goto(f"{served.web}auth/oidc/callback?code=forged&state=forged")
    await page.get_by_test_id("notice").filter(has_text="STATE_MISMATCH").wait_for(timeout=WAIT_MS)
    assert not [c for c in await context.cookies() if c["name"] == "tablehall_token"]

    issuer.user = ("u-7", "Ирина")
    issued = issuer.tokens_issued
    await page.get_by_test_id("sign-in-oidc").click()  # to the issuer and back with a code
    await page.wait_for_selector("[data-testid=games] [data-game]", timeout=WAIT_MS)
    me = await page.evaluate("fetch('/api/me').then((r) => r.json())")
    assert me == {"user_id": issuer.user_id("u-7"), "name": "Ирина", "operator": False}
    assert issuer.tokens_issued == issued + 1
    assert "Ирина" in await page.locator("#who").inner_text()
    [cookie] = [c for c in await context.cookies() if c["name"] == "tablehall_token"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    async with Client(served.grpc, cookie["value"]) as same:  # the issuer's token, as a gRPC client presents it
        assert (await same.principal()).user_id == issuer.user_id("u-7")
    await page.locator("#who button").click()  # sign out
    await page.get_by_test_id("sign-in-oidc").wait_for(timeout=WAIT_MS)
    assert not errors
    await context.close()


async def test_a_private_table_takes_its_pin_to_sit_down_and_to_watch(served: Served, browser: Browser) -> None:
    host_context, host, errors = await fresh_page(browser)
    await sign_in(host, served.web, "web-pia")
    table_id = await create_table(host, "dragons", 2, {}, pin=PIN)

    guest_context, guest, guest_errors = await fresh_page(browser)
    await sign_in(guest, served.web, "web-ben")
    share = await host.get_by_test_id("share-address").input_value()  # the host passes on the address
    assert table_id in share
    # not listed to others: the address, then the PIN (a wrong one refused with its reason)
    assert await guest.locator(f"[data-table={table_id}]").count() == 0
    await guest.get_by_test_id("table-address").fill(share)
    await guest.get_by_test_id("open-address").click()
    await guest.get_by_test_id(f"pin-{table_id}").fill("1111")
    await guest.get_by_test_id("pin-join").click()
    await guest.get_by_test_id("notice").filter(has_text="WRONG_PIN").wait_for(timeout=WAIT_MS)
    await guest.get_by_test_id(f"pin-{table_id}").fill(PIN)
    await guest.get_by_test_id("pin-join").click()
    await guest.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=waiting] tr')].some((r) => /web-ben \\((you|вы)\\)/.test(r.textContent))",
        timeout=WAIT_MS,
    )
    await host.wait_for_function(  # the host's waiting room shows Ben seated, then the host starts
        "() => [...document.querySelectorAll('[data-testid=waiting] tr')].some((r) => /web-ben/.test(r.textContent))",
        timeout=WAIT_MS,
    )
    await host.get_by_test_id("start").click()
    await host.wait_for_selector("[data-testid=dg-board]", timeout=WAIT_MS)

    # a third person opens the table by its address: the PIN, then the table as a spectator
    watcher_context, watcher, watcher_errors = await fresh_page(browser)
    await sign_in(watcher, served.web, "web-cleo")
    await watcher.goto(f"{served.web}#/table/{table_id}")
    await watcher.get_by_test_id(f"pin-{table_id}").fill(PIN)
    await watcher.get_by_test_id("pin-watch").click()
    await watcher.wait_for_selector("[data-testid=dg-board]", timeout=WAIT_MS)
    assert "#/watch/" in watcher.url
    assert "spectator" in await watcher.get_by_test_id("title").inner_text()
    assert await watcher.locator("[data-testid=dg-board] [data-target]").count() == 0
    assert not errors and not guest_errors and not watcher_errors
    for context in (host_context, guest_context, watcher_context):
        await context.close()


async def test_presence_while_the_page_is_open_and_the_seat_taken_back(served: Served, browser: Browser) -> None:
    context, page, errors = await fresh_page(browser)
    secret = await sign_in(page, served.web, "web-dana")
    table_id = await create_table(page, "dragons", 2, {"decision_clock_s": "120"})
    table = f"tables/{table_id}"
    # the other seat is a person who never moves: the bot that plays Dana's seat for a while
    # cannot play the game to its end (two bots did, before the button could be clicked)
    async with Client(served.grpc) as fay:
        await fay.sign_in_dev("web-fay")
        await fay.join(table, seat=1)
    await page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=waiting] tr')].some((r) => /web-fay/.test(r.textContent))",
        timeout=WAIT_MS,
    )
    await page.get_by_test_id("start").click()
    await page.wait_for_selector("[data-testid=dg-board]", timeout=WAIT_MS)
    async with Client(served.grpc) as dana:
        await dana.sign_in_dev("web-dana", client_secret=secret)
        assert await seat_present(dana, table, True)  # the page holds the seat's presence
        await page.goto(served.web)  # the table page closed: the seat is absent
        await page.wait_for_selector("[data-testid=games] [data-game]", timeout=WAIT_MS)
        assert await seat_present(dana, table, False)
        assert dana.token is not None
        async with grpc.aio.insecure_channel(served.grpc) as channel:  # the host hands the absent seat to a bot
            await lobby_pb2_grpc.LobbyServiceStub(channel).HandSeatToBot(
                lobby_pb2.HandSeatToBotRequest(table=table, seat=0, request_id=new_request_id()),
                metadata=[("authorization", f"Bearer {dana.token}")],
            )
        assert (await dana.get_table(table)).seats[0].played_by_bot
        await page.goto(f"{served.web}#/table/{table_id}")
        banner = page.get_by_test_id("afk")
        await page.get_by_test_id("take-back").wait_for(timeout=WAIT_MS)
        # a person reads the table first: the board drawn from a view, then the banner's button
        await page.wait_for_function(
            "() => Number(document.getElementById('main').dataset.version) > 0", timeout=WAIT_MS
        )
        assert "bot" in (await banner.inner_text()).lower()
        await page.get_by_test_id("take-back").click(timeout=WAIT_MS)
        await page.wait_for_function("() => document.querySelector('[data-testid=afk]').hidden", timeout=WAIT_MS)
        assert await seat_present(dana, table, True)  # the table page holds presence again
        assert not (await dana.get_table(table)).seats[0].played_by_bot
        assert await page_version(page) > 0
    assert not errors
    await context.close()


async def seat_present(client: Client, table: str, present: bool, tries: int = 600) -> bool:
    """Whether the lobby comes to say seat 0 is (or is not) present (asked for up to two minutes:
    a bound for a busy machine, not a speed claim)."""
    for _ in range(tries):
        if (await client.get_table(table)).seats[0].present == present:
            return True
        await asyncio.sleep(0.2)
    return False


async def test_the_auditor_view_is_offered_to_operators(served: Served, browser: Browser) -> None:
    context, page, errors = await fresh_page(browser)
    secret = await sign_in(page, served.web, "web-erin")
    async with Client(served.grpc) as erin:  # a table that ends at once: the player leaves a game of two
        await erin.sign_in_dev("web-erin", client_secret=secret)
        made = await erin.create_table("puzzipolia", {}, seat_count=2)
        await erin.add_bot(made.name)
        await erin.start(made.name)
        await erin.submit(made.name, 0, Command("puzzipolia", "leave", {}))
        assert (await erin.view(made.name, Role.SEAT)).finished
    table_id = made.table_id
    await page.goto(f"{served.web}#/audit/{table_id}")
    await page.wait_for_selector("[data-testid=verify][data-verified]", timeout=WAIT_MS)
    assert await page.get_by_test_id("audit-role").count() == 0  # a player is no operator

    operator = DevProvider.from_secrets_dir(Path(os.environ["TABLEHALL_SECRETS_DIR"])).issue(
        "web-ops", "ops", roles=("player", "operator")
    )
    ops_context, ops, ops_errors = await fresh_page(browser)
    host = served.web.split("//")[1].split(":")[0]
    await ops_context.add_cookies(
        [
            {
                "name": "tablehall_token",
                "value": operator,
                "domain": host,
                "path": "/",
                "httpOnly": True,
                "sameSite": "Strict",
            }
        ]
    )
    await ops.goto(f"{served.web}#/audit/{table_id}")
    await ops.get_by_test_id("as-auditor").click()
    await ops.wait_for_function("() => document.getElementById('main').dataset.role === 'auditor'", timeout=WAIT_MS)
    await ops.wait_for_selector("[data-testid=audit-slider]", timeout=WAIT_MS)
    async with Client(served.grpc, operator) as ops_client:
        history = [u async for u in ops_client.watch(f"tables/{table_id}", from_version=1, role=Role.AUDITOR)]
    assert await ops.get_by_test_id("audit-slider").get_attribute("max") == str(len(history) - 1)
    assert await ops.get_by_test_id("as-auditor").get_attribute("aria-checked") == "true"
    async with ops.expect_download() as downloading:  # an operator's export: the file the server exports
        await ops.get_by_test_id("export").click()
    download = await downloading.value
    assert download.suggested_filename == f"{table_id}.tablehall.json"
    saved = await download.path()
    async with Client(served.grpc, operator) as ops_client:
        assert await asyncio.to_thread(Path(saved).read_bytes) == await ops_client.export(f"tables/{table_id}")
    assert not errors and not ops_errors
    await context.close()
    await ops_context.close()
