"""Драконы in the terminal client: text snapshots at 80×24 and 120×40 (a seat's turn, the black
die's cell, a spectator, the end) and play through the keys (a die placed from the cells the
descriptors list, a contour entered cell by cell, the black die's cell chosen).

The views are the engine's own (a seeded game of easy bots played with the rules library, the
seat's redacted view and its descriptors passed through the proto and the SDK as the server
sends them), so the screen is tested on what a real table shows.

Rewrite the snapshots after a deliberate change of the screen with
`TABLEHALL_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/clients/test_terminal_dragons.py`.
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from support.terminalkit import NOW_MS, ScriptedClient, decision, screen_text, settled, until, view
from textual.pilot import Pilot

from dragons.game import GAME
from dragons.state import State
from tablehall_rules import DecideContext, DrawSource, SeatInfo, Viewer
from tablehall_rules.legal import expand_all
from tablehall_sdk import Command, GameInfo, TableView
from tablehall_sdk.adapters.convert import legal_move_from_proto
from tablehall_stream.codecs import command_codec
from tablehall_stream.proto_games import legal_move_to_proto
from tablehall_terminal.app import TableApp
from tablehall_terminal.plans import PlayPlan
from tablehall_terminal.plugins.dragons.plugin import coords, name, parse_cell

SNAPSHOTS = Path(__file__).parent / "snapshots"
NAMES = ("Ann", "Bot 1")
INFO = GameInfo("dragons", "1.0.0", {"en": "Dragons", "ru": "Драконы"}, 2, 2, {"properties": {}}, False)


def _play(stops: dict[str, Callable[[State], bool]], seed: int = 7) -> dict[str, State]:
    """A seeded game of easy bots; for each name, (a copy of) the first state where its test holds."""
    rng = random.Random(seed)
    source = DrawSource(bytes(range(32)))
    seats = [SeatInfo(i, f"u{i}", n, is_bot=i == 1) for i, n in enumerate(NAMES)]
    now = 1_000
    state: Any = None
    for event in GAME.start({}, seats, DecideContext(None, now, source)):
        state = GAME.evolve(state, event)
    codec = command_codec("dragons")
    found: dict[str, State] = {}
    while True:
        found.update({k: copy.deepcopy(state) for k, stop in stops.items() if k not in found and stop(state)})
        if len(found) == len(stops):
            return found
        assert GAME.outcome(state) is None, f"the game ended before {set(stops) - set(found)}"
        d = GAME.pending(state)[0]
        now += 100
        legal = expand_all(GAME.legal(state, d.seat, now), codec, limit=2000)
        command = GAME.bot_policy(GAME.view(state, Viewer.of_seat(d.seat)), legal, rng)
        for event in GAME.decide(state, command, DecideContext(d.seat, now, source)):
            state = GAME.evolve(state, event)


def _view(state: State, version: int, seat: int | None = 0) -> TableView:
    """The table as the server shows it to `seat` (None: a spectator): view, decisions, descriptors."""
    viewer = Viewer.of_seat(seat) if seat is not None else Viewer.spectator()
    shown = GAME.view(state, viewer)
    moves = (
        tuple(legal_move_from_proto(legal_move_to_proto("dragons", m)) for m in GAME.legal(state, seat, 0))
        if seat is not None
        else ()
    )
    decisions = tuple(decision(d.seat, d.kind) for d in GAME.pending(state))
    outcome = GAME.outcome(state)
    if outcome is not None:
        return view(
            version,
            shown,
            seat=seat,
            finished=True,
            game="dragons",
            outcome={"places": outcome.places, "reason": shown["result"]["reason"], "scores": outcome.scores},
        )
    return view(version, shown, moves, seat=seat, decisions=decisions, game="dragons")


@cache
def _states() -> dict[str, State]:
    return _play(
        {
            "turn": lambda s: s.round >= 6 and s.phase == "turn" and s.active == 0,
            "black": lambda s: s.phase == "black" and s.contour is not None and s.contour.seat == 0,
            "spectator": lambda s: s.round >= 12 and s.phase == "turn",
            "over": lambda s: GAME.outcome(s) is not None,
        }
    )


def _client(shown: TableView) -> ScriptedClient:
    client = ScriptedClient("dragons", NAMES, {shown.version: shown})
    client.list_games = _games  # type: ignore[method-assign]
    return client


async def _games() -> tuple[GameInfo, ...]:
    return (INFO,)


async def _opened(pilot: Pilot[None], app: TableApp, client: ScriptedClient, shown: TableView) -> None:
    await until(pilot, lambda: app.table != "")
    if shown.seat is None:
        app.seat = None
    client.feed.put_nowait(shown.version)
    await until(pilot, lambda: app.frame is not None and app.frame.version == shown.version)
    await settled(pilot, app)  # painted (a busy machine paints late)


CASES = [
    pytest.param(state, lang, size, id=f"dragons-{state}-{lang}-{size[0]}x{size[1]}")
    for state in ("turn", "black", "spectator", "over")
    for lang in ("en", "ru")
    for size in ((80, 24), (120, 40))
    if lang == "en" or state == "turn"
]


@pytest.mark.parametrize(("state", "lang", "size"), CASES)
async def test_screen_snapshot(state: str, lang: str, size: tuple[int, int]) -> None:
    shown = _view(_states()[state], 40, seat=None if state == "spectator" else 0)
    client = _client(shown)
    app = TableApp(client, PlayPlan("dragons", 1, "ann"), lang)  # type: ignore[arg-type]
    app.now_ms = lambda: NOW_MS
    async with app.run_test(size=size) as pilot:
        await _opened(pilot, app, client, shown)
        text = screen_text(app)
    path = SNAPSHOTS / f"dragons-{state}-{lang}-{size[0]}x{size[1]}.txt"
    if os.environ.get("TABLEHALL_UPDATE_SNAPSHOTS") or not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"the screen differs from {path.name}:\n{text}"


def test_the_board_is_the_333_cells_with_both_halves_and_the_border() -> None:
    cells = coords()
    assert len(cells) == 333
    assert sum(1 for _, y in cells if y > 0) == sum(1 for _, y in cells if y < 0) == 156
    assert sum(1 for _, y in cells if y == 0) == 21
    assert name(166) == "0,0" and parse_cell("0,0") == 166 and parse_cell("(2, 10)") == 332
    assert parse_cell("11,0") is None and parse_cell("x") is None


async def test_a_die_is_placed_on_a_cell_the_descriptors_list() -> None:
    shown = _view(_states()["turn"], 40)
    client = _client(shown)
    app = TableApp(client, PlayPlan("dragons", 1, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await _opened(pilot, app, client, shown)
        digit = next(m for m in app.moves if m.key.isdigit())
        await pilot.press(digit.key)
        await until(pilot, lambda: len(app.screen_stack) > 1)
        await pilot.press("down", "enter")
        await until(pilot, lambda: bool(client.submitted) and not app.busy)
    _, command = client.submitted[-1]
    assert command == digit.commands[1] and command.kind == "place_die"
    assert command.args["face"] == int(digit.key)
    assert not app.notice.startswith("Refused")


async def test_a_contour_is_entered_cell_by_cell_and_sent_as_typed() -> None:
    shown = _view(_states()["turn"], 40)
    client = _client(shown)
    app = TableApp(client, PlayPlan("dragons", 1, "ann"), "en")  # type: ignore[arg-type]
    ring = ["2,4", "3,4", "4,4", "4,5", "4,6", "3,6", "2,6", "2,5"]
    async with app.run_test(size=(120, 40)) as pilot:
        await _opened(pilot, app, client, shown)
        entry = next(m for m in app.moves if m.key == "c")
        await pilot.press("c")
        await until(pilot, lambda: len(app.screen_stack) > 1)
        await pilot.press("enter")  # the first rolled number
        await until(pilot, lambda: app.screen.__class__.__name__ == "EntryScreen")
        await pilot.press(*"99,99", "enter")  # not a cell: refused by the dialog, nothing added
        assert "Not a cell" in screen_text(app)
        for typed in ring:
            await pilot.press(*typed, "enter")
        await pilot.press(*"7,7", "enter", "-", "enter")  # one too many, taken back
        await pilot.pause(0.05)
        assert "→ " + " ".join(ring) in screen_text(app)
        await pilot.press("enter")  # an empty Enter sends it
        await until(pilot, lambda: bool(client.submitted) and not app.busy)
    _, command = client.submitted[-1]
    cells = [parse_cell(c) for c in ring]
    assert command == Command("dragons", "place_die", {**entry.commands[0].args, "cell": cells[0], "contour": cells})


async def test_the_black_die_goes_on_the_chosen_cell_inside_the_contour() -> None:
    state = _states()["black"]
    assert state.contour is not None
    shown = _view(state, 40)
    client = _client(shown)
    app = TableApp(client, PlayPlan("dragons", 1, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await _opened(pilot, app, client, shown)
        assert [m.key for m in app.moves] == ["b"]
        assert "*" in screen_text(app)  # the free cells inside are marked on the board
        await pilot.press("b")
        await until(pilot, lambda: len(app.screen_stack) > 1)
        await pilot.press("enter")
        await until(pilot, lambda: bool(client.submitted) and not app.busy)
    _, command = client.submitted[-1]
    assert command == Command("dragons", "place_black", {"cell": state.contour.inside[0]})


async def test_a_spectator_sees_the_board_and_no_hand() -> None:
    state = _states()["spectator"]
    shown = _view(state, 40, seat=None)
    assert "me" not in shown.state and "hands" not in shown.state
    client = _client(shown)
    app = TableApp(client, PlayPlan("dragons", 1, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await _opened(pilot, app, client, shown)
        text = screen_text(app)
    assert app.moves == [] and "Your dominoes" not in text
    red = sum(1 for p in shown.state["pieces"] if p["owner"] == "red" and p["domino"] is None)
    assert text.count("r") >= red  # every red die is drawn (with its mark)


async def test_a_domino_with_a_contour_is_entered_its_two_cells_first() -> None:
    state = _states()["turn"]
    assert state.round >= 3 and state.player(0).hand, "the scene needs a domino in hand from round 3"
    shown = _view(state, 40)
    client = _client(shown)
    app = TableApp(client, PlayPlan("dragons", 1, "ann"), "en")  # type: ignore[arg-type]
    typed = ["2,4", "3,4", "3,4", "4,4", "4,5", "4,6", "3,6", "2,6", "2,5", "2,4"]
    async with app.run_test(size=(120, 40)) as pilot:
        await _opened(pilot, app, client, shown)
        entry = next(m for m in app.moves if m.key == "c")
        at = next(i for i, c in enumerate(entry.commands) if c.kind == "place_domino")
        await pilot.press("c")
        await until(pilot, lambda: len(app.screen_stack) > 1)
        await pilot.press(*["down"] * at, "enter")
        await until(pilot, lambda: app.screen.__class__.__name__ == "EntryScreen")
        for cell in typed:
            await pilot.press(*cell, "enter")
        await pilot.press("enter")
        await until(pilot, lambda: bool(client.submitted) and not app.busy)
    _, command = client.submitted[-1]
    cells = [parse_cell(c) for c in typed]
    chosen = entry.commands[at]
    assert command == Command("dragons", "place_domino", {**chosen.args, "cells": cells[:2], "contour": cells[2:]})


def test_the_end_line_gives_each_final_score_and_the_places() -> None:
    from tablehall_terminal.frame import from_view
    from tablehall_terminal.plugins.dragons.plugin import PLUGIN

    state = _states()["over"]
    frame = from_view(_view(state, 40), NAMES)
    line = PLUGIN.outcome(frame, "en")
    assert f"Final: Ann {_written(state.final[0])}, Bot 1 {_written(state.final[1])}" in line
    winner = NAMES[state.places[0][0]]
    assert f"Places: 1. {winner}" in line


def _written(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def test_the_end_screen_scores_are_the_results_and_its_reason_is_words() -> None:
    """Once over, the players' score column is the result's final score (the end rules applied:
    no own king-six makes it 0, the pips left in hand count against), not the running score;
    an end reason the plug-in has no words for reads as words, never its code."""
    import dataclasses
    import io

    from rich.console import Console

    from tablehall_terminal.frame import from_view
    from tablehall_terminal.plugins.dragons.plugin import PLUGIN

    state = _states()["over"]
    shown = _view(state, 40)
    frame = from_view(shown, NAMES)
    console = Console(file=io.StringIO(), width=60, color_system=None)
    console.print(PLUGIN.players(frame, "en", 60))
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    rows = {who: line for line in text.splitlines() for who in NAMES if who in line}
    for seat, who in enumerate(NAMES):
        assert f" {_written(state.final[seat])} " in rows[who], rows[who]
    odd = from_view(dataclasses.replace(shown, outcome={**(shown.outcome or {}), "reason": "closed:idle"}), NAMES)
    assert "closed" not in PLUGIN.outcome(odd, "en") and "игра завершена" in PLUGIN.outcome(odd, "ru")
