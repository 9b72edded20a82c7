"""The round die after every round: detonation, gold rush, reinforcements, reverse, minefield,
bazaar (each face forced through the table's draw source)."""

from __future__ import annotations

from hm_helpers import board, cell, end_round, with_mines

from homunculus import events as e
from homunculus.state import PlacedDomino
from tablehall_boards import Kind, cross
from tablehall_boards.dominoes import tile


def test_detonation_kills_around_wounds_kings_breaks_tiles() -> None:
    s = with_mines(board(2, pieces={"e5": (Kind.ROOK, 0), "f6": (Kind.KING, 1), "h9": (Kind.KING, 0)}), ("f5", None))
    s.dominoes = [PlacedDomino(3, 0, 1, 2, cell("g4"), cell("g3"))]
    _, after = end_round(s, 1)
    assert cell("e5") not in after.pieces and after.wounded[1] and after.pieces[cell("f6")].kind == Kind.KING
    assert after.dominoes == [] and tile(1, 2) in after.removed_tiles and after.mines == []


def test_detonation_kills_a_wounded_king() -> None:
    s = with_mines(board(2, pieces={"f6": (Kind.KING, 1), "h9": (Kind.KING, 0)}), ("f5", None))
    s.wounded[1] = True
    _, after = end_round(s, 1)
    assert after.finished and after.places == [[0], [1]]


def test_gold_rush_reinforcements_reverse() -> None:
    s = board(2)
    rush = end_round(s, 2)[0]  # then player 0's ring roll moves gold too
    assert [ev for ev in rush if isinstance(ev, e.GoldPaid)][:2] == [
        e.GoldPaid(0, 3, "gold_rush"),
        e.GoldPaid(1, 3, "gold_rush"),
    ]
    after = end_round(s, 3)[1]
    assert [len(h) for h in after.hands] == [len(h) + 1 for h in s.hands]
    assert end_round(s, 4)[1].direction == -1


def test_minefield_lays_two_hidden_mines_in_the_centre() -> None:
    s = board(2)
    _, after = end_round(s, 5)
    assert len(after.mines) == 2 and all(m.cell in cross.centre() and m.owner is None for m in after.mines)


def test_bazaar_gives_a_tile_to_each_with_room() -> None:
    s = board(2)
    s.domino_hands[0] = [tile(0, 0)] * 4
    s.domino_hands[1] = []
    _, after = end_round(s, 6)
    assert len(after.domino_hands[0]) == 4 and len(after.domino_hands[1]) == 1
