"""Магнаты in the browser, against `tablehall up`: a table with a bot made from the page, played
to its round limit by clicking (pieces moved on the board: the piece, then its target cell), the
page checked against GetTableView for the seat before every move and at the end."""

from __future__ import annotations

from collections.abc import Mapping
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

from tablehall_sdk import Client, Role, TableView

MAX_CLICKS = 80
PREFERENCE = ("roll", "buy_company", "attack_king", "pay_fine", "buy_piece", "upgrade", "end_stop", "pass_move")

SHOWN = """() => {
  const num = (v) => (v === '' || v === undefined ? null : Number(v));
  return {
    players: [...document.querySelectorAll('[data-testid^=player-]')].map((r) => (
      {seat: Number(r.dataset.testid.split('-')[1]), cash: Number(r.dataset.cash), king: num(r.dataset.king)})),
    companies: [...document.querySelectorAll('[data-testid^=cell-]')].filter((g) => g.dataset.level !== '').map((g) => (
      {cell: Number(g.dataset.testid.split('-')[1]), owner: num(g.dataset.owner), level: Number(g.dataset.level)})),
    pieces: Object.fromEntries([...document.querySelectorAll('[data-testid^=piece-]')].map((g) => (
      [g.dataset.testid.slice('piece-'.length), Number(g.dataset.cell)]))),
  };
}"""


def expected(view: TableView) -> dict[str, Any]:
    return expected_of(view.state)


def expected_of(state: Mapping[str, Any]) -> dict[str, Any]:
    pieces: dict[str, int] = {}
    for p in state["players"]:
        if not p["alive"]:
            continue
        for piece, cell in [("king", p["king_cell"]), *p["pieces"].items()]:
            if cell is not None and cell >= 0:
                pieces[f"{p['seat']}-{piece}"] = cell
    return {
        "players": [{"seat": p["seat"], "cash": p["cash"], "king": p["king_cell"]} for p in state["players"]],
        "companies": [
            {"cell": c["cell"], "owner": c["owner"], "level": c["level"]}
            for c in sorted(state["companies"], key=lambda c: c["cell"])
        ],
        "pieces": pieces,
    }


async def test_magnates_played_by_clicking_the_board(served: Served, browser: Browser) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{error} {error.stack}"))
    secret = await sign_in(page, served.web, "web-mia")
    table_id = await create_table(page, "magnates", 2, {"round_limit": "2", "clock_ms": "90000"})
    await add_bots(page, ["easy"])
    await page.get_by_test_id("start").click()
    await page.wait_for_selector("[data-testid=mg-board]", timeout=WAIT_MS)
    board_moves: list[dict[str, Any]] = []

    async def act(page: Page, shown: dict[str, Any], view: TableView) -> None:
        moves = [c for c in view.legal if c.kind == "move_piece"]
        if moves:  # as a person would: the piece on the board, then one of its highlighted cells
            chosen = moves[0]
            piece = str(chosen.args["piece"]).removeprefix("PIECE_").lower()
            await page.locator(f"[data-testid=piece-{view.seat}-{piece}][data-movable]").click()
            target = page.locator(f"[data-testid=cell-{chosen.args['to']}][data-target]")
            assert await page.locator("[data-target]").count() == sum(
                1 for c in moves if c.args["piece"] == chosen.args["piece"]
            )
            await target.click()
            board_moves.append({"piece": piece, "to": chosen.args["to"], "version": view.version})
            return
        for kind in PREFERENCE:
            for command in shown["commands"]:
                if command["kind"] == kind:
                    await click_command(page, command)
                    return
        await click_command(page, shown["commands"][0])

    async with Client(served.grpc) as mia:
        await mia.sign_in_dev("web-mia", client_secret=secret)
        clicks, compared = await play_by_clicking(
            page,
            mia,
            f"tables/{table_id}",
            SHOWN,
            expected,
            act,
            MAX_CLICKS,
            lambda: screenshots(page, "magnates-play"),
        )
        final = await mia.view(f"tables/{table_id}", Role.SEAT)
        verified = await mia.verify(f"tables/{table_id}")
        history = [u async for u in mia.watch(f"tables/{table_id}", from_version=1, role=Role.SEAT)]
    assert final.finished and clicks >= 2 and compared > clicks
    # every turn's Blue die offers piece moves (two rounds: two turns of ours), each made on the board
    assert board_moves
    await screenshots(page, "magnates-over")

    # the audit page: verified as VerifyTable says, the board after a chosen event, the chart
    await page.get_by_test_id("audit-link").click()
    await page.wait_for_selector("[data-testid=verify][data-verified]", timeout=WAIT_MS)
    assert verified.verified
    assert await page.get_by_test_id("verify").get_attribute("data-verified") == "1"
    text = await page.get_by_test_id("verify").inner_text()
    assert f"{verified.events_checked} events" in text and f"{verified.commands_checked} commands" in text
    slider = page.get_by_test_id("audit-slider")
    assert await slider.get_attribute("max") == str(len(history) - 1)
    await slider.focus()  # by keyboard: the first event, then three on
    await page.keyboard.press("Home")
    for _ in range(3):
        await page.keyboard.press("ArrowRight")
    chosen = history[3]
    assert await page_version(page) == chosen.version
    assert await page.evaluate(f"({SHOWN})()") == expected_of(chosen.state)
    # who acted: the seats whose decision was open just before the chosen event
    acted = await page.get_by_test_id("audit-acted").get_attribute("data-seats")
    assert acted == ",".join(str(s) for s in dict.fromkeys(d.seat for d in history[2].decisions))
    happened = await page.get_by_test_id("audit-journal").inner_text()
    assert all(line.en in happened for line in chosen.journal)
    last = {str(p["seat"]): p["net_worth"] for p in final.state["players"]}
    lines = await page.locator("[data-testid=chart] polyline").evaluate_all(
        "ls => Object.fromEntries(ls.map((l) => [l.dataset.seat, Number(l.dataset.last)]))"
    )
    assert lines == last
    await screenshots(page, "magnates-audit")
    await page.get_by_test_id("export").click()  # a player, not an operator: the server's refusal
    await page.get_by_test_id("export-notice").filter(has_text="NOT_ALLOWED").wait_for(timeout=WAIT_MS)
    assert not errors
    await context.close()
