"""The shop, second part: mine, detector, shield, resurrection, probe and spyglass, each as
written, with what every viewer sees of it (the mine to its owner and allies only, the
detector's mines and the spyglass's cards to their user only, while they last)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hm_helpers import NOW, board, cell, end_round, kinds, play_piece, refused, when, with_mines

from homunculus import commands as c
from homunculus import events as e
from homunculus.game import GAME
from homunculus.rules import shop as items
from homunculus.rules.mines import square5
from homunculus.state import Mine, PlacedDomino, State
from tablehall_boards import Kind, Piece, cross
from tablehall_rules import Viewer
from tablehall_rules import clone as copy_state
from tablehall_rules import conformance as kit
from tablehall_rules.legal import Choice, LegalMove

ALL_SEATS = (0, 1, 2, 3)


def choices(move: LegalMove) -> list[Any]:
    """The values a move's first parameter may take (a Choice)."""
    domain = move.params[0].domain
    assert isinstance(domain, Choice)
    return domain.values


def seat_view(s: State, seat: int) -> dict[str, Any]:
    return GAME.view(s, Viewer.of_seat(seat))


def owning(s: State, *stuff: str, seat: int = 0) -> State:
    s.inventory[seat] = list(stuff)
    return s


# --- mine ----------------------------------------------------------------------------------


def test_a_bought_mine_is_laid_in_secret_on_a_closed_empty_cell() -> None:
    s = board(4, teams=True)
    _, s = when(s, c.BuyItem("mine"))
    assert s.gold[0] == 26 and s.inventory[0] == ["mine"]
    events, after = when(s, c.UseItem("mine", target=cell("f6")))
    assert e.MinePlaced(0, cell("f6")) in events and after.turn == 0 and after.phase == "action"
    assert [(m.cell, m.owner) for m in after.mines] == [(cell("f6"), 0)] and after.inventory[0] == []
    for seat in ALL_SEATS:
        seen = seat_view(after, seat)
        assert seen["mines"] == ([[cell("f6"), 0]] if seat in (0, 2) else [])  # owner and ally
        assert seen["mine_count"] == 1
    assert GAME.view(after, Viewer.spectator())["mines"] == []
    lines = [line for ev in events for line in GAME.journal(s, ev)]
    assert lines and all("f6" not in line.ru + line.en and "cell" not in line.params for line in lines)


def test_a_mine_is_refused_on_an_open_occupied_tiled_or_seen_mined_cell() -> None:
    s = owning(with_mines(board(2, pieces={"d4": (Kind.ROOK, 0)}), ("h8", 0)), "mine")
    s.dominoes = [PlacedDomino(1, 1, 2, 3, cell("f6"), cell("g6"))]
    s.opened = [cell("e5")]
    for name in ("d4", "f6", "e5", "h8"):
        assert refused(s, c.UseItem("mine", target=cell(name)), reason="BAD_MINE_CELL"), name
    assert refused(s, c.UseItem("mine", origin=cell("d4"), target=cell("e6")), reason="UNUSED_FIELDS")
    assert refused(s, c.UseItem("mine", target=999), reason="BAD_CELLS")
    assert refused(owning(s, "shield"), c.UseItem("mine", target=cell("e6")), reason="NO_SUCH_ITEM_OWNED")


def test_a_mine_laid_on_a_mine_one_cannot_see_explodes_with_it() -> None:
    s = owning(with_mines(board(2), ("h8", 1), ("k11", None)), "mine")
    events, after = when(s, c.UseItem("mine", target=cell("h8")))  # accepted: nothing tells of the mine
    assert kinds(events).count("MineExploded") == 2 and [m.cell for m in after.mines] == [cell("k11")]
    assert cell("h8") not in after.opened


def test_own_and_allied_pieces_take_a_bought_mine_off() -> None:
    s = owning(board(4, teams=True, pieces={"d4": (Kind.ROOK, 0), "g9": (Kind.ROOK, 2)}), "mine")
    _, laid = when(s, c.UseItem("mine", target=cell("d7")))
    events, own = play_piece(copy_state(laid), "d4", "d7")
    assert e.MineCleared(cell("d7")) in events and own.mines == [] and own.pieces[cell("d7")].kind == Kind.ROOK
    _, allied = play_piece(laid, "g9", "d9")  # first a move to d9 ...
    events, allied = play_piece(allied, "d9", "d7")  # ... then the ally's rook onto the mine
    assert e.MineCleared(cell("d7")) in events and allied.mines == [] and allied.pieces[cell("d7")].side == 2


