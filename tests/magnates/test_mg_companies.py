"""Companies: buying (the King perimeter ones, pieces inner ones), fines (20 %, doubled for a whole
sector/quarter/Сити, ×2.5/×5/×7.5 at levels 1/2/3), paying or raiding an enemy inner Company."""

from __future__ import annotations

import pytest
from mg_helpers import cell, clear_pieces, given, king_at, legal, own, put, refused, when

from magnates import board
from magnates import commands as c
from magnates import events as e
from magnates.rules.worth import fine
from magnates.state import State


def piece_turn(blue: int, kind: str, at: str) -> State:
    state = given()
    clear_pieces(state)
    king_at(state, 0, 2)
    king_at(state, 1, 11)
    put(state, 0, kind, at)
    put(state, 1, "knight", "h8")
    state.phase, state.white, state.blue = "move", 1, blue
    return state


@pytest.mark.parametrize(
    ("cells", "level", "expected"),
    [
        (["a2"], 0, 60),
        (["a2", "a4", "a6", "a8"], 0, 120),  # the whole sector
        (["a2"], 1, 150),
        (["a2"], 2, 300),
        (["a2"], 3, 450),
        (["a2", "a4", "a6", "a8"], 3, 900),
        (["d4"], 0, 160),
        (["d4", "e4", "d5"], 0, 320),  # the whole south-west quarter
        (["e5"], 0, 240),
        (["e5", "f5", "e6", "f6"], 0, 480),  # the whole Сити
        (["e5", "f5", "e6", "f6"], 2, 2400),
    ],
)
def test_fine_is_20_percent_doubled_for_a_whole_group_and_raised_by_levels(
    cells: list[str], level: int, expected: int
) -> None:
    state = given()
    for name in cells:
        own(state, name, 1)
    state.level[cell(cells[0])] = level
    assert fine(state, cell(cells[0])) == expected


def test_a_group_held_by_two_owners_is_not_whole() -> None:
    state = given()
    for name in ("a2", "a4", "a6"):
        own(state, name, 1)
    own(state, "a8", 0)
    assert fine(state, cell("a2")) == 60


def test_a_piece_buys_an_unowned_inner_company() -> None:
    state = piece_turn(2, "rook", "d2")
    then = when(state, c.MovePiece(piece="rook", to=cell("d4")))
    assert then.state.phase == "piece_stop" and legal(then.state) == [c.BuyCompany(), c.EndStop()]
    then = when(then.state, c.BuyCompany())
    assert then.state.owner[cell("d4")] == 0 and then.state.players[0].cash == 4200
    assert then.state.turn == 1


def test_a_piece_may_decline_the_company() -> None:
    state = piece_turn(2, "rook", "d2")
    then = when(when(state, c.MovePiece(piece="rook", to=cell("d4"))).state, c.EndStop())
    assert then.state.owner[cell("d4")] == -1 and then.state.turn == 1


def test_no_purchase_offered_beyond_the_cash() -> None:
    state = piece_turn(2, "rook", "d2")
    state.players[0].cash = 799
    then = when(state, c.MovePiece(piece="rook", to=cell("d4")))
    assert then.state.owner[cell("d4")] == -1 and then.state.turn == 1


def test_a_piece_on_its_own_company_does_nothing() -> None:
    state = piece_turn(2, "rook", "d2")
    own(state, "d4", 0)
    then = when(state, c.MovePiece(piece="rook", to=cell("d4")))
    assert then.state.turn == 1 and not then.of(e.Paid)


def test_a_piece_on_an_enemy_company_pays_the_fine_or_raids() -> None:
    state = piece_turn(2, "rook", "d2")
    own(state, "d4", 1)
    then = when(state, c.MovePiece(piece="rook", to=cell("d4")))
    assert then.state.phase == "fine" and legal(then.state) == [c.PayFine(), c.Raid()]
    paid = when(then.state, c.PayFine())
    assert [(p.payer, p.payee, p.amount) for p in paid.of(e.Paid)] == [(0, 1, 160)]
    assert paid.state.turn == 1


def test_a_raid_strictly_higher_takes_the_company_with_its_level() -> None:
    state = piece_turn(2, "rook", "d2")
    own(state, "d4", 1, level=1)
    then = when(when(state, c.MovePiece(piece="rook", to=cell("d4"))).state, c.Raid(), dice=[5, 4])  # 6 > 5
    assert then.state.owner[cell("d4")] == 0 and then.state.level[cell("d4")] == 1
    assert then.state.players[0].pieces["rook"] == cell("d4")
    assert not then.of(e.Paid)


def test_a_failed_raid_loses_the_raider_and_no_fine_is_paid() -> None:
    state = piece_turn(2, "rook", "d2")
    own(state, "d4", 1, level=1)
    then = when(when(state, c.MovePiece(piece="rook", to=cell("d4"))).state, c.Raid(), dice=[4, 4])  # 5 = 5
    assert then.state.owner[cell("d4")] == 1
    assert "rook" not in then.state.players[0].pieces
    assert not then.of(e.Paid) and then.state.players[0].cash == 5000


def test_the_queen_raids_with_power_2() -> None:
    state = piece_turn(2, "queen", "d2")
    own(state, "d4", 1, level=2)
    then = when(
        when(state, c.MovePiece(piece="queen", to=cell("d4"))).state, c.Raid(), dice=[1, 1]
    )  # 1 + 2 against 1 + 2: a tie fails
    assert then.state.owner[cell("d4")] == 1
    state = piece_turn(2, "queen", "d2")
    own(state, "d4", 1, level=2)
    then = when(when(state, c.MovePiece(piece="queen", to=cell("d4"))).state, c.Raid(), dice=[2, 1])  # 4 > 3
    assert then.state.owner[cell("d4")] == 0


def test_a_piece_cannot_stop_on_a_perimeter_company() -> None:
    state = piece_turn(1, "rook", "b4")
    assert board.square(cell("a4")).is_company
    refused(state, c.MovePiece(piece="rook", to=cell("a4")), "CANNOT_MOVE_THERE")
