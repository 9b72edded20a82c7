"""`tablehall play puzzipolia --bots 3`, driven headlessly with Textual's pilot against every
service in process: a person buys a street, bids in an auction, pays or collects rent, and plays
to the end of a two-round game, pressing only the keys the screen offers.

The dice are the table's (secret seed): nothing is fixed. The bot seats are played by the test
(the bot service is not part of it) with the game's bot policy, except that they leave every lot
to auction and pass; so the person meets auctions and owns lots the others land on. Whether a
rent falls due in two rounds is still up to the dice (about half of the games), so the person
plays new games (each from `play` to the end) until one holds all three; the figures are kept.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from support.clientkit import BotSeats, Server, unique
from textual.pilot import Pilot

from tablehall_sdk import Client, Update
from tablehall_terminal.app import TableApp
from tablehall_terminal.plans import PlayPlan

OPTIONS = {"round_limit": 2, "decision_clock_s": 60}
GAMES = 10
# what the person presses, in order of preference, when the screen offers it
PREFERENCE = ("p", "c", "b", "a", "r", "7", "e", "s")


@dataclass
class Path:
    pressed: list[str] = field(default_factory=list)
    bought_street: bool = False
    auction_won: bool = False
    rent: bool = False
    finished: bool = False
    screens: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.bought_street and self.auction_won and self.rent and self.finished


async def _until(pilot: Pilot[None], ok: object, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if ok():  # type: ignore[operator]
            return True
        await pilot.pause(0.02)
    return False


async def _one_game(server: Server, lang: str) -> Path:
    path = Path()
    async with Client(server.address) as client:
        app = TableApp(client, PlayPlan("puzzipolia", 3, unique("ann"), OPTIONS), lang)
        async with app.run_test(size=(180, 60)) as pilot:
            assert await _until(pilot, lambda: app.update is not None and app.seat == 0, within=30), app.notice
            table = await client.get_table(app.table)
            assert [s.is_bot for s in table.seats] == [False, True, True, True]
            bots = BotSeats(server.address, table, leave_lots_to_auction=True)
            bots.start()
            try:
                deadline = time.monotonic() + 60
                while not _shown(app).finished and time.monotonic() < deadline:
                    offered = {m.key for m in app.moves}
                    mine = app.seat in {d.seat for d in _shown(app).decisions}
                    key = next((k for k in PREFERENCE if k in offered), None)
                    if not mine or key is None or app.busy:
                        await pilot.pause(0.03)
                        continue
                    version = _shown(app).version
                    path.pressed.append(key)
                    await pilot.press(key)
                    if key == "a":  # the bid dialog opens with the minimum bid filled in
                        assert await _until(pilot, lambda: len(app.screen_stack) > 1)
                        await pilot.press("enter")
                    await _until(pilot, lambda v=version: _shown(app).version > v and not app.busy, within=5)
                assert _shown(app).finished, f"the game did not end; pressed {path.pressed}"
                await pilot.pause(0.1)
                path.finished = True
                path.screens.append(app.status_text)
                _read_journal(app, path)
            finally:
                await bots.stop()
    return path


def _shown(app: TableApp) -> Update:
    """The update the screen shows (there is one once the table is open)."""
    assert app.update is not None
    return app.update


def _read_journal(app: TableApp, path: Path) -> None:
    state = _shown(app).state
    kinds = {sq["index"]: sq["kind"] for sq in state["squares"]}
    debts: dict[int, dict[str, object]] = {}
    for line in app.journal_lines:
        code, p = line.code.upper(), line.params
        if code.endswith("LOT_BOUGHT") and p.get("seat") == 0 and kinds.get(p.get("square")) == "street":
            path.bought_street = True
        if code.endswith("AUCTION_CLOSED") and p.get("winner") == 0:
            path.auction_won = True
        if code.endswith("DEBT_OPENED") and p.get("reason") == "rent" and 0 in (p.get("debtor"), p.get("creditor")):
            debts[int(p["debt_id"])] = dict(p)
        if code.endswith("DEBT_PAID") and int(p.get("debt_id", -1)) in debts:
            path.rent = True


async def test_a_person_plays_a_short_game_in_the_terminal(server: Server) -> None:
    paths: list[Path] = []
    for game in range(GAMES):
        paths.append(await _one_game(server, "en" if game % 2 == 0 else "ru"))
        if paths[-1].complete:
            break
    summary = [(p.bought_street, p.auction_won, p.rent, len(p.pressed)) for p in paths]
    assert paths[-1].complete, f"no game with a street bought, an auction won and a rent paid: {summary}"
    final = paths[-1]
    assert {"r", "b", "a", "e"} <= set(final.pressed)
    assert "Game over" in final.screens[-1] or "Игра окончена" in final.screens[-1]
    await asyncio.sleep(0)
