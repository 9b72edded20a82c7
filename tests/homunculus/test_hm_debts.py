"""Debts: the game collects by itself in the written order (buildings at half their cost, then
mortgages cheap to dear, then pieces cheap to dear: pawn 2, knight/bishop 5, rook 8, queen 15;
never the king), stops once the debt is covered, and forgives the rest."""

from __future__ import annotations

from hm_helpers import cell
from ring_helpers import events_of, next_turn, table

from homunculus import events as e
from homunculus.state import State
from tablehall_boards import Kind, Piece

MEDITERRANEAN, BALTIC, ORIENTAL, VERMONT, CONNECTICUT, PARK_PLACE, BOARDWALK = 1, 3, 6, 8, 9, 37, 39


def debtor() -> State:
    """Player 1 (no gold) will land on player 0's Boardwalk with a hotel (rent 200)."""
    s = table()
    r = s.ring
    r.owners[BOARDWALK] = 0
    r.buildings[BOARDWALK] = 5
    for sq in (MEDITERRANEAN, BALTIC, ORIENTAL, VERMONT, CONNECTICUT, PARK_PLACE):
        r.owners[sq] = 1
    r.mortgaged[PARK_PLACE] = True
    r.buildings[ORIENTAL], r.buildings[VERMONT], r.buildings[CONNECTICUT] = 2, 2, 1
    r.houses_bank, r.hotels_bank = 32 - 5, 11
    for name, kind in (("d9", Kind.QUEEN), ("e9", Kind.ROOK), ("f9", Kind.KNIGHT), ("g9", Kind.PAWN)):
        s.pieces[cell(name)] = Piece(kind, 1)
    s.gold[1] = 0
    s.ring.positions[1] = 33
    return s


def test_buildings_then_mortgages_then_pieces_never_the_king_the_rest_forgiven() -> None:
    events, after = next_turn(debtor(), [2, 4])
    assert after.ring.positions[1] == BOARDWALK
    steps = [ev for ev in events if isinstance(ev, e.BuildingDemolished | e.LotMortgaged | e.PieceSold)]
    demolished = [ev for ev in steps if isinstance(ev, e.BuildingDemolished)]
    assert steps[: len(demolished)] == demolished and len(demolished) == 5  # all buildings first
    assert all(ev.refund == 3 for ev in demolished)  # half of 5, rounded half up
    assert [ev.square for ev in demolished][:2] in ([ORIENTAL, VERMONT], [VERMONT, ORIENTAL])  # the most built first
    mortgaged = [ev.square for ev in steps if isinstance(ev, e.LotMortgaged)]
    assert mortgaged == [MEDITERRANEAN, BALTIC, ORIENTAL, VERMONT, CONNECTICUT]  # cheap to dear
    sold = [(ev.kind, ev.price) for ev in steps if isinstance(ev, e.PieceSold)]
    assert sold == [(Kind.PAWN, 2), (Kind.KNIGHT, 5), (Kind.ROOK, 8), (Kind.QUEEN, 15)]
    paid = 15 + 22 + 30
    assert e.GoldPaid(1, -paid, "rent") in events and e.GoldPaid(0, paid, "rent") in events
    assert e.DebtForgiven(1, 200 - paid) in events
    assert after.gold == [30 + paid, 0] and after.alive[1] and after.pieces[after.king_cell(1) or -1].kind == Kind.KING
    assert after.ring.houses_bank == 32 and all(b == 0 for i, b in enumerate(after.ring.buildings) if i != BOARDWALK)
    assert after.phase == "action" and after.turn == 1  # the game goes on for the debtor


def test_collection_stops_once_the_debt_is_covered() -> None:
    s = debtor()
    s.ring.buildings[BOARDWALK] = 0  # the bare rent 5
    s.ring.houses_bank = 27
    events, after = next_turn(s, [2, 4])
    assert len(events_of(events, e.BuildingDemolished)) == 2 and not events_of(events, e.LotMortgaged)
    assert not events_of(events, e.PieceSold) and not events_of(events, e.DebtForgiven)
    assert after.gold == [35, 1] and after.ring.buildings[ORIENTAL] + after.ring.buildings[VERMONT] == 2


def test_a_hotel_goes_whole_when_the_bank_lacks_four_houses() -> None:
    s = debtor()
    r = s.ring
    r.buildings[ORIENTAL] = r.buildings[VERMONT] = r.buildings[CONNECTICUT] = 5
    r.houses_bank, r.hotels_bank = 2, 8
    events, after = next_turn(s, [2, 4])
    first = events_of(events, e.BuildingDemolished)[0]
    assert isinstance(first, e.BuildingDemolished) and first.levels == 5 and first.refund == 15
    assert after.ring.houses_bank == 2 and after.ring.hotels_bank == 11  # the Boardwalk hotel stays
