"""Journal lines (ru/en; drawn cards and taken tiles only for their owner) and standings."""

from __future__ import annotations

from hm_helpers import board, cell, fresh, when, with_top

from homunculus import commands as c
from homunculus.cards import Card
from homunculus.game import GAME
from tablehall_boards import Kind


def test_a_draw_names_the_cards_only_to_the_drawer() -> None:
    s = fresh(2)
    events, _ = when(s, c.DrawCard())
    lines = [line for ev in events for line in GAME.journal(s, ev)]
    public = [line for line in lines if line.audience is None and line.code == "CARDS_DRAWN"]
    private = [line for line in lines if line.code == "CARDS_DRAWN_OWN"]
    assert len(public) == 1 and "cards" not in public[0].params and public[0].ru and public[0].en
    assert len(private) == 1 and private[0].audience == [0] and len(private[0].params["cards"]) == 1


def test_standings_live_by_strength_then_the_last_out_best() -> None:
    s = board(3, pieces={"d5": (Kind.QUEEN, 0), "h9": (Kind.KING, 1), "g14": (Kind.KING, 2), "e4": (Kind.ROOK, 2)})
    assert GAME.standings(s) == [[0], [2], [1]]  # 9+4, 4+5, 4
    s.hands[0] = [Card(0, "queen")] * 2
    with_top(s, Card(1, "pawn"))
    _, after = when(s, c.PlayCard(0, "queen", origin=cell("d5"), target=cell("h9")))
    assert GAME.standings(after) == [[0], [2], [1]] and not after.alive[1]


def test_the_shop_writes_who_bought_and_used_what_for_everybody() -> None:
    s = fresh(2)
    events, bought = when(s, c.BuyItem("chameleon"))
    lines = [line for ev in events for line in GAME.journal(s, ev)]
    assert [(x.code, x.params, x.audience) for x in lines] == [
        ("ITEM_BOUGHT", {"seat": 0, "item": "chameleon", "price": 4}, None)
    ]
    name = s.names[0]  # the seat's name, from the table's seats
    assert lines[0].ru == f"{name} купил в лавке: Хамелеон за 4." and lines[0].en == f"{name} bought Chameleon for 4."
    events, _ = when(bought, c.UseItem("chameleon", colour=2))
    used = [line for ev in events for line in GAME.journal(bought, ev) if line.code == "ITEM_USED"]
    assert len(used) == 1 and used[0].params == {"seat": 0, "item": "chameleon"} and used[0].ru and used[0].en
