"""The terminal client's screens, driven with Textual's pilot over a scripted server
(support.terminalkit): always in sync under a burst of updates, and text snapshots of each game's
main states at 80×24 and 120×40.

Snapshots live in tests/clients/snapshots/*.txt. After a deliberate change of the screen, rewrite
them with `TABLEHALL_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/clients/test_terminal_screens.py`
and read the diff before committing.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from support.terminalkit import (
    NOW_MS,
    ScriptedClient,
    decision,
    homunculus_views,
    magnates_state,
    magnates_table_view,
    move,
    puzzipolia_state,
    screen_text,
    settled,
    until,
    view,
)

from tablehall_sdk import Command, LegalMove, TableView
from tablehall_terminal.app import TableApp
from tablehall_terminal.colours import SEAT_COLOURS
from tablehall_terminal.plans import PlayPlan
from tablehall_terminal.plugins.puzzipolia.plugin import GROUP_COLOURS

SNAPSHOTS = Path(__file__).parent / "snapshots"
NAMES = ("Ann", "Bot 1", "Bot 2", "Bot 3")


def _auction(version: int) -> TableView:
    bid = 100 + version
    state = puzzipolia_state(
        phase="auction", auction={"square": 6, "high_bid": bid, "high_bidder": 1 + version % 3}, active_seat=1
    )
    moves = (move("bid", amount=(bid + 1, 1340)), LegalMove(Command("puzzipolia", "pass_auction")))
    return view(version, state, moves, decisions=(decision(0, "auction_bid"),))


def _read_screen(app: TableApp, checked: set[int]) -> None:
    """If the screen shows an auction, its high bid, the bid offered and the version agree."""
    screen = screen_text(app)
    high = re.search(r"high bid (\d+)", screen)
    offered = re.search(r"a  bid \((\d+)–1340\)", screen)
    shown = re.search(r"· (?:live|updating) · v(\d+)", screen)
    if not (high and offered and shown):
        return  # not painted yet
    # the status, the moves and the version on screen are one version's
    assert int(offered.group(1)) == int(high.group(1)) + 1, screen
    assert int(high.group(1)) == 100 + int(shown.group(1)), screen
    checked.add(int(shown.group(1)))


async def test_the_screen_shows_one_version_however_fast_updates_come() -> None:
    versions = range(1, 301)
    burst, paced = versions[:150], versions[150:]
    client = ScriptedClient("puzzipolia", NAMES, {v: _auction(v) for v in versions}, view_delay=0.02)
    app = TableApp(client, PlayPlan("puzzipolia", 3, "ann"), "en")  # type: ignore[arg-type]
    app.now_ms = lambda: NOW_MS
    checked: set[int] = set()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.table != "")
        # 1. a burst: 150 updates at once are read in one go and coalesced into one fetch
        for v in burst:
            client.feed.put_nowait(v)
        await until(pilot, lambda: app.frame is not None and app.frame.version == burst[-1])
        assert client.views_asked <= 2 and app.frames_shown <= 2, (client.views_asked, app.frames_shown)
        # 2. an update every millisecond (far faster than the screen's ~60 redraws a second) while a
        # fetch takes 20 ms: whenever the screen is read, everything on it is of one version
        client.feed_gap = 0.001
        for v in paced:
            client.feed.put_nowait(v)
        while app.frame is None or app.frame.version < paced[-1]:
            await pilot.pause(0)
            _read_screen(app, checked)
        assert len(checked) >= 2, checked  # read at several versions while the updates came
        assert client.views_asked < len(versions) and app.frames_shown < len(versions)
        await pilot.pause(0.05)
        final = screen_text(app)
        assert "high bid 400" in final and "a  bid (401–1340)" in final and "live · v300" in final, final
        assert app.frame is not None and app.frame.version == versions[-1]  # the latest wins
        # a key acts on the frame on screen: the bid's minimum is that frame's
        await pilot.press("a")
        await until(pilot, lambda: len(app.screen_stack) > 1)
        await pilot.press("enter")
        await until(pilot, lambda: bool(client.submitted) and not app.busy)
        version, command = client.submitted[-1]
        assert version == versions[-1] and command == Command("puzzipolia", "bid", {"amount": 100 + version + 1})
        assert not app.notice.startswith("Refused")


async def test_the_status_timer_firing_while_the_app_closes_raises_nothing() -> None:
    """The half-second status timer can fire after the app's widgets are gone (seen once as
    NoMatches '#title' when a test's app closed on a busy machine)."""
    shown = view(1, puzzipolia_state(), (LegalMove(Command("puzzipolia", "roll")),), decisions=(decision(0),))
    client = ScriptedClient("puzzipolia", NAMES, {1: shown})
    app = TableApp(client, PlayPlan("puzzipolia", 3, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.table != "")
        client.feed.put_nowait(1)
        await until(pilot, lambda: app.frame is not None and app.frame.version == 1)
        await app.default_screen.query("#title").remove()  # as the closing app removes its widgets
        app._draw_status()  # what the timer calls
        assert app.title_text.endswith("live · v1")


async def test_a_refusal_is_shown_plainly() -> None:
    stale = view(1, puzzipolia_state(), (LegalMove(Command("puzzipolia", "roll")),), decisions=(decision(0),))
    client = ScriptedClient("puzzipolia", NAMES, {1: stale, 2: view(2, puzzipolia_state(active_seat=1))})
    app = TableApp(client, PlayPlan("puzzipolia", 3, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.table != "")
        client.feed.put_nowait(1)
        await until(pilot, lambda: app.frame is not None and [m.key for m in app.moves] == ["r"])
        client.head = 2  # the server moved on; the screen has not heard yet
        await pilot.press("r")
        await until(pilot, lambda: app.notice.startswith("Refused"))
        assert app.notice == "Refused: Not now. (v1)"
        await until(pilot, lambda: app.frame is not None and app.frame.version == 2)  # looked again
        assert app.moves == []


def test_seat_colours_are_distinct_and_none_is_a_group_colour() -> None:
    assert len(set(SEAT_COLOURS)) == len(SEAT_COLOURS)
    assert not set(SEAT_COLOURS) & {c.lower() for c in GROUP_COLOURS.values()}


# ---- snapshots --------------------------------------------------------------------------------


def _puzzipolia_states() -> Mapping[str, TableView]:
    roll = (LegalMove(Command("puzzipolia", "roll")), move("mortgage", square=[1, 3]))
    offer = {"id": 2, "proposer": 1, "recipient": 0, "give": {"lots": [11], "money": 200}, "get": {"lots": [3]}}
    afk_players = puzzipolia_state()["players"]
    afk_players[0] = {**afk_players[0], "afk": True}
    debt = [{"debt_id": 1, "debtor": 0, "creditor": None, "amount": 200}]
    journal = [
        (
            "Bot 2 draws a card: Go directly to jail, do not pass GO, do not collect 200.",
            "Bot 2 тянет карточку: отправляйся прямо в тюрьму, не проходи «Старт», не получай 200.",
        ),
        (
            "Bot 1 offers Ann a trade ⇄ 200 pupy and St. Charles Place for Baltic Avenue.",
            "Bot 1 предлагает Ann обмен ⇄ 200 пуп и Площадь Святого Карла за Балтийский проспект.",
        ),
    ]
    return {
        "turn": view(4, puzzipolia_state(_journal=journal), roll, decisions=(decision(0),)),
        "buy": view(
            5,
            puzzipolia_state(buy_square=6, phase="buy"),
            (LegalMove(Command("puzzipolia", "buy")), LegalMove(Command("puzzipolia", "decline_buy"))),
            decisions=(decision(0, "buy"),),
        ),
        "auction": _auction(7),
        "afk_debt_offer": view(
            9,
            puzzipolia_state(players=afk_players, debts=debt, me={"offers": [offer]}),
            (
                LegalMove(Command("puzzipolia", "pay_debt")),
                LegalMove(Command("puzzipolia", "accept_trade", {"offer_id": 2})),
                LegalMove(Command("puzzipolia", "decline_trade", {"offer_id": 2})),
            ),
            decisions=(decision(0, "debt", 2),),
        ),
        "over": view(
            30,
            puzzipolia_state(phase="over"),
            finished=True,
            outcome={"reason": "round_limit", "places": [[1], [3], [0], [2]]},
        ),
        "spectator": view(6, puzzipolia_state(active_seat=2), seat=None, decisions=(decision(2),)),
    }


def _testgame_states() -> Mapping[str, TableView]:
    state = {
        "scores": [7, 12, 3],
        "turn": 0,
        "target": 20,
        "afk": [False, False, True],
        "six_by": 1,
        "secrets": [4, None, None],
        "places": None,
    }
    moves = tuple(LegalMove(Command("testgame", k)) for k in ("roll", "pass", "call"))
    done = {**state, "places": [[1], [0], [2]], "six_by": -1}
    return {
        "turn": view(3, state, moves, decisions=(decision(0), decision(0, "call", 0, True)), game="testgame"),
        "over": view(20, done, finished=True, outcome={"places": [[1], [0], [2]]}, game="testgame"),
    }


def _owned(seen: Mapping[str, object], at_least: int) -> bool:
    return sum(c["owner"] is not None for c in seen["companies"]) >= at_least  # type: ignore[attr-defined]


@functools.cache
def _magnates_states() -> Mapping[str, TableView]:
    """Real Магнаты views (the engine's, of a seeded game of easy bots; Ann is seat 0)."""
    mine = {
        "move": lambda v: v["phase"] == "move" and v["turn"] == 0 and _owned(v, 6),
        "king_stop": lambda v: v["phase"] == "king_stop" and v["turn"] == 0 and v["stop"]["shop"],
        "fine": lambda v: v["phase"] == "fine" and v["turn"] == 0,
    }
    views = {
        name: magnates_table_view(40 + i, magnates_state(5, wanted, after=20))
        for i, (name, wanted) in enumerate(mine.items())
    }
    watched = magnates_state(5, lambda v: v["phase"] == "move" and v["turn"] == 1 and _owned(v, 8))
    views["spectator"] = magnates_table_view(60, watched, seat=None)
    views["over"] = magnates_table_view(90, magnates_state(5, lambda v: v["phase"] == "over"))
    return views


STATES: dict[str, Callable[[], Mapping[str, TableView]]] = {
    "puzzipolia": _puzzipolia_states,
    "testgame": _testgame_states,
    "magnates": _magnates_states,
    "homunculus": functools.cache(homunculus_views),
}
RU_CASES = {"turn", "afk_debt_offer", "move"}
CASES = [
    pytest.param(game, name, lang, size, id=f"{game}-{name}-{lang}-{size[0]}x{size[1]}")
    for game, states in STATES.items()
    for name in states()
    for lang in ("en", "ru")
    for size in ((80, 24), (120, 40))
    if lang == "en" or name in RU_CASES
]


@pytest.mark.parametrize(("game", "name", "lang", "size"), CASES)
async def test_screen_snapshot(game: str, name: str, lang: str, size: tuple[int, int]) -> None:
    shown = STATES[game]()[name]
    names = NAMES[:3] if game in ("testgame", "magnates") else NAMES
    client = ScriptedClient(game, names, {shown.version: shown})
    app = TableApp(client, PlayPlan(game, len(names) - 1, "ann"), lang)  # type: ignore[arg-type]
    app.now_ms = lambda: NOW_MS
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.table != "")
        if shown.seat is None:
            app.seat = None  # a spectator: the feed's frames, no moves
        client.feed.put_nowait(shown.version)
        await until(pilot, lambda: app.frame is not None and app.frame.version == shown.version)
        text = await settled(pilot, app)
    path = SNAPSHOTS / f"{game}-{name}-{lang}-{size[0]}x{size[1]}.txt"
    if os.environ.get("TABLEHALL_UPDATE_SNAPSHOTS") or not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"the screen differs from {path.name}:\n{text}"


async def test_a_table_that_just_started_is_waited_for_and_the_chat_is_shown() -> None:
    shown = view(4, puzzipolia_state(), (LegalMove(Command("puzzipolia", "roll")),), decisions=(decision(0),))
    client = ScriptedClient("puzzipolia", NAMES, {4: shown})
    client.missing_at_first = 3  # the match writes the table's first events a moment after the start
    app = TableApp(client, PlayPlan("puzzipolia", 3, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.table != "")
        client.feed.put_nowait(4)
        await until(pilot, lambda: app.frame is not None and app.frame.version == 4)
        assert client.missing_at_first == 0 and not app.notice.startswith("Connection")
        await pilot.press("/")
        await until(pilot, lambda: len(app.screen_stack) > 1)
        await pilot.press("h", "i", "enter")
        await until(pilot, lambda: [m.text for m in app.chat_lines] == ["hi"], steps=4000)
        await pilot.pause(0.05)
        assert "💬 Ann: hi" in screen_text(app)


async def test_a_dialog_whose_move_is_gone_is_closed() -> None:
    client = ScriptedClient("puzzipolia", NAMES, {1: _auction(1), 2: _auction(2)})
    app = TableApp(client, PlayPlan("puzzipolia", 3, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.table != "")
        client.feed.put_nowait(1)
        await until(pilot, lambda: app.frame is not None and app.frame.version == 1)
        await pilot.press("a")  # the bid dialog, from 102
        await until(pilot, lambda: len(app.screen_stack) > 1)
        client.feed.put_nowait(2)  # someone bid 102: the range is now from 103
        await until(pilot, lambda: app.frame is not None and app.frame.version == 2)
        await until(pilot, lambda: len(app.screen_stack) == 1)
        assert app.notice == "The table moved on while you chose: choose again."
        assert client.submitted == []


async def test_a_magnates_player_moves_a_piece_from_the_chooser_the_descriptors_made() -> None:
    shown = _magnates_states()["move"]
    client = ScriptedClient("magnates", NAMES[:3], {shown.version: shown})
    app = TableApp(client, PlayPlan("magnates", 2, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.table != "")
        client.feed.put_nowait(shown.version)
        await until(pilot, lambda: app.frame is not None and bool(app.moves))
        keys = {m.key: m for m in app.moves}
        assert set(keys) == {"m", "x"}
        # the chooser holds every end cell of every piece the descriptors offer, and nothing else
        offered = [(m.command.args["piece"], v) for m in shown.moves if m.parameters for v in m.parameters[0].values]
        assert [(c.args["piece"], c.args["to"]) for c in keys["m"].commands] == sorted(
            offered, key=lambda pv: (["PIECE_QUEEN", "PIECE_ROOK", "PIECE_BISHOP", "PIECE_KNIGHT"].index(pv[0]), pv[1])
        )
        await pilot.press("m")
        await until(pilot, lambda: len(app.screen_stack) > 1)
        await pilot.press("down", "enter")
        await until(pilot, lambda: bool(client.submitted) and not app.busy)
    version, command = client.submitted[-1]
    assert version == shown.version and command == keys["m"].commands[1]
    assert not app.notice.startswith("Refused")


async def test_a_key_that_is_no_move_says_so_and_which_keys_are() -> None:
    shown = view(1, puzzipolia_state(), (LegalMove(Command("puzzipolia", "roll")),), decisions=(decision(0),))
    client = ScriptedClient("puzzipolia", NAMES, {1: shown})
    app = TableApp(client, PlayPlan("puzzipolia", 3, "ann"), "ru")  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.table != "")
        client.feed.put_nowait(1)
        await until(pilot, lambda: app.frame is not None and [m.key for m in app.moves] == ["r"])
        await pilot.press("z")
        assert app.notice == "«z» — сейчас не ход. Ваши клавиши: r"
        assert client.submitted == []
        await pilot.press("r")  # a move key still plays
        await until(pilot, lambda: client.submitted != [])


async def test_the_title_names_the_whole_table_and_the_seat_holds_presence_once_shown() -> None:
    shown = view(1, puzzipolia_state(), (LegalMove(Command("puzzipolia", "roll")),), decisions=(decision(0),))
    client = ScriptedClient("puzzipolia", NAMES, {1: shown})
    app = TableApp(client, PlayPlan("puzzipolia", 3, "ann"), "en")  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.table != "")
        assert client.presence_holds == 0  # nothing shown yet: the first clock waits
        client.feed.put_nowait(1)
        await until(pilot, lambda: app.frame is not None and client.presence_holds == 1)
        assert app.table.removeprefix("tables/") in app.title_text
