"""Гомункул in the browser, against `tablehall up`: a table with a bot made from the page, played
by clicking (a card, then one of its pieces and a highlighted target, a wild card's colour; a
tile, then its two cells; the shop's boots bought and used on a piece) to a round limit, the
page checked against GetTableView for the seat before every move: the cross (pieces, opened
cells and their numbers, tiles, the mines this seat may see), the hand, the tiles, the ring,
and «Уно!» / «Поймать» shown exactly while their window is open. The reaction buttons are also
checked on a view whose window is open (rare in a short game with a bot)."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, Page
from support.webkit import (
    WAIT_MS,
    Served,
    add_bots,
    click_command,
    create_table,
    play_by_clicking,
    screenshots,
    sign_in,
)

from tablehall_sdk import Client, LegalMove, Parameter, Role, TableView
from tablehall_web.live import view_json

ROUNDS = 4
LAST_ROUND = 12  # played on until every kind of move was made on the board, at most to this round
MAX_CLICKS = 120
BOARD_KINDS = ("play_card", "place_domino", "free_move", "use_item", "buy_item", "say_uno", "catch_uno")
PREFERENCE = ("pass_bid", "decline_lot", "roll_dice", "keep_card", "end_turn", "draw_card", "exchange_card")

SHOWN = """() => {
  const cells = [...document.querySelectorAll('[data-testid^=hc-]')];
  const id = (g) => g.dataset.testid.slice(3);
  const by = (attr, f = (v) => v) => Object.fromEntries(cells.filter((g) => g.dataset[attr] !== '').map((g) => [id(g), f(g.dataset[attr])]));
  return {
    pieces: by('piece'),
    opened: cells.filter((g) => g.dataset.open === '1').map((g) => Number(id(g))).sort((a, b) => a - b),
    numbers: by('number', Number),
    tiles: by('tile', Number),
    mines: by('mine'),
    players: [...document.querySelectorAll('[data-testid^=player-]')].map((r) => (
      [Number(r.dataset.testid.split('-')[1]), Number(r.dataset.gold), Number(r.dataset.cards), Number(r.dataset.tiles), r.dataset.alive === '1'])),
    hand: [...document.querySelectorAll('[data-testid=hm-hand] [data-card]:not([data-drawn])')].map((c) => c.dataset.card),
    tiles_hand: [...document.querySelectorAll('[data-testid=hm-tiles] [data-tile]')].map((t) => t.dataset.tile),
    top: (document.querySelector('[data-testid=hm-top]') || {dataset: {}}).dataset.card || null,
    colour: Number(document.querySelector('[data-testid=hm-colour]').dataset.colour),
    lots: [...document.querySelectorAll('[data-testid^=lot-]')].map((g) => [Number(g.dataset.owner), Number(g.dataset.buildings), g.dataset.mortgaged === '1']),
    tokens: Object.fromEntries([...document.querySelectorAll('[data-testid^=token-]')].map((t) => [t.dataset.testid.slice(6), Number(t.dataset.position)])),
    reactions: [...document.querySelectorAll('[data-testid=hm-reactions] button')].map((b) => b.dataset.testid.slice(3)),
  };
}"""


def card(c: list[Any]) -> str:
    return f"{c[0]}|{c[1]}"


def expected(view: TableView) -> dict[str, Any]:
    st, me = view.state, view.seat
    assert me is not None
    opened = sorted(st["opened"])
    mines = {str(cell): "nobody" if owner is None else str(owner) for cell, owner in st["mines"]}
    for cell in st["detected"]:
        mines.setdefault(str(cell), "detected")
    tiles = {}
    for tile_id, _, _, _, a, b in st["dominoes"]:
        tiles[str(a)] = tiles[str(b)] = tile_id
    ring = st["ring"]
    return {
        "pieces": {cell: f"{kind}:{side}" for cell, (kind, side) in st["pieces"].items()},
        "opened": opened,
        "numbers": {str(c): st["numbers"][str(c)] for c in opened if str(c) in st["numbers"]},
        "tiles": tiles,
        "mines": mines,
        "players": [
            [p, st["gold"][p], st["hand_sizes"][p], st["domino_hand_sizes"][p], st["alive"][p]]
            for p in range(len(st["arms"]))
        ],
        "hand": [card(c) for c in st["hands"][me]],
        "tiles_hand": [f"{a}|{b}" for a, b in st["domino_hands"][me]],
        "top": card(st["deck"]["top"]) if st["deck"]["top"] else None,
        "colour": st["colour"],
        "lots": [[o, b, m] for o, b, m in zip(ring["owners"], ring["buildings"], ring["mortgaged"], strict=True)],
        "tokens": {str(p): pos for p, pos in enumerate(ring["positions"]) if st["alive"][p]},
        "reactions": [m.command.kind for m in view.moves if m.command.kind in ("say_uno", "catch_uno")],
    }


async def reactions_while_their_window_is_open(page: Page, view: TableView) -> None:
    """The board drawn (in the page, by the game's module) for this seat's view with a «Уно!» or
    a «Поймать» window open: its button, in the page's language, sends that command; without a
    window there is none."""
    body = view_json(view)
    drawn = await page.evaluate(
        """async ([view, kinds]) => {
          const plugin = (await import('/static/games/homunculus.js')).default;
          const sent = [];
          const moves = kinds.map((kind) => ({command: {game: 'homunculus', kind, args: {}}, parameters: []}));
          const el = plugin.board({...view, finished: false, moves: [...view.moves, ...moves]}, 'ru', {submit: (k, a) => sent.push([k, a])});
          document.body.append(el);
          const buttons = [...el.querySelectorAll('[data-testid=hm-reactions] button')];
          const texts = buttons.map((b) => b.textContent);
          buttons.forEach((b) => b.click());
          el.remove();
          return {texts, sent};
        }""",
        [body, ["say_uno", "catch_uno"]],
    )
    assert drawn == {"texts": ["«Уно!»", "«Поймать»"], "sent": [["say_uno", {}], ["catch_uno", {}]]}
    assert view.finished or not [m for m in view.moves if m.command.kind in ("say_uno", "catch_uno")]
    none = await page.evaluate(
        """async (view) => {
          const plugin = (await import('/static/games/homunculus.js')).default;
          const el = plugin.board({...view, moves: view.moves.filter((m) => !m.command.kind.endsWith('_uno'))}, 'en', {submit: () => {}});
          return el.querySelectorAll('[data-testid=hm-reactions] button').length;
        }""",
        body,
    )
    assert none == 0


def param(move: LegalMove, field: str) -> Parameter | None:
    return next((p for p in move.parameters if p.field == field), None)


class Player:
    """Chooses a move from the descriptors and makes it by clicking, as a person would."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.made: dict[str, int] = {"card": 0, "wild": 0, "tile": 0, "bought": 0, "item": 0, "free": 0, "reaction": 0}

    def covered(self) -> bool:
        return all(self.made[kind] for kind in ("card", "tile", "bought", "item"))

    async def cell(self, cell: int) -> None:
        await self.page.locator(f"[data-testid=hc-{cell}][data-target]").click()

    async def piece_then_target(self, moves: list[LegalMove], origin: int, target: int) -> None:
        """Click the piece, check its highlighted targets are the descriptors', click the target."""
        await self.cell(origin)
        targets = {
            int(t)
            for m in moves
            if m.command.args.get("origin", 0) == origin
            for t in (param(m, "target") or Parameter("")).values
        }
        shown = await self.page.locator("[data-target=target]").evaluate_all(
            "gs => gs.map((g) => Number(g.dataset.testid.slice(3)))"
        )
        assert set(shown) == targets
        await self.cell(target)

    async def act(self, page: Page, shown: dict[str, Any], view: TableView) -> None:
        by_kind: dict[str, list[LegalMove]] = {}
        for m in view.moves:
            by_kind.setdefault(m.command.kind, []).append(m)
        for reaction in ("say_uno", "catch_uno"):
            if reaction in by_kind:
                await page.get_by_test_id(f"hm-{reaction}").click()
                self.made["reaction"] += 1
                return
        if "free_move" in by_kind:
            m = by_kind["free_move"][0]
            target = param(m, "target")
            assert target is not None
            await self.piece_then_target(by_kind["free_move"], m.command.args.get("origin", 0), int(target.values[0]))
            self.made["free"] += 1
            return
        if "use_item" in by_kind and any(m.command.args.get("item") == "boots" for m in by_kind["use_item"]):
            boots = [m for m in by_kind["use_item"] if m.command.args.get("item") == "boots"]
            await page.get_by_test_id("hm-use-boots").click()
            target = param(boots[0], "target")
            assert target is not None
            await self.piece_then_target(boots, boots[0].command.args.get("origin", 0), int(target.values[0]))
            self.made["item"] += 1
            return
        buys = {m.command.args.get("item") for m in by_kind.get("buy_item", [])}
        if "boots" in buys and not self.made["bought"]:
            shop = page.get_by_test_id("hm-shop")
            if not await shop.get_attribute("open"):
                await shop.locator("summary").click()
            await page.get_by_test_id("hm-buy-boots").click()
            self.made["bought"] += 1
            return
        turns = sum(self.made.values())
        tiles = by_kind.get("place_domino", [])
        if tiles and (not self.made["tile"] or turns % 3 == 0):  # the first offered tile is laid
            m = tiles[0]
            cells = param(m, "cells")
            assert cells is not None
            a, b = (int(c) for c in cells.values[0])
            await page.get_by_test_id(f"hm-tile-{m.command.args.get('low', 0)}-{m.command.args.get('high', 0)}").click()
            await self.cell(a)
            await self.cell(b)
            self.made["tile"] += 1
            return
        cards = [m for m in by_kind.get("play_card", []) if param(m, "target") is not None]
        if cards:
            m = cards[0]
            args = m.command.args
            key = f"{args.get('colour', 0)}|{args['value']}"
            await page.locator(
                f"[data-testid=hm-hand] button[data-card='{key}'], [data-testid=hm-hand] button[data-card='{key}'][data-drawn]"
            ).first.click()
            same = [
                x
                for x in by_kind["play_card"]
                if x.command.args.get("colour", 0) == args.get("colour", 0) and x.command.args["value"] == args["value"]
            ]
            origins = await page.locator("[data-target=piece]").evaluate_all(
                "gs => gs.map((g) => Number(g.dataset.testid.slice(3)))"
            )
            assert set(origins) == {x.command.args["origin"] for x in same if param(x, "target") is not None}
            target = param(m, "target")
            assert target is not None
            await self.piece_then_target(same, args["origin"], int(target.values[0]))
            if param(m, "choose_colour") is not None:
                await page.get_by_test_id("hm-colour-0").click()
                self.made["wild"] += 1
            self.made["card"] += 1
            return
        for kind in PREFERENCE:
            for command in shown["commands"]:
                if command["kind"] == kind:
                    await click_command(page, command)
                    return
        answers = [c for c in shown["commands"] if c["kind"] == "answer_trade" and not c["args"].get("accept")]
        if answers:
            await click_command(page, answers[0])
            return
        if "play_card" in by_kind:  # a card that moves no piece (skip, reverse, +2, wild +4)
            args = by_kind["play_card"][0].command.args
            await page.locator(
                f"[data-testid=hm-hand] button[data-card='{args.get('colour', 0)}|{args['value']}']"
            ).first.click()
            if await page.get_by_test_id("hm-colours").count():
                await page.get_by_test_id("hm-colour-0").click()
            self.made["card"] += 1
            return
        raise AssertionError(f"no move chosen among {view.moves}")


async def test_homunculus_played_by_clicking_the_board(served: Served, browser: Browser) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{error} {error.stack}"))
    secret = await sign_in(page, served.web, "web-hugo")
    table_id = await create_table(page, "homunculus", 2, {"clock_ms": "120000"})
    await add_bots(page, ["easy"])
    await page.get_by_test_id("start").click()
    await page.wait_for_selector("[data-testid=hm-board]", timeout=WAIT_MS)
    player = Player(page)
    shots: dict[str, bool] = {}

    async def act(page: Page, shown: dict[str, Any], view: TableView) -> None:
        if view.state["round_no"] >= 2 and not shots:
            shots["play"] = True
            await screenshots(page, "homunculus-play")
        await player.act(page, shown, view)

    async with Client(served.grpc) as hugo:
        await hugo.sign_in_dev("web-hugo", client_secret=secret)
        clicks, compared = await play_by_clicking(
            page,
            hugo,
            f"tables/{table_id}",
            SHOWN,
            expected,
            act,
            MAX_CLICKS,
            lambda: screenshots(page, "homunculus-start"),
            board_kinds=BOARD_KINDS,
            enough=lambda view: (
                (view.state["round_no"] >= ROUNDS and player.covered()) or view.state["round_no"] > LAST_ROUND
            ),
        )
        final = await hugo.view(f"tables/{table_id}", Role.SEAT)
    assert clicks >= 4 and compared > clicks
    assert final.finished or player.covered(), player.made
    await screenshots(page, "homunculus-later")
    await page.get_by_test_id("lang").click()  # the page in Russian: the board's words too
    await page.wait_for_function("() => document.querySelector('[data-testid=status]')?.textContent.includes('Круг')")
    assert "Ваши карты" in await page.get_by_test_id("hm-hand").inner_text()
    await reactions_while_their_window_is_open(page, final)
    assert not errors
    await context.close()