def test_an_enemy_blown_up_on_your_mine_pays_you_as_for_a_capture() -> None:
    s = owning(board(4, teams=True, pieces={"g7": (Kind.ROOK, 1), "j6": (Kind.KNIGHT, 3)}), "mine", seat=2)
    s.turn, s.round_seen = 2, [2]
    _, laid = when(s, c.UseItem("mine", target=cell("d7")))
    events, after = play_piece(laid, "g7", "d7")
    assert e.PieceRemoved(cell("d7"), Kind.ROOK, 1, "mine", by=2) in events
    assert e.GoldPaid(2, 3, "mine") in events and after.mines == []
    assert [ev for ev in events if isinstance(ev, e.GoldPaid) and ev.reason == "mine"] == [e.GoldPaid(2, 3, "mine")]


# --- detector ------------------------------------------------------------------------------


def test_the_detector_shows_only_its_user_the_others_mines_of_the_5x5_until_its_turn_ends() -> None:
    s = owning(with_mines(board(2), ("f6", None), ("g7", 1), ("h8", 0), ("k11", None)), "detector")
    events, after = when(s, c.UseItem("detector", target=cell("g6")))
    assert e.DetectorUsed(0, cell("g6")) in events and after.detection == [0, cell("g6")]
    mine = seat_view(after, 0)
    assert mine["detected"] == sorted([cell("f6"), cell("g7")])  # h8 is its own, k11 outside the square
    assert mine["mines"] == [[cell("h8"), 0]]
    assert seat_view(after, 1)["detected"] == [] and GAME.view(after, Viewer.spectator())["detected"] == []
    assert seat_view(after, 1)["detection"] == [0, cell("g6")]  # where it looked is public
    _, drawn = when(after, c.DrawCard())
    assert seat_view(drawn, 0)["detected"] == sorted([cell("f6"), cell("g7")])  # still its turn
    _, over = when(drawn, c.KeepCard())
    assert over.turn == 1 and over.detection == [] and seat_view(over, 0)["detected"] == []
    lines = [line for ev in events for line in GAME.journal(s, ev)]
    assert all("f6" not in line.ru + line.en and "g7" not in line.ru + line.en for line in lines)


def test_the_detector_shows_the_mines_as_they_are_while_it_lasts() -> None:
    s = owning(with_mines(board(2), ("f6", None), ("g7", None)), "detector")
    _, after = when(s, c.UseItem("detector", target=cell("g6")))
    after.mines = [m for m in after.mines if m.cell != cell("g7")]  # gone (as in a blast)
    after.mines.append(Mine(cell("h5"), 1))  # and one more in the square
    assert seat_view(after, 0)["detected"] == sorted([cell("f6"), cell("h5")])
    assert seat_view(after, 1)["detected"] == []


# --- shield --------------------------------------------------------------------------------


def test_a_shield_repels_a_capture_once_and_the_attacker_stays() -> None:
    s = owning(board(2, pieces={"d4": (Kind.KNIGHT, 0), "d8": (Kind.ROOK, 1)}), "shield")
    _, s = when(s, c.BuyItem("shield"))
    assert s.gold[0] == 24
    events, shielded = when(s, c.UseItem("shield", origin=cell("d4")))
    assert e.ShieldGiven(cell("d4")) in events and shielded.shields == [cell("d4")]
    events, repelled = play_piece(shielded, "d8", "d4")
    assert e.ShieldBroke(cell("d4"), "capture") in events and "PieceRemoved" not in kinds(events)
    assert repelled.pieces[cell("d4")] == Piece(Kind.KNIGHT, 0) and repelled.pieces[cell("d8")] == Piece(Kind.ROOK, 1)
    assert repelled.shields == [] and not any(isinstance(ev, e.GoldPaid) and ev.reason == "capture" for ev in events)
    events, taken = play_piece(repelled, "d8", "d4")  # once only
    assert taken.pieces[cell("d4")] == Piece(Kind.ROOK, 1) and e.GoldPaid(1, 2, "capture") in events


