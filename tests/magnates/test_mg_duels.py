"""Duels: die + power (Queen 2, Rook/Bishop/Knight 1, King 0), the defender wins ties, the loser is
lost, the bank pays the winner's owner half the loser's price; lone Kings on the perimeter."""

from __future__ import annotations

from mg_helpers import cell, clear_pieces, king_at, of, own, put

from magnates import commands as c
from magnates import events as e
from magnates.game import GAME
from magnates.rules.movement import piece_ends
from magnates.state import State
from tablehall_rules.testing import Table


def duel_turn(blue: int, mine: dict[str, str], theirs: dict[str, str], seats: int = 2) -> Table[State]:
    table = Table(GAME, seats)
    state = table.state
    clear_pieces(state)
    for seat, position in enumerate((2, 11, 20, 29)[:seats]):
        king_at(state, seat, position)
    for kind, at in mine.items():
        put(state, 0, kind, at)
    for kind, at in theirs.items():
        put(state, 1, kind, at)
    state.phase, state.white, state.blue = "move", 1, blue
    return table


def test_the_attacker_wins_with_a_higher_total_takes_the_cell_and_half_the_loser_s_price() -> None:
    table = duel_turn(2, {"rook": "e5"}, {"knight": "e7"})
    events = table.play(c.MovePiece(piece="rook", to=cell("e7")), dice=(4, 3))
    assert "knight" not in table.state.players[1].pieces
    assert table.state.players[0].pieces["rook"] == cell("e7")
    assert [(p.payer, p.payee, p.amount, p.reason) for p in of(events, e.Paid)] == [(-1, 0, 500, "duel")]


def test_the_defender_wins_ties_and_the_attacker_is_lost() -> None:
    table = duel_turn(2, {"rook": "e5"}, {"knight": "e7"})
    events = table.play(c.MovePiece(piece="rook", to=cell("e7")), dice=(3, 3))
    assert "rook" not in table.state.players[0].pieces
    assert table.state.players[1].pieces["knight"] == cell("e7")
    assert [(p.payee, p.amount) for p in of(events, e.Paid)] == [(1, 500)]
    assert table.state.turn == 1


def test_power_is_added_queen_2_against_rook_1() -> None:
    tie = duel_turn(2, {"queen": "e5"}, {"rook": "e7"})
    events = tie.play(c.MovePiece(piece="queen", to=cell("e7")), dice=(1, 2))  # 3 against 3
    assert "queen" not in tie.state.players[0].pieces
    assert [(p.payee, p.amount) for p in of(events, e.Paid)] == [(1, 1000)]  # half the Queen's 2000
    win = duel_turn(2, {"queen": "e5"}, {"rook": "e7"})
    win.play(c.MovePiece(piece="queen", to=cell("e7")), dice=(2, 2))  # 4 against 3
    assert "rook" not in win.state.players[1].pieces


def test_a_winner_standing_on_an_enemy_company_then_pays_or_raids() -> None:
    table = duel_turn(2, {"rook": "d2"}, {"knight": "d4"})
    state = table.state
    own(state, "d4", 1)
    table.play(c.MovePiece(piece="rook", to=cell("d4")), dice=(6, 1))
    assert table.state.phase == "fine" and table.state.players[0].pieces["rook"] == cell("d4")


def test_a_king_cannot_be_attacked_while_its_owner_has_another_piece() -> None:
    state = duel_turn(2, {"queen": "c5"}, {"knight": "h8"}).state
    king_at(state, 1, 4)  # a5
    assert cell("a5") not in piece_ends(state, 0, "queen")


def test_a_piece_attacks_a_lone_king_on_the_perimeter_and_returns_to_its_start() -> None:
    table = duel_turn(2, {"queen": "c5"}, {})
    state = table.state
    king_at(state, 1, 4)  # a5, lone
    state.players[1].cash = 777
    assert cell("a5") in piece_ends(state, 0, "queen")
    table.play(c.MovePiece(piece="queen", to=cell("a5")), dice=(1, 2))  # 3 against 2
    assert table.state.players[0].pieces["queen"] == cell("c5")
    assert not table.state.players[1].alive
    assert table.state.players[0].cash == 5000 + 777
    assert table.state.phase == "over" and table.state.places[0] == [0]


