"""Cards: matching, trump, piece cards, skip, reverse, +2, wild, wild +4, draw, exchange,
the last card, «Уно!» and «Поймать»."""

from __future__ import annotations

from hm_helpers import board, cell, fresh, kinds, refused, safe_step, when, with_top

from homunculus import commands as c
from homunculus import events as e
from homunculus.cards import WILD, Card
from homunculus.game import GAME
from homunculus.state import AFTER_DRAW, FREE_MOVE
from tablehall_boards import Kind
from tablehall_rules import Viewer


def test_a_card_matches_by_colour_or_value_and_the_own_colour_is_trump() -> None:
    s = board(3, pieces={"d4": (Kind.ROOK, 0)})
    with_top(s, Card(1, "skip"))
    s.hands[0] = [Card(1, "rook"), Card(2, "rook"), Card(0, "rook"), Card(3, "skip"), Card(3, "pawn")]
    assert when(s, c.PlayCard(1, "rook", origin=cell("d4"), target=cell("d6")))[1].colour == 1  # colour
    assert when(s, c.PlayCard(0, "rook", origin=cell("d4"), target=cell("d6")))[1].colour == 0  # trump
    assert when(s, c.PlayCard(3, "skip"))[1].colour == 3  # value
    assert refused(s, c.PlayCard(2, "rook", origin=cell("d4"), target=cell("d6")), reason="CARD_DOES_NOT_MATCH")
    assert refused(s, c.PlayCard(3, "skip", origin=cell("d4")), reason="UNUSED_FIELDS")
    assert refused(s, c.PlayCard(2, "skip"), reason="CARD_NOT_IN_HAND")


def test_value_match_with_a_pawn_card_moves_a_pawn() -> None:
    s = board(2, pieces={"e2": (Kind.PAWN, 0)})
    with_top(s, Card(1, "pawn"))
    s.hands[0] = [Card(3, "pawn"), Card(3, "pawn")]
    _, after = when(s, c.PlayCard(3, "pawn", origin=cell("e2"), target=cell("e3")))
    assert cell("e3") in after.pieces and after.colour == 3 and after.top == Card(3, "pawn")


def test_a_piece_card_without_a_move_is_unplayable() -> None:
    s = board(2, pieces={"e2": (Kind.PAWN, 0)})
    with_top(s, Card(0, "skip"))
    s.hands[0] = [Card(0, "bishop"), Card(0, "pawn")]
    assert refused(s, c.PlayCard(0, "bishop", origin=cell("e2"), target=cell("e3")), reason="NO_SUCH_MOVE")
    listed = {type(m.command).__name__ + ":" + getattr(m.command, "value", "") for m in GAME.legal(s, 0, 0)}
    assert "PlayCard:bishop" not in listed and "PlayCard:pawn" in listed


def test_skip_makes_the_next_player_skip() -> None:
    s = fresh(3)
    with_top(s, Card(0, "pawn"))
    s.hands[0] = [Card(0, "skip"), Card(0, "pawn")]
    events, after = when(s, c.PlayCard(0, "skip"))
    assert e.TurnSkipped(1) in events and after.turn == 2


def test_reverse_turns_the_order() -> None:
    s = fresh(3)
    with_top(s, Card(0, "pawn"))
    s.hands[0] = [Card(0, "reverse"), Card(0, "pawn")]
    _, after = when(s, c.PlayCard(0, "reverse"))
    assert after.direction == -1 and after.turn == 2


def test_reverse_at_two_players_is_a_skip() -> None:
    s = fresh(2)
    with_top(s, Card(0, "pawn"))
    s.hands[0] = [Card(0, "reverse"), Card(0, "pawn")]
    events, after = when(s, c.PlayCard(0, "reverse"))
    assert e.TurnSkipped(1) in events and after.turn == 0


