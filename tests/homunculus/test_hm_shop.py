"""The shop, first part: buying (any number, on your turn, gold, 4 slots; the domino to the
hand), one item per turn with the turn going on, and the eight items implemented."""

from __future__ import annotations

from hm_helpers import board, cell, refused, when, with_mines

from homunculus import commands as c
from homunculus.state import PlacedDomino
from tablehall_boards import Kind
from tablehall_boards.dominoes import tile


def test_buying_costs_gold_fills_slots_and_keeps_the_turn() -> None:
    s = board(2)
    _, s2 = when(s, c.BuyItem("boots"))
    assert s2.gold[0] == 25 and s2.inventory[0] == ["boots"] and s2.turn == 0 and s2.phase == "action"
    s2.inventory[0] = ["boots"] * 4
    assert refused(s2, c.BuyItem("medicine"), reason="INVENTORY_FULL")
    s2.gold[0] = 2
    assert refused(s2, c.BuyItem("sledgehammer"), reason="NOT_ENOUGH_GOLD")
    assert refused(s, c.BuyItem("boots"), seat=1, reason="NOT_YOUR_TURN")
    assert refused(s, c.BuyItem("laser"), reason="NO_SUCH_ITEM")


def test_a_bought_domino_goes_to_the_hand_at_most_four() -> None:
    s = board(2)
    _, after = when(s, c.BuyItem("domino"))
    assert len(after.domino_hands[0]) == 4 and after.gold[0] == 27 and after.inventory[0] == []
    assert refused(after, c.BuyItem("domino"), reason="NO_ROOM_FOR_TILE")


def test_one_item_per_turn_and_the_turn_goes_on() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0)})
    s.inventory[0] = ["boots", "chameleon"]
    _, after = when(s, c.UseItem("boots", origin=cell("d4"), target=cell("d9")))
    assert after.pieces[cell("d9")].kind == Kind.ROOK and after.turn == 0 and after.inventory[0] == ["chameleon"]
    assert refused(after, c.UseItem("chameleon", colour=2), reason="ITEM_ALREADY_USED")
    _, nxt = when(after, c.DrawCard())
    assert nxt.phase == "after_draw"


def test_boots_move_by_chess_rules_and_land_on_mines() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0)}), ("d7", None))
    s.inventory[0] = ["boots"]
    assert refused(s, c.UseItem("boots", origin=cell("d4"), target=cell("e5")), reason="NO_SUCH_MOVE")
    _, after = when(s, c.UseItem("boots", origin=cell("d4"), target=cell("d7")))
    assert cell("d7") not in after.pieces and after.mines == []


def test_teleport_to_an_empty_cell() -> None:
    s = board(2, pieces={"d4": (Kind.KNIGHT, 0), "k11": (Kind.PAWN, 1)})
    s.inventory[0] = ["teleport"]
    _, after = when(s, c.UseItem("teleport", origin=cell("d4"), target=cell("m7")))
    assert after.pieces[cell("m7")].kind == Kind.KNIGHT and cell("m7") in after.opened
    assert refused(s, c.UseItem("teleport", origin=cell("d4"), target=cell("k11")), reason="BAD_TELEPORT")


def test_medicine_heals_the_wounded_king() -> None:
    s = board(2)
    s.inventory[0] = ["medicine"]
    assert refused(s, c.UseItem("medicine"), reason="KING_NOT_WOUNDED")
    s.wounded[0] = True
    assert not when(s, c.UseItem("medicine"))[1].wounded[0]


def test_sledgehammer_breaks_any_enemy_tile() -> None:
    s = board(2)
    s.dominoes = [PlacedDomino(1, 1, 6, 6, cell("f6"), cell("g6")), PlacedDomino(2, 0, 1, 1, cell("f8"), cell("g8"))]
    s.inventory[0] = ["sledgehammer"]
    _, after = when(s, c.UseItem("sledgehammer", origin=cell("g6")))
    assert [d.id for d in after.dominoes] == [2] and tile(6, 6) in after.removed_tiles
    assert refused(s, c.UseItem("sledgehammer", origin=cell("f8")), reason="NO_ENEMY_TILE")


def test_new_hand_chameleon_castling() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0), "e4": (Kind.QUEEN, 0)})
    s.inventory[0] = ["new_hand", "chameleon", "castling"]
    old = list(s.hands[0])
    _, fresh_hand = when(s, c.UseItem("new_hand"))
    assert len(fresh_hand.hands[0]) == len(old) and list(fresh_hand.deck.discard_pile[: len(old)]) == old
    assert when(s, c.UseItem("chameleon", colour=3))[1].colour == 3
    _, swapped = when(s, c.UseItem("castling", origin=cell("d4"), target=cell("e4")))
    assert swapped.pieces[cell("d4")].kind == Kind.QUEEN and swapped.pieces[cell("e4")].kind == Kind.ROOK
    assert refused(s, c.UseItem("chameleon", colour=3, origin=cell("d4")), reason="UNUSED_FIELDS")
