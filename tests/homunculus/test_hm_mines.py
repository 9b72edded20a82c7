"""Minesweeper: opening cells, numbers, zeros opening the 5×5, mines killing, kings wounded,
own and allied mines, gold for an enemy blown up on your mine, hidden mines in views."""

from __future__ import annotations

from hm_helpers import board, cell, refused, when, with_mines, with_top
from hypothesis import given
from hypothesis import strategies as st

from homunculus import commands as c
from homunculus import events as e
from homunculus.cards import Card
from homunculus.game import GAME
from homunculus.rules.mines import number_at, numbers, square5
from homunculus.state import Mine, State
from tablehall_boards import Kind, Piece
from tablehall_rules import Viewer

ROOK0 = Card(0, "rook")


def rook_to(s: State, origin: str, target: str) -> tuple[list[object], State]:
    s.hands[s.turn] = [Card(s.arms[s.turn], "rook")] * 2
    with_top(s, Card(1, "pawn"))
    return when(s, c.PlayCard(s.arms[s.turn], "rook", origin=cell(origin), target=cell(target)))  # type: ignore[return-value]


def test_landing_opens_the_cell_with_its_number() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0)}), ("f5", None), ("e3", None))
    _, after = rook_to(s, "d4", "e4")
    assert cell("e4") in after.opened
    seen = GAME.view(after, Viewer.of_seat(1))
    assert seen["numbers"] == {str(cell("e4")): 2} and seen["mines"] == [] and seen["mine_count"] == 2


def test_a_zero_opens_the_mine_free_5x5_without_cascade() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0)}), ("f9", None))
    _, after = rook_to(s, "d4", "d8")
    expected = {x for x in square5(cell("d8")) if x != cell("f9")}
    assert set(after.opened) == expected
    assert cell("d11") not in after.opened  # no cascade from the zeros at the edge


def test_passing_over_a_mine_is_harmless_a_piece_landing_on_one_dies() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0)}), ("d6", None))
    _, passed = rook_to(s, "d4", "d8")
    assert passed.pieces[cell("d8")].kind == Kind.ROOK and len(passed.mines) == 1
    events, blown = rook_to(s, "d4", "d6")
    assert e.MineExploded(cell("d6"), None) in events
    assert cell("d6") not in blown.pieces and blown.mines == [] and blown.gold[0] == 30
    assert not [ev for ev in events if isinstance(ev, e.GoldPaid) and ev.reason in ("mine", "capture")]


def test_a_king_is_wounded_by_the_first_mine_killed_by_the_second() -> None:
    s = with_mines(board(2, pieces={"e4": (Kind.KING, 0), "h9": (Kind.KING, 1)}), ("e5", None), ("e6", None))
    s.hands[0] = [Card(0, "king")] * 3
    with_top(s, Card(1, "pawn"))
    _, hurt = when(s, c.PlayCard(0, "king", origin=cell("e4"), target=cell("e5")))
    assert hurt.wounded[0] and hurt.pieces[cell("e5")].kind == Kind.KING and hurt.alive[0]
    hurt.turn, hurt.phase = 0, "action"
    _, dead = when(hurt, c.PlayCard(0, "king", origin=cell("e5"), target=cell("e6")))
    assert not dead.alive[0] and dead.finished


def test_own_and_allied_mines_are_seen_and_taken_off() -> None:
    s = with_mines(board(4, teams=True, pieces={"d4": (Kind.ROOK, 0)}), ("d6", 2), ("d8", 1))
    assert GAME.view(s, Viewer.of_seat(0))["mines"] == [[cell("d6"), 2]]
    assert GAME.view(s, Viewer.of_seat(2))["mines"] == [[cell("d6"), 2]]
    assert GAME.view(s, Viewer.of_seat(3))["mines"] == [[cell("d8"), 1]]
    assert GAME.view(s, Viewer.spectator())["mines"] == []
    events, after = rook_to(s, "d4", "d6")
    assert e.MineCleared(cell("d6")) in events and after.pieces[cell("d6")].kind == Kind.ROOK
    assert [m.cell for m in after.mines] == [cell("d8")]


def test_an_enemy_blown_up_on_your_mine_pays_you_gold() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0)}), ("d6", 1))
    events, after = rook_to(s, "d4", "d6")
    assert cell("d6") not in after.pieces and after.gold[0] == 30
    assert [ev for ev in events if isinstance(ev, e.GoldPaid) and ev.reason == "mine"] == [e.GoldPaid(1, 3, "mine")]


@given(st.sets(st.integers(0, 159), max_size=20), st.sets(st.integers(0, 159), max_size=60))
def test_the_views_numbers_are_each_opened_cells_count_of_mines_around(mined: set[int], opened: set[int]) -> None:
    s = board(2)
    s.mines = [Mine(x) for x in sorted(mined)]
    s.opened = sorted(opened)
    assert numbers(s) == {x: number_at(s, x) for x in s.opened}


# --- every way a piece comes to stand on a cell opens it («Фигура, вставшая на клетку, открывает её»)


def test_a_capture_opens_the_cell_and_once_the_taker_leaves_no_mine_goes_there() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0), "d8": (Kind.PAWN, 1)}), ("e9", None))
    events, after = rook_to(s, "d4", "d8")
    assert e.CellsOpened([cell("d8")]) in events
    assert GAME.view(after, Viewer.of_seat(1))["numbers"] == {str(cell("d8")): 1}
    after.pieces[cell("a11")] = after.pieces.pop(cell("d8"))  # the taker has gone on
    after.turn, after.phase, after.inventory[1] = 1, "action", ["mine"]
    assert refused(after, c.UseItem("mine", target=cell("d8")), seat=1, reason="BAD_MINE_CELL")


def test_a_capture_on_a_zero_opens_the_mine_free_5x5() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0), "d8": (Kind.KNIGHT, 1)}), ("f9", None))
    _, after = rook_to(s, "d4", "d8")
    assert after.pieces[cell("d8")] == Piece(Kind.ROOK, 0)
    assert set(after.opened) == {x for x in square5(cell("d8")) if x != cell("f9")}


def test_a_pawn_taking_onto_its_promotion_row_opens_the_cell() -> None:
    s = with_mines(board(2, pieces={"e7": (Kind.PAWN, 0), "f8": (Kind.PAWN, 1)}), ("g9", None))
    s.hands[0] = [Card(0, "pawn")] * 2
    with_top(s, Card(1, "rook"))
    _, after = when(s, c.PlayCard(0, "pawn", origin=cell("e7"), target=cell("f8")))
    assert after.pieces[cell("f8")] == Piece(Kind.QUEEN, 0) and cell("f8") in after.opened
    assert number_at(after, cell("f8")) == 1


def test_the_castling_swap_opens_both_cells() -> None:
    s = with_mines(board(2, pieces={"d4": (Kind.ROOK, 0), "h9": (Kind.QUEEN, 0)}), ("g10", None), ("f6", None))
    s.inventory[0] = ["castling"]
    _, after = when(s, c.UseItem("castling", origin=cell("d4"), target=cell("h9")))
    assert after.pieces[cell("h9")] == Piece(Kind.ROOK, 0) and after.pieces[cell("d4")] == Piece(Kind.QUEEN, 0)
    assert GAME.view(after, Viewer.of_seat(1))["numbers"][str(cell("h9"))] == 1  # g10 is next to it
    assert set(after.opened) == {cell("h9")} | {x for x in square5(cell("d4")) if x != cell("f6")}  # d4 is a zero