def test_plus_two_makes_the_next_draw_two_and_skip() -> None:
    s = fresh(3)
    with_top(s, Card(0, "pawn"))
    s.hands[0] = [Card(0, "draw2"), Card(0, "pawn")]
    before = len(s.hands[1])
    events, after = when(s, c.PlayCard(0, "draw2"))
    assert len(after.hands[1]) == before + 2 and after.turn == 2
    assert e.TurnSkipped(1) in events


def test_no_stacking_a_plus_two_on_a_plus_two_is_just_a_card() -> None:
    s = fresh(3)
    with_top(s, Card(0, "draw2"))
    s.turn = 1
    s.hands[1] = [Card(2, "draw2"), Card(2, "pawn")]
    before = len(s.hands[2])
    _, after = when(s, c.PlayCard(2, "draw2"))
    assert len(after.hands[2]) == before + 2 and after.turn == 0


def test_wild_chooses_a_colour_and_moves_any_piece() -> None:
    s = board(2, pieces={"d4": (Kind.KNIGHT, 0)})
    with_top(s, Card(1, "skip"))
    s.hands[0] = [Card(WILD, "wild"), Card(1, "pawn")]
    _, after = when(s, c.PlayCard(WILD, "wild", origin=cell("d4"), target=cell("e6"), choose_colour=3))
    assert after.colour == 3 and after.pieces[cell("e6")].kind == Kind.KNIGHT
    assert refused(s, c.PlayCard(WILD, "wild", origin=cell("d4"), target=cell("e6")), reason="CHOOSE_COLOUR")


def test_wild_four_the_next_draws_four_and_skips() -> None:
    s = fresh(2)
    with_top(s, Card(1, "skip"))
    s.hands[0] = [Card(WILD, "wild4"), Card(1, "pawn")]
    before = len(s.hands[1])
    events, after = when(s, c.PlayCard(WILD, "wild4", choose_colour=2))
    assert after.colour == 2 and len(after.hands[1]) == before + 4 and after.turn == 0
    assert e.TurnSkipped(1) in events


def test_a_drawn_playable_card_may_be_played_at_once_or_kept() -> None:
    s = board(2, pieces={"e2": (Kind.PAWN, 0)})
    with_top(s, Card(0, "skip"))
    s.deck = type(s.deck)((Card(0, "pawn"), *s.deck.draw_pile), s.deck.discard_pile)
    _, drawn = when(s, c.DrawCard())
    assert drawn.phase == AFTER_DRAW and drawn.drawn == Card(0, "pawn") and drawn.turn == 0
    _, played = when(drawn, c.PlayCard(0, "pawn", origin=cell("e2"), target=cell("e4")))
    assert cell("e4") in played.pieces and played.turn == 1
    other = drawn.hands[0][0]
    if other != Card(0, "pawn"):
        assert refused(drawn, c.PlayCard(other.colour, other.value), reason="ONLY_DRAWN_CARD")
    _, kept = when(drawn, c.KeepCard())
    assert kept.turn == 1 and Card(0, "pawn") in kept.hands[0]


def test_at_ten_cards_a_draw_is_an_exchange() -> None:
    s = fresh(2)
    s.hands[0] = [Card(1, "pawn")] * 10
    assert refused(s, c.DrawCard(), reason="HAND_FULL")
    events, after = when(s, c.ExchangeCard(1, "pawn"))
    assert len(after.hands[0]) == 10 and after.deck.discard_pile[0] == Card(1, "pawn") and after.turn == 1
    assert "CardsDrawn" in kinds(events)
    s.hands[0] = [Card(1, "pawn")] * 9
    assert refused(s, c.ExchangeCard(1, "pawn"), reason="HAND_NOT_FULL")


