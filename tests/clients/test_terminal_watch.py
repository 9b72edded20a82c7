"""`tablehall watch TABLE` (a spectator, live) and the client's language and keys."""

from __future__ import annotations

import time

import pytest
from support.clientkit import Server, unique

from tablehall_sdk import Client, Command
from tablehall_terminal.app import TableApp
from tablehall_terminal.i18n import pick_lang
from tablehall_terminal.moves import offered_moves
from tablehall_terminal.plans import WatchPlan


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
            assert app.notice.startswith("Стол")


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
    legal = [
        Command("puzzipolia", "roll"),
        Command("puzzipolia", "mortgage", {"square": 1}),
        Command("puzzipolia", "mortgage", {"square": 3}),
        Command("puzzipolia", "bid", {"amount": 20}),
        Command("puzzipolia", "vote_end", {"answer": "ANSWER_YES"}),
        Command("puzzipolia", "leave"),
    ]
    moves = {m.key: m for m in offered_moves(legal, state, "en")}
    assert set(moves) == {"r", "m", "a", "y", "L"}
    assert moves["m"].chooser and len(moves["m"].commands) == 2 and moves["a"].asks_amount
    assert moves["L"].chooser  # leaving asks for a confirmation