def test_a_shield_goes_with_its_piece_and_is_refused_twice_or_on_others() -> None:
    s = owning(board(2, pieces={"d4": (Kind.KNIGHT, 0), "d8": (Kind.ROOK, 1)}), "shield", "shield")
    assert refused(s, c.UseItem("shield", origin=cell("d8")), reason="BAD_SHIELD")
    assert refused(s, c.UseItem("shield", origin=cell("e4")), reason="BAD_SHIELD")
    assert refused(s, c.UseItem("shield", target=cell("d4")), reason="UNUSED_FIELDS")
    _, s = when(s, c.UseItem("shield", origin=cell("d4")))
    s.item_used = False
    assert refused(s, c.UseItem("shield", origin=cell("d4")), reason="BAD_SHIELD")
    _, moved = play_piece(s, "d4", "e6")
    assert moved.shields == [cell("e6")]


def test_a_shield_saves_a_piece_landing_on_an_enemy_mine() -> None:
    s = owning(with_mines(board(2, pieces={"d4": (Kind.ROOK, 0)}), ("d7", 1)), "shield")
    _, s = when(s, c.UseItem("shield", origin=cell("d4")))
    events, after = play_piece(s, "d4", "d7")
    assert e.MineExploded(cell("d7"), 1) in events and e.ShieldBroke(cell("d7"), "mine") in events
    assert after.pieces[cell("d7")].kind == Kind.ROOK and after.mines == [] and after.shields == []
    assert cell("d7") in after.opened and not any(isinstance(ev, e.GoldPaid) and ev.reason == "mine" for ev in events)


def test_a_shield_saves_from_the_round_dies_detonation_a_king_without_a_wound() -> None:
    s = with_mines(board(2, pieces={"e5": (Kind.ROOK, 0), "g5": (Kind.ROOK, 0), "f6": (Kind.KING, 1)}), ("f5", None))
    s.shields = [cell("e5"), cell("f6")]
    events, after = end_round(s, 1)
    assert e.ShieldBroke(cell("e5"), "blast") in events and e.ShieldBroke(cell("f6"), "blast") in events
    assert after.pieces[cell("e5")].kind == Kind.ROOK and cell("g5") not in after.pieces
    assert not after.wounded[1] and after.shields == []


# --- resurrection --------------------------------------------------------------------------


def test_fallen_pieces_are_remembered() -> None:
    s = with_mines(
        board(2, pieces={"d4": (Kind.ROOK, 0), "d8": (Kind.BISHOP, 1), "h5": (Kind.KNIGHT, 1)}), ("h7", None)
    )
    _, taken = play_piece(s, "d4", "d8")
    assert taken.fallen == {1: [Kind.BISHOP]}
    _, blown = play_piece(taken, "h5", "g7")
    _, blown = play_piece(blown, "g7", "h5")
    _, blown = play_piece(with_mines(blown, ("f6", None)), "h5", "f6")
    assert blown.fallen == {1: [Kind.BISHOP, Kind.KNIGHT]}


def test_resurrection_returns_the_strongest_fallen_piece_to_the_two_rows_nearest_you() -> None:
    s = owning(board(2), "resurrection", "resurrection", seat=0)
    _, s = when(s, c.BuyItem("resurrection"))
    assert s.gold[0] == 18
    s.fallen = {0: [Kind.KNIGHT, Kind.ROOK, Kind.PAWN, Kind.BISHOP], 1: [Kind.QUEEN]}
    assert refused(s, c.UseItem("resurrection", target=cell("e3")), reason="BAD_RESURRECTION")  # third row
    assert refused(s, c.UseItem("resurrection", target=cell("e13")), reason="BAD_RESURRECTION")  # the other's rows
    events, back = when(s, c.UseItem("resurrection", target=cell("e2")))
    assert e.PieceResurrected(0, Kind.ROOK, cell("e2")) in events
    assert back.pieces[cell("e2")] == Piece(Kind.ROOK, 0) and cell("e2") in back.opened
    assert back.fallen == {0: [Kind.KNIGHT, Kind.PAWN, Kind.BISHOP], 1: [Kind.QUEEN]}
    back.item_used = False
    _, again = when(back, c.UseItem("resurrection", target=cell("d1")))
    assert again.pieces[cell("d1")] == Piece(Kind.BISHOP, 0)  # knight and bishop are equal: the last fallen
    assert refused(back, c.UseItem("resurrection", target=cell("e2")), reason="BAD_RESURRECTION")  # taken now


