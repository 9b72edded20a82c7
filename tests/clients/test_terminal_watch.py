"""`tablehall watch TABLE` (a spectator, live) and the client's language and keys."""

from __future__ import annotations

import time

import pytest
from support.clientkit import Server, unique

from tablehall_sdk import Client, Command, LegalMove, Parameter
from tablehall_terminal.app import TableApp
from tablehall_terminal.frame import Frame
from tablehall_terminal.i18n import pick_lang
from tablehall_terminal.plans import WatchPlan
from tablehall_terminal.plugins.puzzipolia import PLUGIN


async def test_a_spectator_watches_a_table_live_in_russian(server: Server) -> None:
    async with Client(server.address) as ann, Client(server.address) as bob, Client(server.address) as viewer:
        await ann.sign_in_dev(unique("ann"))
        await bob.sign_in_dev(unique("bob"))
        table = await ann.create_table("puzzipolia", {"round_limit": 2}, seat_count=2)
        await bob.join(table.name)
        await ann.start(table.name)
        app = TableApp(viewer, WatchPlan(table.table_id, unique("eve")), "ru")
        async with app.run_test(size=(180, 60)) as pilot:
            deadline = time.monotonic() + 30
            while app.update is None and time.monotonic() < deadline:
                await pilot.pause(0.02)
            assert app.update is not None, app.notice
            assert app.seat is None and app.moves == []
            before = app.update.version
            await ann.submit(table.name, 0, Command("puzzipolia", "roll_for_order"))
            while app.update.version == before and time.monotonic() < deadline:
                await pilot.pause(0.02)
            assert app.update.version > before
            assert "Круг" in app.status_text and "Ждём" in app.status_text
            # the table's name stays; a spectator's panel offers no moves and no seat to keep
            assert f"стол {table.table_id[:8]}" in app.title_text and "зритель" in app.title_text
            moves = app.query_one("#moves")
            assert moves.border_title == "Зритель" and "место остаётся" not in str(moves.render())


@pytest.mark.parametrize(
    ("arg", "env", "lang"),
    [
        ("en", {"LANG": "ru_RU.UTF-8"}, "en"),
        (None, {"LANG": "ru_RU.UTF-8"}, "ru"),
        (None, {"LC_ALL": "en_US.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_language_follows_the_flag_then_the_locale(arg: str | None, env: dict[str, str], lang: str) -> None:
    assert pick_lang(arg, env) == lang


def test_moves_become_keys_with_choosers_for_several_choices() -> None:
    state = {"squares": [{"index": i, "en": f"Sq{i}", "ru": f"Кл{i}", "price": 100} for i in range(4)]}
    game = "puzzipolia"
    legal = (
        LegalMove(Command(game, "roll")),
        LegalMove(Command(game, "mortgage"), (Parameter("square", values=(1, 3)),)),
        LegalMove(Command(game, "bid", {"amount": 0}), (Parameter("amount", lo=20, hi=300, step=1),)),
        LegalMove(Command(game, "vote_end", {"answer": "ANSWER_YES"})),
        LegalMove(Command(game, "leave")),
    )
    frame = Frame("tables/x", game, 5, 0, state, (), legal, (), False, None)
    moves = {m.key: m for m in PLUGIN.moves(frame, "en")}
    assert set(moves) == {"r", "m", "a", "y", "L"}
    assert moves["m"].chooser and [c.args["square"] for c in moves["m"].commands] == [1, 3]
    assert moves["m"].items == ("mortgage Sq1: you get 50", "mortgage Sq3: you get 50")  # what it yields
    assert moves["a"].amount is not None and (moves["a"].amount.lo, moves["a"].amount.hi) == (20, 300)
    assert moves["L"].chooser  # leaving asks for a confirmation
