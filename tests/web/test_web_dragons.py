"""Драконы in the browser, against `tablehall up`: a table with a bot made from the page, played
by clicking the board (a rolled die, then a cell, one of the dice and its target, or a tile and
its two cells; a contour by clicking its dice in order) to a round limit, the page checked
against GetTableView for the seat before every move and at the end."""

from __future__ import annotations

from collections.abc import Sequence
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

from dragons.board import grid
from tablehall_sdk import Client, LegalMove, Parameter, Role, TableView

ROUNDS = 6  # chess moves and dominoes from round 3
LAST_ROUND = 14  # played on until every kind of move was made on the board, at most to this round
COLOURS = ("red", "blue")
MAX_CLICKS = 80
BOARD_KINDS = ("place_start", "place_die", "chess_move", "place_domino", "place_black")

SHOWN = """() => ({
  cells: Object.fromEntries([...document.querySelectorAll('[data-testid^=dc-]')].filter((g) => g.dataset.owner).map((g) => (
    [g.dataset.testid.slice(3), [g.dataset.owner, Number(g.dataset.face), g.dataset.domino === '' ? null : Number(g.dataset.domino)]]))),
  players: [...document.querySelectorAll('[data-testid^=player-]')].map((r) => (
    [Number(r.dataset.testid.split('-')[1]), Number(r.dataset.score), Number(r.dataset.dice), Number(r.dataset.hand)])),
  rolled: [...document.querySelectorAll('[data-testid^=dg-rolled-]')].map((r) => (
    [...r.querySelectorAll('[data-face]')].map((d) => Number(d.dataset.face)))),
  hand: [...document.querySelectorAll('[data-testid=dg-hand] [data-tile]')].map((t) => t.dataset.tile),
})"""


def expected(view: TableView) -> dict[str, Any]:
    st = view.state
    return {
        "cells": {str(p["cell"]): [p["owner"], p["face"], p["domino"]] for p in st["pieces"]},
        "players": [[p["seat"], p["score"], p["dice_left"], p["hand_size"]] for p in st["players"]],
        "rolled": [list(st["rolled"][p["seat"]]) if st["rolled"] else [] for p in st["players"]],
        "hand": [f"{a}|{b}" for a, b in st["me"]["hand"]],
    }


def param(move: LegalMove, field: str) -> Parameter | None:
    return next((p for p in move.parameters if p.field == field), None)


def ints(values: Sequence[Any]) -> list[int]:
    return [int(v) for v in values]


def place_cells(view: TableView, face: int) -> set[int]:
    """Every cell a die of `face` may go on by the descriptors (what the board must highlight)."""
    cells: set[int] = set()
    for m in view.moves:
        p = param(m, "cell")
        if m.command.kind == "place_die" and m.command.args.get("face", 0) == face and p is not None:
            cells |= set(ints(p.values))
    return cells