def test_resurrection_needs_a_fallen_piece_and_uses_each_arms_rows() -> None:
    s = owning(board(4), "resurrection", seat=1)
    s.turn, s.round_seen = 1, [1]
    assert refused(s, c.UseItem("resurrection", target=cell("b6")), reason="NOTHING_FALLEN")
    s.fallen = {1: [Kind.PAWN], 0: [Kind.QUEEN]}
    assert items.resurrection_cells(s, 1) == sorted(
        c for c in cross.row_cells(1, 0) | cross.row_cells(1, 1) if c not in s.pieces
    )
    assert {cross.grid().name_of(x)[0] for x in items.resurrection_cells(s, 1)} == {"a", "b"}
    _, back = when(s, c.UseItem("resurrection", target=cell("b6")))
    assert back.pieces[cell("b6")] == Piece(Kind.PAWN, 1)


def test_a_piece_resurrected_on_a_hidden_mine_falls_again() -> None:
    s = owning(with_mines(board(2), ("f2", 1)), "resurrection")
    s.fallen = {0: [Kind.ROOK]}
    events, after = when(s, c.UseItem("resurrection", target=cell("f2")))
    assert cell("f2") not in after.pieces and after.fallen == {0: [Kind.ROOK]} and e.GoldPaid(1, 3, "mine") in events


# --- probe ---------------------------------------------------------------------------------


def test_the_probe_opens_a_closed_cell_safely_and_defuses_its_mine() -> None:
    s = owning(with_mines(board(2), ("f6", 1), ("g7", None)), "probe")
    _, s = when(s, c.BuyItem("probe"))
    assert s.gold[0] == 26
    events, after = when(s, c.UseItem("probe", target=cell("f6")))
    assert e.MineDefused(cell("f6")) in events and "MineExploded" not in kinds(events)
    assert [m.cell for m in after.mines] == [cell("g7")] and cell("f6") in after.opened
    assert seat_view(after, 1)["numbers"] == {str(cell("f6")): 1}
    after.item_used = False
    assert refused(after, c.UseItem("probe", target=cell("f6")), reason="CELL_OPEN")


def test_a_probed_zero_opens_the_mine_free_5x5() -> None:
    s = owning(with_mines(board(2), ("h10", None)), "probe")
    _, after = when(s, c.UseItem("probe", target=cell("f8")))
    assert set(after.opened) == {x for x in square5(cell("f8")) if x != cell("h10")}
    assert len(after.mines) == 1


# --- spyglass ------------------------------------------------------------------------------


def test_the_spyglass_shows_only_its_user_the_chosen_players_cards_until_its_turn_ends() -> None:
    s = owning(board(3), "spyglass")
    _, s = when(s, c.BuyItem("spyglass"))
    assert s.gold[0] == 27
    events, after = when(s, c.UseItem("spyglass", target=2))
    assert e.SpyglassUsed(0, 2) in events and after.spyglass == [0, 2]
    assert seat_view(after, 0)["hands"] == [
        msgspec.to_builtins(after.hands[0]),
        [],
        msgspec.to_builtins(after.hands[2]),
    ]
    assert seat_view(after, 1)["hands"][2] == [] and seat_view(after, 2)["hands"][0] == []
    assert all(h == [] for h in GAME.view(after, Viewer.spectator())["hands"])
    _, drawn = when(after, c.DrawCard())
    assert seat_view(drawn, 0)["hands"][2] == msgspec.to_builtins(drawn.hands[2])
    _, over = when(drawn, c.KeepCard())
    assert over.turn == 1 and over.spyglass == [] and seat_view(over, 0)["hands"][2] == []


def test_the_spyglass_needs_another_player_in_the_game() -> None:
    s = owning(board(3), "spyglass")
    s.alive[1] = False
    for target in (0, 1, 3, -1):
        assert refused(s, c.UseItem("spyglass", target=target), reason="NO_SUCH_PLAYER")
    assert refused(s, c.UseItem("spyglass", origin=2, target=2), reason="UNUSED_FIELDS")


# --- descriptors and redaction -------------------------------------------------------------


def busy_table() -> State:
    """Four players, 2-on-2, every new item owned by player 0, mines of everyone, a tile."""
    s = with_mines(
        board(4, teams=True, pieces={"d4": (Kind.ROOK, 0), "g9": (Kind.QUEEN, 1), "h5": (Kind.KNIGHT, 2)}),
        ("f6", None),
        ("g7", 1),
        ("h8", 0),
        ("j10", 3),
        ("e11", 2),
    )
    t = s.domino_hands[1].pop()  # a real tile of player 1's, so every tile is counted once
    s.dominoes = [PlacedDomino(1, 1, t.low, t.high, cell("e6"), cell("e7"))]
    s.opened = [cell("d4"), cell("h5")]
    s.fallen = {0: [Kind.BISHOP]}
    s.inventory[0] = sorted(items.SECOND_PART)
    return s


