"""The King: clockwise exactly the White value, Banks pay for passing and stopping, extra moves on
a White 6 (at most twice more), buys perimeter Companies, is fined in enemy ones, never raids,
attacks only lone Kings and cannot be attacked while its owner has another piece."""

from __future__ import annotations

from mg_helpers import clear_pieces, king_at, of, own

from magnates import commands as c
from magnates import events as e
from magnates.board import cell_of_position
from magnates.game import GAME
from tablehall_rules.testing import Table


def test_roll_moves_the_king_clockwise_exactly_the_white_value_and_keeps_the_blue() -> None:
    table = Table(GAME)
    table.play(c.Roll(), dice=(3, 4))
    assert table.state.players[0].king == 3  # a4, an unowned Company
    assert (table.state.white, table.state.blue) == (3, 4)
    assert table.state.phase == "king_stop" and table.state.stop is not None and table.state.stop.company


def test_the_track_wraps_clockwise_past_j1_to_a1() -> None:
    table = Table(GAME)
    state = table.state
    king_at(state, 0, 34)
    table.play(c.Roll(), dice=(4, 1))
    assert table.state.players[0].king == 2  # 34 → 35 → 0 → 1 → 2


def test_passing_a_bank_pays_300() -> None:
    table = Table(GAME)
    state = table.state
    king_at(state, 0, 7)
    events = table.play(c.Roll(), dice=(4, 1))  # passes a10 (9), stops on c10 Субсидии (11)
    passes = [p for p in of(events, e.Paid) if p.reason == "bank_pass"]
    assert [(p.payee, p.amount) for p in passes] == [(0, 300)]


def test_stopping_on_a_bank_pays_600_not_the_pass_bonus() -> None:
    table = Table(GAME)
    state = table.state
    king_at(state, 0, 5)
    events = table.play(c.Roll(), dice=(4, 1))
    assert [(p.reason, p.amount) for p in of(events, e.Paid)] == [("bank_stop", 600)]
    assert table.state.players[0].cash == 5600


def test_a_white_six_moves_the_king_again_at_most_twice_more() -> None:
    table = Table(GAME)
    events = table.play(c.Roll(), dice=(6, 2, 6))  # a7 Субсидии, then again to d10 (a Company)
    assert [k.white for k in of(events, e.KingRolled)] == [6]
    assert table.state.players[0].king == 12 and table.state.phase == "king_stop"
    table.play(c.EndStop(), dice=(6,))  # the second extra move: j10 Bank
    assert table.state.players[0].king == 18 and table.state.extra_moves == 2
    assert table.state.phase == "move"  # no third extra move although the White shows 6


def test_no_extra_move_without_a_six() -> None:
    table = Table(GAME)
    events = table.play(c.Roll(), dice=(5, 2))
    assert not of(events, e.KingRolled)


def test_each_king_stop_of_a_turn_allows_one_piece_purchase() -> None:
    table = Table(GAME)
    state = table.state
    del state.players[0].pieces["queen"]
    del state.players[0].pieces["rook"]
    king_at(state, 0, 3)
    table.play(c.Roll(), dice=(6, 3))  # a10 Bank: a shop
    assert table.state.phase == "king_stop"
    offices = table.state.players[0]
    free_office = next(o for o in (3 + 10, 4 + 10, 5 + 10, 6 + 10) if o not in offices.pieces.values())
    table.play(c.BuyPiece(piece="rook", office=free_office), dice=(6,))  # on to g10 Санкции
    assert table.state.players[0].king == 15 and table.state.phase == "king_stop"
    other = next(o for o in (13, 14, 15, 16) if o not in table.state.players[0].pieces.values())
    table.play(c.BuyPiece(piece="queen", office=other), dice=(1,))  # the last extra move
    assert sorted(table.state.players[0].pieces) == ["bishop", "knight", "queen", "rook"]
    assert table.state.players[0].king == 16 and table.state.extra_moves == 2


def test_one_piece_per_stop() -> None:
    table = Table(GAME)
    state = table.state
    del state.players[0].pieces["queen"]
    del state.players[0].pieces["rook"]
    king_at(state, 0, 5)
    table.play(c.Roll(), dice=(4, 1))  # a10 Bank
    office = next(o for o in (13, 14, 15, 16) if o not in table.state.players[0].pieces.values())
    table.play(c.BuyPiece(piece="rook", office=office))
    assert table.state.phase == "move"  # the stop closed: its one purchase is used
    table.refused(c.BuyPiece(piece="queen", office=office), "NOT_NOW")


def test_the_king_buys_an_unowned_perimeter_company() -> None:
    table = Table(GAME)
    table.play(c.Roll(), dice=(3, 4))
    table.play(c.BuyCompany())
    assert table.state.owner[cell_of_position(3)] == 0
    assert table.state.players[0].cash == 5000 - 320


def test_declining_leaves_the_company_unowned() -> None:
    table = Table(GAME)
    table.play(c.Roll(), dice=(3, 4))
    table.play(c.EndStop())
    assert table.state.owner[cell_of_position(3)] == -1 and table.state.players[0].cash == 5000


def test_the_king_is_fined_in_an_enemy_company_and_cannot_raid() -> None:
    table = Table(GAME)
    state = table.state
    own(state, cell_of_position(3), 1)
    events = table.play(c.Roll(), dice=(3, 4))
    assert [(p.payer, p.payee, p.amount, p.reason) for p in of(events, e.Paid)] == [(0, 1, 64, "fine")]
    assert table.state.phase == "move"
    assert not any(isinstance(m, c.Raid) for m in table.legal())
    table.refused(c.Raid(), "NOT_NOW")


def test_the_king_cannot_attack_a_king_whose_owner_has_another_piece() -> None:
    table = Table(GAME)
    state = table.state
    king_at(state, 1, 3)
    table.play(c.Roll(), dice=(3, 4))
    assert not any(isinstance(m, c.AttackKing) for m in table.legal())
    table.refused(c.AttackKing(), "NO_KING_TO_ATTACK")


def test_a_king_attacks_a_lone_king_and_a_defeated_lone_king_eliminates_its_owner() -> None:
    table = Table(GAME)
    state = table.state
    clear_pieces(state, 1)
    king_at(state, 1, 3)
    state.players[1].cash = 1234
    table.play(c.Roll(), dice=(3, 4))
    assert any(isinstance(m, c.AttackKing) for m in table.legal())
    events = table.play(c.AttackKing(), dice=(5, 2))
    duel = of(events, e.DuelFought)[0]
    assert (duel.attacker_piece, duel.defender_piece, duel.attacker_won) == ("king", "king", True)
    assert not table.state.players[1].alive
    assert table.state.players[0].cash == 5000 + 1234  # the winner takes the loser's cash
    assert table.state.phase == "over" and table.state.places[0] == [0]


def test_lone_kings_attack_each_other_and_the_defender_wins_ties() -> None:
    table = Table(GAME)
    state = table.state
    clear_pieces(state)
    king_at(state, 1, 3)
    table.play(c.Roll(), dice=(3, 4))
    table.play(c.AttackKing(), dice=(4, 4))
    assert not table.state.players[0].alive and table.state.players[1].alive
    assert table.state.places[0] == [1] and table.state.end_reason == "last_standing"
