"""Chess moves (from round 3, for a rolled die given up): dice move as their pieces."""

from __future__ import annotations

from dr_helpers import BLACK, BLUE, RED, cell, of, put, put_domino, scene, table

from dragons import commands as c
from dragons.events import ContourScored, PieceMoved, TurnStarted
from dragons.legal import legal_moves
from tablehall_rules import Choice, Rule


def test_not_before_round_three() -> None:
    t = table(round_no=2, red=(1, 1), blue=(2, 2, 2), active=RED, index=1)
    put(t, 0, 3, RED, 4)
    t.refused(c.ChessMove(face=1, origin=cell(0, 3), target=cell(0, 6)), "NOT_BEFORE_ROUND_3")
    assert not [m for m in legal_moves(t.state, RED, 0) if isinstance(m.command, c.ChessMove)]


def test_a_rook_slides_until_any_occupied_cell_and_takes_only_the_opponents_die() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    rook = put(t, 0, 3, RED, 4)
    put(t, 0, 6, BLUE, 2)  # may be taken, stops the slide
    put(t, 3, 3, BLACK, 5)  # blocks, never taken
    put(t, -2, 3, RED, 1)  # own: blocks
    put_domino(t, BLUE, (0, 1), (1, 1), (2, 2))  # blocks, never taken
    (rook_moves,) = [
        m for m in legal_moves(t.state, RED, 0) if isinstance(m.command, c.ChessMove) and m.command.origin == rook
    ]
    targets = next(p.domain for p in rook_moves.params if p.field == "target")
    assert isinstance(targets, Choice)
    assert sorted(targets.values) == sorted(
        [cell(0, 4), cell(0, 5), cell(0, 6), cell(1, 3), cell(2, 3), cell(-1, 3), cell(0, 2)]
    )
    t.refused(c.ChessMove(face=1, origin=rook, target=cell(0, 7)), "ILLEGAL_MOVE")
    t.refused(c.ChessMove(face=1, origin=rook, target=cell(3, 3)), "ILLEGAL_MOVE")
    t.refused(c.ChessMove(face=1, origin=rook, target=cell(0, 1)), "ILLEGAL_MOVE")
    events = t.play(c.ChessMove(face=2, origin=rook, target=cell(0, 6)))
    (moved,) = of(events, PieceMoved)
    assert moved.captured == 2 and moved.combos == []
    assert of(events, TurnStarted)[0].seat == BLUE
    st = t.state
    assert st.owner[rook] == -1 and st.owner[cell(0, 6)] == RED and st.face[cell(0, 6)] == 4
    assert st.rolled[RED] == [1, 3] and st.player(RED).dice_left == 59


def test_taking_the_opponents_king_six_scores_six() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    knight = put(t, 0, 3, RED, 2)
    put(t, 1, 5, BLUE, 6)
    (moved,) = of(t.play(c.ChessMove(face=3, origin=knight, target=cell(1, 5))), PieceMoved)
    assert [(x.kind, x.points) for x in moved.combos] == [("king_taken", 6)]


def test_only_own_dice_move_not_dominoes_or_black_dice() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    half, _ = put_domino(t, RED, (0, 3), (1, 3), (4, 4))
    black = put(t, 3, 5, BLACK, 4)
    theirs = put(t, 3, 7, BLUE, 4)
    for origin in (half, black, theirs):
        t.refused(c.ChessMove(face=1, origin=origin, target=cell(3, 6)), "NOT_YOUR_PIECE")


def test_a_red_pawn_steps_south_takes_diagonally_forward_and_promotes_at_the_column_end() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    pawn = put(t, 0, 3, RED, 1)
    put(t, 1, 2, BLUE, 3)
    t.refused(c.ChessMove(face=1, origin=pawn, target=cell(0, 4)), "ILLEGAL_MOVE")  # backward
    assert of(scene(t).play(c.ChessMove(face=1, origin=pawn, target=cell(0, 2))), PieceMoved)
    assert of(scene(t).play(c.ChessMove(face=1, origin=pawn, target=cell(1, 2))), PieceMoved)[0].captured == 3
    t.refused(c.ChessMove(face=1, origin=pawn, target=cell(-1, 2)), "ILLEGAL_MOVE")  # no capture there
    t = table(round_no=3, red=(1, 2, 3))
    pawn = put(t, 0, -9, RED, 1)
    t.refused(c.ChessMove(face=1, origin=pawn, target=cell(0, -10)), "BAD_PROMOTION")
    t.refused(c.ChessMove(face=1, origin=pawn, target=cell(0, -10), promotion=6), "BAD_PROMOTION")
    (moved,) = of(t.play(c.ChessMove(face=1, origin=pawn, target=cell(0, -10), promotion=5)), PieceMoved)
    assert moved.promotion == 5
    assert t.state.face[cell(0, -10)] == 5
    t = table(round_no=3, blue=(1, 2, 3), red=(1, 1), active=BLUE)
    pawn = put(t, 0, -3, BLUE, 1)
    assert of(t.play(c.ChessMove(face=1, origin=pawn, target=cell(0, -2)), seat=BLUE), PieceMoved)


def test_a_moved_die_that_forms_a_combination_scores_it() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    for x, f in zip(range(0, 4), [1, 2, 3, 4], strict=True):
        put(t, x, 3, RED, f)
    queen = put(t, 4, 6, RED, 5)
    (moved,) = of(t.play(c.ChessMove(face=1, origin=queen, target=cell(4, 3))), PieceMoved)
    assert [x.kind for x in moved.combos] == ["straight_line"]


def test_a_chess_move_may_close_a_contour_and_the_descriptor_shows_one() -> None:
    t = table(round_no=3, red=(1, 2, 3))
    for x, y in ((0, 4), (1, 3), (-1, 3)):
        put(t, x, y, RED, 2)
    rook = put(t, 0, -2, RED, 4)  # slides north to (0, 2), closing the diamond around (0, 3)
    target = cell(0, 2)
    moves = [
        m
        for m in legal_moves(t.state, RED, 0)
        if isinstance(m.command, c.ChessMove) and m.command.origin == rook and m.command.target == target
    ]
    (with_contour,) = [m for m in moves if m.params[-1].domain != Rule("contour", examples=[[]])]
    cycle = with_contour.params[-1].domain.examples[0]  # type: ignore[union-attr]
    events = t.play(c.ChessMove(face=1, origin=rook, target=target, contour=cycle), dice=(6,))
    (scored,) = of(events, ContourScored)
    assert scored.points == 2 + 2 + 2 + 4 and scored.inside == [cell(0, 3)]
