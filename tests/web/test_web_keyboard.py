"""The page by keyboard alone, against `tablehall up`: sign in, open a game's new-table form,
make a table, add a bot, start, make a move, chat, and switch the language, every control reached by
Tab (or Shift+Tab) and worked by Enter or typing, never by a click."""

from __future__ import annotations

from playwright.async_api import Browser, Page
from support.webkit import WAIT_MS, Served, page_version, screenshots

from tablehall_sdk import Client, Role

TAB_LIMIT = 400  # presses to reach a control: more than the page has controls


async def tab_to(page: Page, selector: str, key: str = "Tab") -> None:
    """Press `key` until the focused element matches `selector` (it must be in the tab order)."""
    for _ in range(TAB_LIMIT):
        await page.keyboard.press(key)
        if await page.evaluate("s => Boolean(document.activeElement && document.activeElement.matches(s))", selector):
            return
    raise AssertionError(f"{selector} is not reached by {key}")


async def test_sign_in_make_a_table_and_move_by_keyboard_alone(served: Served, browser: Browser) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{error} {error.stack}"))
    await page.goto(served.web)
    await page.get_by_test_id("name").wait_for(timeout=WAIT_MS)
    # the first way in has the focus on arrival (here the issuer's button): the name field is next
    assert await page.evaluate("document.activeElement.dataset.testid") == "sign-in-oidc"
    await tab_to(page, "[data-testid=name]")
    await page.keyboard.type("web-kim")
    await page.keyboard.press("Enter")
    await page.wait_for_selector("[data-testid=games] [data-game]", timeout=WAIT_MS)
    secret: str = await page.evaluate("localStorage.getItem('tablehall.secret')")

    await tab_to(page, "[data-game=puzzipolia] summary")
    await page.keyboard.press("Enter")  # the new-table form opens
    await tab_to(page, "[data-game=puzzipolia] select[name=seats]")
    await page.keyboard.type("2")  # a closed select takes the option typed
    assert await page.locator("[data-game=puzzipolia] select[name=seats]").input_value() == "2"
    await tab_to(page, "[data-game=puzzipolia] [data-option=round_limit]")
    await page.keyboard.type("1")
    await screenshots(page, "lobby-new-table")
    await tab_to(page, "[data-game=puzzipolia] button[type=submit]")
    await page.keyboard.press("Enter")
    await page.wait_for_selector("[data-testid=waiting]", timeout=WAIT_MS)
    table_id: str = await page.evaluate("location.hash.split('/')[2]")

    await tab_to(page, "[data-testid=add-bot]")
    await page.keyboard.press("Enter")
    await page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=waiting] tr')].some((r) => /\\(bot\\)/.test(r.textContent))",
        timeout=WAIT_MS,
    )
    await tab_to(page, "[data-testid=start]")
    await page.keyboard.press("Enter")
    roll = "[data-testid=moves] button[data-command*=roll_for_order]"
    await page.wait_for_selector(roll, timeout=WAIT_MS)

    table = f"tables/{table_id}"
    async with Client(served.grpc) as kim:
        await kim.sign_in_dev("web-kim", client_secret=secret)
        before = await kim.view(table, Role.SEAT)
        assert before.seat == 0 and any(c.kind == "roll_for_order" for c in before.legal)
        await tab_to(page, roll)
        await page.keyboard.press("Enter")  # the move, made by keyboard
        await page.wait_for_function(
            "v => Number(document.getElementById('main').dataset.version) > v", arg=before.version, timeout=WAIT_MS
        )
        assert await page.get_by_test_id("notice").inner_text() == ""
        journal = page.get_by_test_id("journal").locator("li")  # the roll, in the page's journal
        await journal.filter(has_text="web-kim rolls for order").first.wait_for(timeout=WAIT_MS)
        assert await page_version(page) > before.version

        # the chat: typed and sent by Enter, shown on the page as the server keeps it
        await tab_to(page, "[data-testid=chat-input]")
        await page.keyboard.type("привет, hello")
        await page.keyboard.press("Enter")
        await page.get_by_test_id("chat").locator("li").filter(has_text="привет, hello").wait_for(timeout=WAIT_MS)
        messages, _ = await kim.chat(table)
        assert [(m.name, m.text) for m in messages] == [("web-kim", "привет, hello")]
        assert await page.get_by_test_id("chat").inner_text() == "web-kim: привет, hello"

    # the language, from the header (before the page's content: Shift+Tab reaches it)
    await tab_to(page, "[data-testid=lang]", key="Shift+Tab")
    await page.keyboard.press("Enter")
    await page.wait_for_selector("html[lang=ru]", timeout=WAIT_MS)
    await page.wait_for_function(
        "() => document.querySelector('[data-testid=journal]')?.textContent.includes('бросает')", timeout=WAIT_MS
    )
    await page.keyboard.press("Enter")  # the button keeps the focus: back to English
    await page.wait_for_selector("html[lang=en]", timeout=WAIT_MS)
    await page.goto(served.web)  # the lobby: this table among my tables (and the others' tables so far)
    await page.wait_for_selector(f"[data-testid=my-tables] [data-table={table_id}]", timeout=WAIT_MS)
    await screenshots(page, "lobby-tables")
    assert not errors
    await context.close()
