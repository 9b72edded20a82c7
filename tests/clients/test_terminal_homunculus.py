"""Гомункул's terminal plug-in builds its words from the view alone: the shop's prices, names and
effects (`shop`) and the ring's square names and money (`ring_squares`) come from the engine's
view, never from a copy of the rules in the client."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import msgspec
from rich.console import Group

from homunculus import commands as hc
from homunculus.game import GAME
from tablehall_rules import DecideContext, Viewer
from tablehall_rules import conformance as kit
from tablehall_sdk import Command
from tablehall_terminal.frame import Frame
from tablehall_terminal.plugins.homunculus import texts
from tablehall_terminal.plugins.homunculus.plugin import PLUGIN

BALTIC, ORIENTAL, SHORT_LINE = 3, 6, 35


def _view(**ring: Any) -> dict[str, Any]:
    """Seat 0's view of a dealt four-player table, the ring's state changed by `ring`."""
    state, _, _ = kit.start(GAME, {}, kit.seats_for(4), b"terminal-homunculus")
    for key, value in ring.items():
        setattr(state.ring, key, value)
    seen: dict[str, Any] = json.loads(msgspec.json.encode(GAME.view(state, Viewer.of_seat(0))))
    return seen


def _frame(state: Mapping[str, Any]) -> Frame:
    return Frame("t1", "homunculus", 7, 0, state, (), (), (), False, None, names=("Ann", "Bot 1", "Bot 2", "Bot 3"))


def _lines(frame: Frame, lang: str = "en", width: int = 72, height: int = 40) -> list[str]:
    board = PLUGIN.board(frame, lang, width, height)
    assert isinstance(board, Group)
    return [getattr(r, "plain", "") for r in board.renderables]


def test_the_shop_words_are_the_views_not_a_copy_in_the_client() -> None:
    assert not hasattr(texts, "PRICES")
    seen = _view()
    boots = next(item for item in seen["shop"] if item["item"] == "boots")
    assert boots["price"] == 5 and boots["ru"] == "Сапоги" and boots["effect_en"]
    buy = Command("homunculus", "buy_item", {"item": "boots"})
    assert PLUGIN.describe(buy, _frame(seen), "ru") == "Сапоги (5): " + boots["effect_ru"]
    # the client says whatever the view says: a changed price or name shows as it is
    boots.update(price=77, en="Seven-league boots")
    said = PLUGIN.describe(buy, _frame(seen), "en")
    assert said.startswith("Seven-league boots (77): ")
    seen["inventory"][1] = ["boots"]
    assert PLUGIN.item_name(seen, "en", "boots") == "Seven-league boots"


def test_the_ring_names_its_squares_owners_and_buildings_from_the_view() -> None:
    owners = [-1] * 40
    owners[BALTIC], owners[ORIENTAL], owners[SHORT_LINE] = 0, 0, 2
    buildings = [0] * 40
    buildings[BALTIC] = 2
    mortgaged = [False] * 40
    mortgaged[ORIENTAL] = True
    seen = _view(owners=owners, buildings=buildings, mortgaged=mortgaged, positions=[BALTIC, 0, 10, 10])
    frame = _frame(seen)
    lines = _lines(frame)
    ring = next(line for line in lines if line.startswith("Ring: "))
    assert "1 Baltic Av." in ring and "2 Start" in ring and "3,4 Dungeon" in ring and "(held)" not in ring
    lots = [line for line in lines if line.startswith("Lots ")]
    assert lots == ["Lots 1 Baltic Av.[2], Oriental Av.[z]", "Lots 3 Short Line"]
    build = Command("homunculus", "build", {"square": BALTIC})
    assert PLUGIN.describe(build, frame, "en") == "build on Baltic Avenue (5)"
    redeem = Command("homunculus", "redeem", {"square": ORIENTAL})
    assert PLUGIN.describe(redeem, frame, "ru") == "выкупить Восточный проспект (6)"
    # little room: every owner on one line
    assert [line for line in _lines(frame, height=19) if line.startswith("Lots")] == [
        "Lots: 1 Baltic Av.[2],Oriental Av.[z] 3 Short Line"
    ]


def test_an_auction_and_a_purchase_name_the_lot_and_its_price() -> None:
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), b"terminal-homunculus")
    state.ring.buy_square = ORIENTAL
    state.phase = "buy"
    seen = json.loads(msgspec.json.encode(GAME.view(state, Viewer.of_seat(0))))
    assert [line.plain for line in PLUGIN.details(_frame(seen), "en")][-1] == "Ann may buy Oriental Avenue for 10"
    for event in GAME.decide(state, hc.DeclineLot(), DecideContext(0, kit.START_MS, source)):
        state = GAME.evolve(state, event)
    seen = json.loads(msgspec.json.encode(GAME.view(state, Viewer.of_seat(0))))
    shown = [line.plain for line in PLUGIN.details(_frame(seen), "ru")]
    assert "Аукцион: Восточный проспект (цена 10), ставок нет" in shown
