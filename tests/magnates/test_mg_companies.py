"""Companies: buying (the King perimeter ones, pieces inner ones), fines (20 %, doubled for a whole
sector/quarter/Сити, ×2.5/×5/×7.5 at levels 1/2/3), paying or raiding an enemy inner Company."""

from __future__ import annotations

import pytest
from mg_helpers import cell, clear_pieces, king_at, of, own, put

from magnates import board
from magnates import commands as c
from magnates import events as e
from magnates.game import GAME
from magnates.rules.worth import fine
from magnates.state import State
from tablehall_rules.testing import Table


def piece_turn(blue: int, kind: str, at: str) -> Table[State]:
    table = Table(GAME)
    state = table.state
    clear_pieces(state)
    king_at(state, 0, 2)
    king_at(state, 1, 11)
    put(state, 0, kind, at)
    put(state, 1, "knight", "h8")
    state.phase, state.white, state.blue = "move", 1, blue
    return table


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
    state = Table(GAME).state
    for name in cells:
        own(state, name, 1)
    state.level[cell(cells[0])] = level
    assert fine(state, cell(cells[0])) == expected


def test_a_group_held_by_two_owners_is_not_whole() -> None:
    state = Table(GAME).state
    for name in ("a2", "a4", "a6"):
        own(state, name, 1)
    own(state, "a8", 0)
    assert fine(state, cell("a2")) == 60


def test_a_piece_buys_an_unowned_inner_company() -> None:
    table = piece_turn(2, "rook", "d2")
    table.play(c.MovePiece(piece="rook", to=cell("d4")))
    assert table.state.phase == "piece_stop" and table.legal() == [c.BuyCompany(), c.EndStop()]
    table.play(c.BuyCompany())
    assert table.state.owner[cell("d4")] == 0 and table.state.players[0].cash == 4200
    assert table.state.turn == 1


def test_a_piece_may_decline_the_company() -> None:
    table = piece_turn(2, "rook", "d2")
    table.play(c.MovePiece(piece="rook", to=cell("d4")))
    table.play(c.EndStop())
    assert table.state.owner[cell("d4")] == -1 and table.state.turn == 1


def test_no_purchase_offered_beyond_the_cash() -> None:
    table = piece_turn(2, "rook", "d2")
    state = table.state
    state.players[0].cash = 799
    table.play(c.MovePiece(piece="rook", to=cell("d4")))
    assert table.state.owner[cell("d4")] == -1 and table.state.turn == 1


def test_a_piece_on_its_own_company_does_nothing() -> None:
    table = piece_turn(2, "rook", "d2")
    state = table.state
    own(state, "d4", 0)
    events = table.play(c.MovePiece(piece="rook", to=cell("d4")))
    assert table.state.turn == 1 and not of(events, e.Paid)


def test_a_piece_on_an_enemy_company_pays_the_fine_or_raids() -> None:
    table = piece_turn(2, "rook", "d2")
    state = table.state
    own(state, "d4", 1)
    table.play(c.MovePiece(piece="rook", to=cell("d4")))
    assert table.state.phase == "fine" and table.legal() == [c.PayFine(), c.Raid()]
    paid = table.play(c.PayFine())
    assert [(p.payer, p.payee, p.amount) for p in of(paid, e.Paid)] == [(0, 1, 160)]
    assert table.state.turn == 1


def test_a_raid_strictly_higher_takes_the_company_with_its_level() -> None:
    table = piece_turn(2, "rook", "d2")
    state = table.state
    own(state, "d4", 1, level=1)
    table.play(c.MovePiece(piece="rook", to=cell("d4")))
    events = table.play(c.Raid(), dice=(5, 4))  # 6 > 5
    assert table.state.owner[cell("d4")] == 0 and table.state.level[cell("d4")] == 1
    assert table.state.players[0].pieces["rook"] == cell("d4")
    assert not of(events, e.Paid)


def test_a_failed_raid_loses_the_raider_and_no_fine_is_paid() -> None:
    table = piece_turn(2, "rook", "d2")
    state = table.state
    own(state, "d4", 1, level=1)
    table.play(c.MovePiece(piece="rook", to=cell("d4")))
    events = table.play(c.Raid(), dice=(4, 4))  # 5 = 5
    assert table.state.owner[cell("d4")] == 1
    assert "rook" not in table.state.players[0].pieces
    assert not of(events, e.Paid) and table.state.players[0].cash == 5000


def test_the_queen_raids_with_power_2() -> None:
    table = piece_turn(2, "queen", "d2")
    state = table.state
    own(state, "d4", 1, level=2)
    table.play(c.MovePiece(piece="queen", to=cell("d4")))
    table.play(c.Raid(), dice=(1, 1))  # 1 + 2 against 1 + 2: a tie fails
    assert table.state.owner[cell("d4")] == 1
    table = piece_turn(2, "queen", "d2")
    state = table.state
    own(state, "d4", 1, level=2)
    table.play(c.MovePiece(piece="queen", to=cell("d4")))
    table.play(c.Raid(), dice=(2, 1))  # 4 > 3
    assert table.state.owner[cell("d4")] == 0


def test_a_piece_cannot_stop_on_a_perimeter_company() -> None:
    table = piece_turn(1, "rook", "b4")
    assert board.square(cell("a4")).is_company
    table.refused(c.MovePiece(piece="rook", to=cell("a4")), "CANNOT_MOVE_THERE")