def test_the_last_card_brings_five_new_and_a_free_move() -> None:
    s = board(2, pieces={"e2": (Kind.PAWN, 0), "d4": (Kind.ROOK, 0)})
    with_top(s, Card(0, "skip"))
    s.hands[0] = [Card(0, "pawn")]
    _, after = when(s, c.PlayCard(0, "pawn", origin=cell("e2"), target=cell("e3")))
    assert len(after.hands[0]) == 5 and after.phase == FREE_MOVE and after.turn == 0
    _, moved = when(after, c.FreeMove(cell("d4"), cell("d10")))
    assert moved.pieces[cell("d10")].kind == Kind.ROOK and moved.turn == 1
    _, ended = when(after, c.EndTurn())
    assert ended.turn == 1


def test_one_card_left_opens_a_reaction_window_the_owner_may_say_uno() -> None:
    s = board(2, pieces={"e2": (Kind.PAWN, 0)})
    with_top(s, Card(0, "skip"))
    s.hands[0] = [Card(0, "pawn"), Card(0, "pawn")]
    _, after = when(s, c.PlayCard(0, "pawn", origin=cell("e2"), target=cell("e3")))
    assert after.uno is not None and after.uno.seat == 0
    reactions = [d for d in GAME.pending(after) if d.reaction]
    assert {(d.seat, d.kind) for d in reactions} == {(0, "uno"), (1, "catch")}
    assert all(d.clock_ms == 0 for d in reactions)
    _, said = when(after, c.SayUno(), seat=0)
    assert said.uno is None and len(said.hands[0]) == 1
    assert refused(said, c.CatchUno(), seat=1, reason="NO_UNO_WINDOW")


def test_a_catch_first_makes_the_owner_draw_two() -> None:
    s = board(2, pieces={"e2": (Kind.PAWN, 0)})
    with_top(s, Card(0, "skip"))
    s.hands[0] = [Card(0, "pawn"), Card(0, "pawn")]
    _, after = when(s, c.PlayCard(0, "pawn", origin=cell("e2"), target=cell("e3")))
    _, caught = when(after, c.CatchUno(), seat=1)
    assert len(caught.hands[0]) == 3 and caught.uno is None
    assert refused(caught, c.SayUno(), seat=0, reason="NO_UNO_WINDOW")


def test_an_unused_window_closes_at_the_next_command_and_costs_nothing() -> None:
    s = board(2, pieces={"e2": (Kind.PAWN, 0)})
    with_top(s, Card(0, "skip"))
    s.hands[0] = [Card(0, "pawn"), Card(0, "pawn")]
    _, after = when(s, c.PlayCard(0, "pawn", origin=cell("e2"), target=cell("e3")))
    command, seat = (c.DrawCard(), 1) if after.phase == "action" else safe_step(after)  # 1's ring part may ask
    events, nxt = when(after, command, seat=seat)
    assert events[1] == e.UnoClosed(0) and nxt.uno is None
    assert len(nxt.hands[0]) == 1 and nxt.afk.strikes == [0, 0]


def test_an_ally_cannot_catch() -> None:
    s = board(4, teams=True, pieces={"e2": (Kind.PAWN, 0)})
    with_top(s, Card(0, "skip"))
    s.hands[0] = [Card(0, "pawn"), Card(0, "pawn")]
    _, after = when(s, c.PlayCard(0, "pawn", origin=cell("e2"), target=cell("e3")))
    assert refused(after, c.CatchUno(), seat=2, reason="CANNOT_CATCH")
    assert {d.seat for d in GAME.pending(after) if d.reaction} == {0, 1, 3}
    _, caught = when(after, c.CatchUno(), seat=3)
    assert len(caught.hands[0]) == 3


def test_hands_are_hidden_from_the_others() -> None:
    s = fresh(2)
    seen = GAME.view(s, Viewer.of_seat(1))
    assert seen["hands"][0] == [] and seen["hand_sizes"][0] == 7 and len(seen["hands"][1]) == 7
    assert "draw_pile" not in seen["deck"] and seen["deck"]["draw_size"] == len(s.deck.draw_pile)
    spectator = GAME.view(s, Viewer.spectator())
    assert spectator["hands"] == [[], []] and spectator["domino_hands"] == [[], []]