class Player:
    """Chooses a move from the descriptors and makes it by clicking the board, as a person would."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.made: dict[str, int] = {"place": 0, "chess": 0, "domino": 0, "contour": 0, "start": 0, "black": 0}
        self.contours_offered = 0

    def covered(self) -> bool:
        return all(self.made[kind] for kind in ("place", "chess", "domino", "contour"))

    async def cell(self, cell: int, keyboard: bool = False) -> None:
        target = self.page.locator(f"[data-testid=dc-{cell}][data-target]")
        if keyboard:  # a cell of the board takes focus, and Enter acts
            await target.focus()
            await self.page.keyboard.press("Enter")
        else:
            await target.click()

    async def face(self, view: TableView, face: int) -> None:
        await self.page.locator(f"[data-testid=dg-face-{face}]").first.click()
        highlighted = await self.page.locator(
            "[data-target=place], [data-target=combo], [data-target=contour]"
        ).evaluate_all("gs => gs.map((g) => Number(g.dataset.testid.slice(3)))")
        assert set(highlighted) == place_cells(view, face)  # the board offers exactly the descriptors' cells

    async def act(self, page: Page, shown: dict[str, Any], view: TableView) -> None:
        st = view.state
        kinds = {m.command.kind for m in view.moves}
        if kinds & {"place_start", "place_black"}:
            move = next(m for m in view.moves if m.command.kind in ("place_start", "place_black"))
            cells = param(move, "cell")
            assert cells is not None
            assert await page.locator("[data-target=place]").count() == len(cells.values)
            await self.cell(int(cells.values[0]), keyboard=True)
            self.made["start" if move.command.kind == "place_start" else "black"] += 1
            return
        if "place_die" in kinds or "chess_move" in kinds or "place_domino" in kinds:
            await self.turn(view, st["round"])
            return
        for command in shown["commands"]:  # the domino choice (take one), a die without use
            if command["kind"] == "take_domino" and command["args"].get("take"):
                await click_command(page, command)
                return
        await click_command(page, shown["commands"][0])

    async def turn(self, view: TableView, round_no: int) -> None:
        closing = [
            m
            for m in view.moves
            if m.command.kind == "place_die"
            and param(m, "cell") is None
            and (param(m, "contour") or Parameter("")).values
        ]
        if closing:  # a contour, clicked die by die around the region, then declared
            self.contours_offered += 1
            move = closing[0]
            contour = param(move, "contour")
            assert contour is not None
            cycle = ints(contour.values[0])
            await self.face(view, move.command.args["face"])
            await self.cell(move.command.args.get("cell", 0))
            for cell in cycle:
                await self.cell(cell)
            if not self.made["contour"]:  # the contour drawn, before it is declared
                await screenshots(self.page, "dragons-contour")
            await self.page.get_by_test_id("dg-declare").click()
            self.made["contour"] += 1
            return
        turns = sum(self.made.values())
        dominoes = [
            m
            for m in view.moves
            if m.command.kind == "place_domino" and (param(m, "cells") or Parameter("")).rule == ""
        ]
        if dominoes and turns % 3 == 0:
            move = dominoes[0]
            face_p, cells_p = param(move, "face"), param(move, "cells")
            assert face_p is not None and cells_p is not None
            first, second = move.command.args.get("first", 0), move.command.args.get("second", 0)
            a, b = ints(cells_p.values[0])
            await self.face(view, int(face_p.values[0]))
            await self.page.get_by_test_id(f"dg-tile-{first}-{second}").click()
            await self.cell(a)
            await self.cell(b)
            await self.without_contour()
            self.made["domino"] += 1
            return
        chess = [m for m in view.moves if m.command.kind == "chess_move" and param(m, "target") is not None]
        if chess and turns % 3 == 1:
            move = chess[0]
            face_p, target_p = param(move, "face"), param(move, "target")
            assert face_p is not None and target_p is not None
            await self.face(view, int(face_p.values[0]))
            origin = move.command.args.get("origin", 0)
            await self.cell(origin)
            assert await self.page.locator("[data-target=place]").count() == len(target_p.values)
            await self.cell(int(target_p.values[0]))
            await self.without_contour()
            self.made["chess"] += 1
            return
        faces = [f for f in sorted(set(view.state["rolled"][view.seat])) if place_cells(view, f)]
        assert faces, view.moves
        # where a free cell next to it gets the most own dice at its sides: a ring to close later
        board = grid()
        pieces = {p["cell"]: p["owner"] for p in view.state["pieces"]}
        assert view.seat is not None
        own = {cell for cell, owner in pieces.items() if owner in (COLOURS[view.seat], "black")}

        def ringing(cell: int) -> tuple[int, int]:
            shut = [len(own & set(board.neighbours4(f))) for f in board.neighbours4(cell) if f not in pieces]
            return max(shut, default=0), -cell

        cell = max(place_cells(view, faces[0]), key=ringing)
        await self.face(view, faces[0])
        await self.cell(cell)
        await self.without_contour()
        self.made["place"] += 1

    async def without_contour(self) -> None:
        """A move that could close a contour asks for one: this player declares none."""
        if await self.page.get_by_test_id("dg-without").count():
            await self.page.get_by_test_id("dg-without").click()


async def test_dragons_played_by_clicking_the_board(served: Served, browser: Browser) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{error} {error.stack}"))
    secret = await sign_in(page, served.web, "web-dora")
    table_id = await create_table(page, "dragons", 2, {"decision_clock_s": "120"})
    await add_bots(page, ["easy"])
    await page.get_by_test_id("start").click()
    await page.wait_for_selector("[data-testid=dg-board]", timeout=WAIT_MS)
    player = Player(page)
    shots: dict[str, bool] = {}

    async def act(page: Page, shown: dict[str, Any], view: TableView) -> None:
        if view.state["round"] >= 3 and not shots:
            shots["play"] = True
            await screenshots(page, "dragons-play")
        await player.act(page, shown, view)

    async with Client(served.grpc) as dora:
        await dora.sign_in_dev("web-dora", client_secret=secret)
        clicks, compared = await play_by_clicking(
            page,
            dora,
            f"tables/{table_id}",
            SHOWN,
            expected,
            act,
            MAX_CLICKS,
            lambda: screenshots(page, "dragons-start"),
            board_kinds=BOARD_KINDS,
            enough=lambda view: (view.state["round"] > ROUNDS and player.covered()) or view.state["round"] > LAST_ROUND,
        )
        final = await dora.view(f"tables/{table_id}", Role.SEAT)
    assert final.state["round"] > ROUNDS and clicks >= 10 and compared > clicks
    made = player.made
    assert made["start"] == 4 and player.covered(), made
    assert made["contour"] == player.contours_offered and made["black"] == made["contour"], made
    await screenshots(page, "dragons-later")
    await page.get_by_test_id("lang").click()  # the page in Russian: the board's words too
    await page.wait_for_function("() => document.querySelector('[data-testid=status]')?.textContent.includes('Круг')")
    assert "доминошки" in (await page.get_by_test_id("dg-hand").inner_text()).lower()
    await screenshots(page, "dragons-ru")
    await page.get_by_test_id("lang").click()
    assert not errors
    await context.close()