def test_a_lone_king_that_wins_keeps_its_place_and_earns_half_the_attacker_s_price() -> None:
    table = duel_turn(2, {"queen": "c5"}, {})
    state = table.state
    king_at(state, 1, 4)
    events = table.play(c.MovePiece(piece="queen", to=cell("a5")), dice=(1, 3))  # 3 against 3: a tie
    assert "queen" not in table.state.players[0].pieces
    assert table.state.players[1].alive and table.state.players[1].king == 4
    assert [(p.payee, p.amount) for p in of(events, e.Paid)] == [(1, 1000)]


def test_a_defeated_lone_king_in_a_three_player_game_returns_its_companies_to_the_bank() -> None:
    table = duel_turn(2, {"queen": "c5"}, {}, seats=3)
    state = table.state
    king_at(state, 1, 4)
    a2 = own(state, "a2", 1, level=2)
    table.play(c.MovePiece(piece="queen", to=cell("a5")), dice=(6, 1))
    assert not table.state.players[1].alive and table.state.phase == "roll"
    assert table.state.owner[a2] == -1 and table.state.level[a2] == 0
    assert table.state.turn == 2  # the turn goes on past the player who is out


def test_a_king_that_attacks_and_loses_is_defeated_even_when_not_lone() -> None:
    table = Table(GAME, 3)
    state = table.state
    clear_pieces(state, 1)
    king_at(state, 1, 3)  # a4, an unowned Company; seat 1 is lone, seat 0 is not
    state.players[0].cash = 900
    table.play(c.Roll(), dice=(3, 4))
    table.play(c.AttackKing(), dice=(2, 5))
    assert not table.state.players[0].alive and table.state.players[1].alive
    assert table.state.players[1].cash == 5000 + 900
    assert table.state.turn == 1 and table.state.phase == "roll"


def test_of_two_lone_kings_on_one_cell_the_piece_attacks_the_next_in_turn_order() -> None:
    table = Table(GAME, 4)
    state = table.state
    clear_pieces(state)
    put(state, 0, "queen", "c5")
    for seat in (1, 2, 3):
        king_at(state, seat, 4)  # all lone on a5
    king_at(state, 0, 2)
    state.phase, state.white, state.blue = "move", 1, 2
    events = table.play(c.MovePiece(piece="queen", to=cell("a5")), dice=(6, 1))
    (duel,) = of(events, e.DuelFought)
    assert duel.defender == 1 and not table.state.players[1].alive


def test_a_lone_enemy_king_may_be_attacked_on_the_cell_of_the_mover_s_own_king() -> None:
    def kings_on_a5() -> Table[State]:
        """Kings share perimeter cells: seat 0's King and seat 1's lone King both on a5."""
        table = duel_turn(2, {"queen": "c5"}, {})
        king_at(table.state, 0, 4)
        king_at(table.state, 1, 4)
        assert cell("a5") in piece_ends(table.state, 0, "queen")
        return table

    won = kings_on_a5()
    (duel,) = of(won.play(c.MovePiece(piece="queen", to=cell("a5")), dice=(1, 2)), e.DuelFought)  # 3 against 2
    assert duel.defender == 1 and not won.state.players[1].alive
    assert won.state.players[0].pieces["queen"] == cell("c5")  # back to its start: it never stays there
    assert won.state.players[0].king == 4 and won.state.players[0].alive
    lost = kings_on_a5()
    lost.play(c.MovePiece(piece="queen", to=cell("a5")), dice=(1, 3))  # 3 against 3: a tie
    assert "queen" not in lost.state.players[0].pieces and lost.state.players[1].alive
    assert lost.state.players[0].king == 4 and lost.state.players[1].king == 4


def test_a_perimeter_cell_with_only_the_mover_s_own_king_is_no_end_cell() -> None:
    state = duel_turn(2, {"queen": "c5"}, {"rook": "h8"}).state
    king_at(state, 0, 4)  # a5: the own King alone there (the enemy King, not lone, elsewhere)
    assert cell("a5") not in piece_ends(state, 0, "queen")
    king_at(state, 1, 4)  # the enemy King there too, but not lone: still no end cell
    assert cell("a5") not in piece_ends(state, 0, "queen")
