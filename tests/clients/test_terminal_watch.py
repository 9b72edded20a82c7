"""`tablehall watch TABLE` (a spectator, live) and the client's language and keys."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from rich.console import Console
from support.clientkit import Server, unique

from tablehall_sdk import Client, Command, LegalMove, Parameter
from tablehall_terminal.app import TableApp
from tablehall_terminal.frame import Frame
from tablehall_terminal.i18n import pick_lang
from tablehall_terminal.plans import WatchPlan
from tablehall_terminal.plugins.puzzipolia import PLUGIN
from tablehall_terminal.plugins.puzzipolia.plugin import NAME_MIN
from tablehall_terminal.plugins.puzzipolia.texts import ABBREVIATIONS
from tablehall_terminal.shorten import distinct_names


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


def test_the_offer_chooser_says_what_each_offer_holds() -> None:
    state = {
        "squares": [{"index": i, "en": f"Sq{i}", "ru": f"Кл{i}", "price": 100} for i in range(4)],
        "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
        "me": {
            "offers": [
                {"id": 2, "proposer": 1, "recipient": 0, "give": {"lots": [1], "money": 200}, "get": {"lots": [3]}}
            ]
        },
    }
    legal = (
        LegalMove(Command("puzzipolia", "accept_trade", {"offer_id": 2})),
        LegalMove(Command("puzzipolia", "decline_trade", {"offer_id": 2})),
    )
    frame = Frame("tables/x", "puzzipolia", 5, 0, state, (), legal, (), False, None)
    (offers,) = PLUGIN.moves(frame, "en")
    assert offers.key == "o" and offers.items == (
        "accept #2 from Bob: you give Sq3, you get Sq1, 200",
        "decline #2 from Bob: you would give Sq3, get Sq1, 200",
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_square_names_stay_distinct_at_every_width(lang: str) -> None:
    board = json.loads(
        (Path(__file__).parents[2] / "libs/boards/src/tablehall_boards/data/monopoly_classic.json").read_text()
    )
    names = [square[lang] for square in board]
    for width in range(NAME_MIN, 30):  # the board never gives a name fewer columns
        short = distinct_names(names, width, ABBREVIATIONS[lang])
        assert all(len(s) <= width for s in short), (width, short)
        assert len(set(short)) == len(set(names)), (width, short)  # no two squares read alike


def test_the_outcome_is_said_in_words() -> None:
    frame = Frame(
        "tables/x",
        "puzzipolia",
        9,
        None,
        {"players": [{"seat": 0, "name": "Ann"}]},
        (),
        (),
        (),
        True,
        {"reason": "round_limit", "places": [[0]]},
    )
    assert PLUGIN.outcome(frame, "en") == "Game over: the round limit was reached. Places: 1. Ann"
    assert PLUGIN.outcome(frame, "ru") == "Игра окончена: сыграны все круги. Места: 1. Ann"


def test_money_is_never_squeezed_in_a_narrow_players_panel() -> None:
    players = [
        {
            "seat": s,
            "name": f"A rather long player name {s}",
            "money": 1234567 * (s + 1),
            "status": "playing",
            "in_jail": True,
            "afk": True,
        }
        for s in range(4)
    ]
    frame = Frame("tables/x", "puzzipolia", 1, 0, {"players": players, "squares": []}, (), (), (), False, None)
    console = Console(width=30, file=io.StringIO(), color_system=None)
    console.print(PLUGIN.players(frame, "en", 30))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert all(str(p["money"]) in shown for p in players), shown
