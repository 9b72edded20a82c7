"""Dominoes: placing, walls, knights jumping them, bridges, piercing, linking, tiles for
captures, a tile on a hidden mine."""

from __future__ import annotations

from hm_helpers import board, cell, refused, when, with_mines, with_top

from homunculus import commands as c
from homunculus import events as e
from homunculus.board import moves_of
from homunculus.cards import Card
from homunculus.state import CONTINUE, PlacedDomino, State
from tablehall_boards import Kind
from tablehall_boards.dominoes import tile

ROOK0 = Card(0, "rook")


def targets(s: State, player: int, origin: str) -> set[str]:
    from tablehall_boards import cross

    g = cross.grid()
    return {g.name_of(m.target) for m in moves_of(s, player) if m.origin == cell(origin)}


def lay(s: State, owner: int, first: int, second: int, a: str, b: str) -> None:
    s.dominoes.append(PlacedDomino(len(s.dominoes) + 10, owner, first, second, cell(a), cell(b)))
    s.next_domino_id = len(s.dominoes) + 10


def test_a_tile_goes_on_two_adjacent_empty_cells() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0)})
    s.domino_hands[0] = [tile(2, 5)]
    _events, after = when(s, c.PlaceDomino(2, 5, [cell("f6"), cell("f7")]))
    assert [(d.first, d.second, d.cell_a, d.cell_b) for d in after.dominoes] == [(2, 5, cell("f6"), cell("f7"))]
    assert after.domino_hands[0] == [] and after.turn == 1
    assert refused(s, c.PlaceDomino(2, 5, [cell("f6"), cell("g7")]), reason="CELLS_NOT_ADJACENT")
    assert refused(s, c.PlaceDomino(2, 5, [cell("d4"), cell("d5")]), reason="CELLS_NOT_EMPTY")
    assert refused(s, c.PlaceDomino(1, 5, [cell("f6"), cell("f7")]), reason="TILE_NOT_IN_HAND")
    assert refused(s, c.PlaceDomino(5, 2, [cell("f6"), cell("f7")]), reason="NO_SUCH_TILE")


def test_an_enemy_tile_is_a_wall_a_knight_jumps_it() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0), "f5": (Kind.KNIGHT, 0)})
    lay(s, 1, 6, 6, "d6", "e6")
    assert {"d5"} == {t for t in targets(s, 0, "d4") if t[0] == "d" and int(t[1:]) > 4}
    assert "e7" in targets(s, 0, "f5")  # over the wall
    assert "e6" not in targets(s, 0, "f5")  # but not onto a half it cannot pierce


def test_an_own_or_allied_tile_is_a_bridge_nobody_stands_on() -> None:
    s = board(4, teams=True, pieces={"d4": (Kind.ROOK, 0)})
    lay(s, 2, 6, 6, "d6", "e6")  # the ally's
    up = {t for t in targets(s, 0, "d4") if t[0] == "d" and int(t[1:]) > 4}
    assert "d5" in up and "d7" in up and "d11" in up and "d6" not in up


def test_piercing_by_strength_removes_the_whole_tile() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0), "g4": (Kind.PAWN, 0)})
    lay(s, 1, 5, 6, "d6", "e6")
    lay(s, 1, 1, 2, "h5", "i5")
    assert "d6" in targets(s, 0, "d4")  # rook 5 ≥ 5
    assert "h5" in targets(s, 0, "g4")  # pawn 1 ≥ 1, diagonally forward
    s2 = board(2, pieces={"d4": (Kind.BISHOP, 0)})
    lay(s2, 1, 4, 4, "e5", "f5")
    assert "e5" not in targets(s2, 0, "d4")  # bishop 3 < 4
    s.hands[0] = [ROOK0, ROOK0]
    with_top(s, Card(1, "pawn"))
    events, after = when(s, c.PlayCard(0, "rook", origin=cell("d4"), target=cell("d6")))
    assert e.DominoRemoved(10, "pierced") in events
    assert after.pieces[cell("d6")].kind == Kind.ROOK and len(after.dominoes) == 1
    assert tile(5, 6) in after.removed_tiles


def test_linking_continues_the_turn() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0)})
    lay(s, 1, 3, 4, "f6", "g6")
    s.domino_hands[0] = [tile(1, 4), tile(0, 2)]
    _, after = when(s, c.PlaceDomino(1, 4, [cell("i6"), cell("h6")]))  # 4 on h6 touches 4 on g6
    assert after.phase == CONTINUE and after.turn == 0
    _, more = when(after, c.PlaceDomino(0, 2, [cell("k10"), cell("k11")]))
    assert more.turn == 1
    _, ended = when(after, c.EndTurn())
    assert ended.turn == 1


def test_no_link_ends_the_turn() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0)})
    lay(s, 1, 3, 4, "f6", "g6")
    s.domino_hands[0] = [tile(1, 3)]
    _, after = when(s, c.PlaceDomino(1, 3, [cell("i6"), cell("h6")]))  # 3 on h6 next to a 4
    assert after.turn == 1


def test_taking_a_non_pawn_takes_a_tile_at_most_four() -> None:
    s = board(2, pieces={"d4": (Kind.ROOK, 0), "d9": (Kind.KNIGHT, 1), "d3": (Kind.PAWN, 1)})
    s.hands[0] = [ROOK0, ROOK0]
    with_top(s, Card(1, "pawn"))
    s.domino_hands[0] = [tile(0, 0)]
    _events, after = when(s, c.PlayCard(0, "rook", origin=cell("d4"), target=cell("d9")))
    assert len(after.domino_hands[0]) == 2 and len(after.bazaar) == len(s.bazaar) - 1
    assert after.gold[0] == 32
    s.domino_hands[0] = [tile(0, 0)] * 4
    _, full = when(s, c.PlayCard(0, "rook", origin=cell("d4"), target=cell("d9")))
    assert len(full.domino_hands[0]) == 4
    s.domino_hands[0] = []
    _, pawn = when(s, c.PlayCard(0, "rook", origin=cell("d4"), target=cell("d3")))
    assert pawn.domino_hands[0] == [] and pawn.gold[0] == 31


def test_a_tile_on_a_hidden_mine_explodes_with_it() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0)}), ("g7", None))
    s.domino_hands[0] = [tile(2, 5)]
    events, after = when(s, c.PlaceDomino(2, 5, [cell("g6"), cell("g7")]))
    assert e.MineExploded(cell("g7"), None) in events
    assert after.dominoes == [] and after.mines == [] and tile(2, 5) in after.removed_tiles
    assert after.turn == 1