def candidates(s: State) -> list[c.UseItem]:
    out = []
    for item in items.SECOND_PART:
        for x in range(-1, len(cross.grid()) + 1):
            out.append(c.UseItem(item, target=x))
            out.append(c.UseItem(item, origin=x))
    return out


def test_every_item_has_its_descriptor_and_descriptors_agree_with_decide() -> None:
    s = busy_table()
    legal = GAME.legal(s, 0, NOW)
    by_item = {m.command.item: m for m in legal if isinstance(m.command, c.UseItem)}
    assert set(items.SECOND_PART) <= set(by_item)
    assert choices(by_item["spyglass"]) == [1, 2, 3]
    assert choices(by_item["shield"]) == sorted(x for x, p in s.pieces.items() if p.side == 0)
    mine_cells = choices(by_item["mine"])
    assert cell("h8") not in mine_cells and cell("e11") not in mine_cells  # own and allied mines are seen
    assert cell("g7") in mine_cells and cell("e6") not in mine_cells and cell("d4") not in mine_cells
    assert choices(by_item["probe"]) == [x for x in range(160) if x not in s.opened]
    for seed in range(3):
        kit.check_legal_agrees(GAME, s, 0, NOW, random.Random(seed), candidates(s))


def test_without_targets_an_item_has_no_descriptor() -> None:
    s = board(2)
    s.inventory[0] = ["resurrection"]
    assert not [m for m in GAME.legal(s, 0, NOW) if isinstance(m.command, c.UseItem)]
    s.item_used = True
    s.inventory[0] = ["probe"]
    assert not [m for m in GAME.legal(s, 0, NOW) if isinstance(m.command, c.UseItem)]


def in_use() -> list[tuple[str, State]]:
    """Tables with each secret in force: a mine just laid, a detection, a spyglass."""
    s = busy_table()
    out = [("mine", when(s, c.UseItem("mine", target=cell("k5")))[1])]
    out.append(("detector", when(s, c.UseItem("detector", target=cell("g7")))[1]))
    out.append(("spyglass", when(s, c.UseItem("spyglass", target=1))[1]))
    out.append(("shield", when(s, c.UseItem("shield", origin=cell("d4")))[1]))
    return out


@pytest.mark.parametrize(("name", "state"), in_use(), ids=lambda x: x if isinstance(x, str) else "")
@pytest.mark.parametrize("seat", ALL_SEATS)
def test_no_seat_learns_what_the_items_hide_from_it(name: str, state: State, seat: int) -> None:
    """The conformance kit's redaction property: a state that differs in what `seat` may not know
    (hands, mines, owners, the detector's square) answers it the same on every API."""
    for seed in range(2):
        rng = random.Random(seed)
        probes = kit.candidate_commands(GAME, state, rng, extra=candidates(state)[::7])
        kit.check_determinization(GAME, state, seat, rng)
        kit.check_redaction(GAME, state, seat, NOW, rng, probes)


def test_the_redaction_check_compares_truly_different_hidden_parts() -> None:
    """The states the property compares really differ where the items hide things (so the
    test above is not vacuous): the enemy's sample moves the new mine, another seat's sample
    deals the spied hand anew, and the user would see that difference."""
    tables = dict(in_use())
    laid = tables["mine"]
    other = GAME.determinize(seat_view(laid, 1), 1, random.Random(0))
    assert seat_view(other, 1) == seat_view(laid, 1)
    assert {m.cell for m in other.mines} != {m.cell for m in laid.mines}
    assert seat_view(other, 0) != seat_view(laid, 0)
    spied = tables["spyglass"]
    twin = GAME.determinize(seat_view(spied, 2), 2, random.Random(1))
    assert seat_view(twin, 2) == seat_view(spied, 2)
    assert twin.hands[1] != spied.hands[1] and seat_view(twin, 0) != seat_view(spied, 0)
    scanned = tables["detector"]
    for seed in range(5):
        sample = GAME.determinize(seat_view(scanned, 0), 0, random.Random(seed))
        assert items.detected(sample, 0) == items.detected(scanned, 0)
