"""The easy bot (`homunculus.bot`): it decides from the seat's view only, takes what is worth
most, keeps its pieces out of reach, keeps its king safe, avoids mines it can deduce, says
«Уно!» and catches first, and never surrenders."""

from __future__ import annotations

import random

import msgspec
from hm_helpers import board, cell, when, with_mines, with_top
from ring_helpers import next_turn, table

from homunculus import bot
from homunculus import commands as c
from homunculus.cards import Card
from homunculus.game import GAME
from homunculus.ring import board as rb
from homunculus.state import State, UnoWindow
from tablehall_boards import Kind
from tablehall_rules import Viewer
from tablehall_rules.legal import expand_all
from tablehall_stream.codecs import command_codec


def legal_of(s: State, seat: int) -> list[msgspec.Struct]:
    return expand_all(GAME.legal(s, seat, 0), command_codec("homunculus"), limit=5000)


def choose(s: State, seat: int | None = None) -> msgspec.Struct:
    who = s.turn if seat is None else seat
    view = GAME.view(s, Viewer.of_seat(who))
    return bot.choose(view, legal_of(s, who), random.Random(1))


def rook_turn(s: State) -> State:
    s.hands[0] = [Card(0, "rook")] * 3
    s.domino_hands[0] = []
    return with_top(s, Card(1, "pawn"))


def test_it_takes_the_queen_rather_than_the_pawn() -> None:
    s = rook_turn(board(2, pieces={"d5": (Kind.ROOK, 0), "d9": (Kind.QUEEN, 1), "h5": (Kind.PAWN, 1)}))
    chosen = choose(s)
    assert isinstance(chosen, c.PlayCard) and chosen.target == cell("d9")


def test_it_takes_a_king_above_all() -> None:
    s = rook_turn(board(2, pieces={"d5": (Kind.ROOK, 0), "d9": (Kind.QUEEN, 1), "h5": (Kind.KING, 1)}))
    chosen = choose(s)
    assert isinstance(chosen, c.PlayCard) and chosen.target == cell("h5")


def test_a_threatened_piece_moves_away_to_a_cell_out_of_reach() -> None:
    # the enemy rook on d12 attacks the d-file: the own rook on d5 leaves it for a safe cell
    s = rook_turn(board(2, pieces={"d5": (Kind.ROOK, 0), "d12": (Kind.ROOK, 1)}))
    s.opened = sorted(range(160))  # no mine risk anywhere
    chosen = choose(s)
    assert isinstance(chosen, c.PlayCard) and chosen.origin == cell("d5")
    after = GAME.view(s, Viewer.of_seat(0))
    reading = bot.Reading(after)
    assert chosen.target not in reading.threatened or chosen.target == cell("d12")


def test_it_never_steps_on_a_mine_an_opened_number_gives_away() -> None:
    # every cell but f6 is opened, and the numbers around f6 say 1: f6 holds the mine
    s = rook_turn(board(2, pieces={"f4": (Kind.ROOK, 0)}))
    with_mines(s, ("f6", None))
    s.opened = sorted(x for x in range(160) if x != cell("f6"))
    reading = bot.Reading(GAME.view(s, Viewer.of_seat(0)))
    assert cell("f6") in reading.certain
    chosen = choose(s)
    assert not (isinstance(chosen, c.PlayCard) and chosen.target == cell("f6"))


def test_uno_and_catch_come_first_and_it_never_surrenders() -> None:
    s = rook_turn(board(2, pieces={"d5": (Kind.ROOK, 0)}))
    s.hands[1] = [Card(1, "pawn")]
    s.uno = UnoWindow(seat=1, no=s.decision_no)
    assert isinstance(choose(s, 0), c.CatchUno)
    assert isinstance(choose(s, 1), c.SayUno)
    for seat in (0, 1):
        assert not isinstance(choose(s, seat), c.Surrender)


def test_it_reads_only_the_view() -> None:
    # two states that differ only in what seat 0 may not see give the same choice
    s = rook_turn(board(2, pieces={"d5": (Kind.ROOK, 0), "d9": (Kind.QUEEN, 1)}))
    other = msgspec.json.decode(msgspec.json.encode(s), type=State)
    other.hands[1] = [Card(2, "king")] * len(s.hands[1])
    other.deck = type(s.deck)(tuple(reversed(s.deck.draw_pile)), s.deck.discard_pile)
    assert GAME.view(s, Viewer.of_seat(0)) == GAME.view(other, Viewer.of_seat(0))
    assert choose(s) == choose(other)


def test_on_the_ring_it_buys_within_its_reserve_and_bids_at_most_the_price() -> None:
    s = table(3)
    s.turn = 0
    _, lander = next_turn(s, [2, 4])  # the next player stands on a free lot
    assert lander.phase == "buy"
    assert isinstance(choose(lander), c.BuyLot)
    lander.gold[lander.turn] = 12  # buying would leave less than the reserve
    assert isinstance(choose(lander), c.DeclineLot)
    _, auction = when(lander, c.DeclineLot())
    assert auction.ring.auction is not None
    price = rb.square(auction.ring.auction.square).price
    for seat in (0, 2):
        bid = choose(auction, seat)
        assert isinstance(bid, c.PassBid) or (isinstance(bid, c.Bid) and bid.amount <= price)
    assert isinstance(choose(auction, 0), c.Bid)  # 30 gold: a bid within the price keeps the reserve
