"""The Monopoly ring: set-up, the roll that begins every turn, doubles and the Dungeon,
buying and the auction, rent, gates, utilities, districts, building, mortgages, trades,
taxes, the Chance and Chest cards, eliminated players' lots, the safe-conduct."""

from __future__ import annotations

import msgspec
from hm_helpers import NOW, board, cell, fresh, refused, when, with_top
from ring_helpers import Rigged, card_index, events_of, next_turn, own_all, table

from homunculus import commands as c
from homunculus import events as e
from homunculus.cards import Card
from homunculus.game import GAME
from homunculus.ring import board as rb
from homunculus.ring.cards import all_cards, deck_of
from homunculus.state import State
from tablehall_boards import Kind, Piece
from tablehall_boards.monopoly import classic_squares
from tablehall_rules import DecideContext, Viewer
from tablehall_rules.conformance import seats_for

BALTIC, ORIENTAL, VERMONT, CONNECTICUT = 3, 6, 8, 9
MEDITERRANEAN, READING, ELECTRIC, WATER = 1, 5, 12, 28
BOARDWALK, PARK_PLACE = 39, 37


# --- set-up and the roll -----------------------------------------------------------------------


def test_forty_squares_tokens_on_start_thirty_gold_and_the_ring_in_every_view() -> None:
    assert len(rb.squares()) == 40 and rb.square(0).kind == "start" and rb.square(10).kind == "dungeon"
    assert [sq["key"] for sq in classic_squares()] == [sq.key for sq in rb.squares()]  # the shared data
    s = fresh(4)
    assert s.ring.positions == [0, 0, 0, 0] and s.gold == [30] * 4 and s.ring.owners == [-1] * 40
    assert (s.ring.houses_bank, s.ring.hotels_bank) == (32, 12)
    seen = GAME.view(s, Viewer.spectator())["ring"]
    assert seen["positions"] == [0, 0, 0, 0] and seen["owners"] == [-1] * 40 and "buildings" in seen
    started = GAME.start(GAME.parse_options({}), seats_for(2), DecideContext(None, NOW, Rigged([1, 2])))
    assert started[1] == e.RingTurnBegan(0) and started[2] == e.DiceRolled(0, 1, 2)  # the first turn rolls too


def test_classic_figures_divided_by_ten_half_up_at_least_one() -> None:
    assert (rb.square(MEDITERRANEAN).price, rb.square(MEDITERRANEAN).rents) == (6, (1, 1, 3, 9, 16, 25))
    assert rb.square(MEDITERRANEAN).house_cost == 5 and rb.square(MEDITERRANEAN).mortgage == 3
    assert rb.square(PARK_PLACE).price == 35 and rb.square(PARK_PLACE).mortgage == 18  # 175 / 10 half up
    assert rb.square(BOARDWALK).rents == (5, 20, 60, 140, 170, 200) and rb.square(BOARDWALK).redeem_cost == 22


def test_every_turn_begins_with_the_ring_roll_before_the_action() -> None:
    s = own_all(table(), 1)
    events, after = next_turn(s, [1, 2])
    assert e.DiceRolled(1, 1, 2) in events and after.ring.positions[1] == BALTIC
    assert after.turn == 1 and after.phase == "action"
    assert events.index(e.TurnBegan(1, NOW)) < events.index(e.DiceRolled(1, 1, 2))


def test_passing_start_pays_ten() -> None:
    s = own_all(table(), 1)
    s.ring.positions[1] = 37
    events, after = next_turn(s, [2, 4])
    assert after.ring.positions[1] == 3 and e.GoldPaid(1, 10, "start") in events and after.gold[1] == 40


def test_doubles_roll_again_and_the_third_goes_to_the_dungeon() -> None:
    s = own_all(table(), 1)
    _, after = next_turn(s, [3, 3, 1, 2])
    assert after.ring.positions[1] == CONNECTICUT and after.phase == "action"
    events, jailed = next_turn(s, [3, 3, 2, 2, 4, 4])
    assert e.DungeonEntered(1, "doubles") in events
    assert jailed.ring.positions[1] == 10 and jailed.ring.dungeon[1] == 0 and jailed.phase == "action"
    assert len(events_of(events, e.DiceRolled)) == 3


def test_a_skipped_turn_loses_its_roll() -> None:
    s = own_all(board(2), 0)
    with_top(s, Card(0, "pawn"))
    s.hands[0] = [Card(0, "skip"), Card(0, "pawn")]
    events, after = when(s, c.PlayCard(0, "skip"), source=Rigged([1, 2]))
    assert e.TurnSkipped(1) in events and after.turn == 0
    assert [ev.seat for ev in events_of(events, e.DiceRolled)] == [0]  # player 1 rolled nothing


# --- buying and the auction --------------------------------------------------------------------


def test_a_free_lot_may_be_bought_at_its_price() -> None:
    s = table()
    _events, s2 = next_turn(s, [2, 4])
    assert s2.phase == "buy" and s2.ring.buy_square == ORIENTAL
    assert refused(s2, c.DrawCard(), reason="WRONG_PHASE")  # the ring first
    assert refused(s2, c.BuyItem("boots"), reason="WRONG_PHASE")  # then the shop
    _, bought = when(s2, c.BuyLot())
    assert bought.ring.owners[ORIENTAL] == 1 and bought.gold[1] == 20 and bought.phase == "action"


def test_declining_opens_an_auction_for_everyone_bids_higher_pass_final() -> None:
    s = table(3)
    s.turn = 0
    _, s2 = next_turn(s, [2, 4])
    _, auction = when(s2, c.DeclineLot())
    a = auction.ring.auction
    assert auction.phase == "auction" and a is not None and a.bidders == [0, 1, 2]  # the lander too
    assert {d.seat for d in GAME.pending(auction)} == {0, 1, 2} and all(d.kind == "bid" for d in GAME.pending(auction))
    _, b1 = when(auction, c.Bid(4), seat=0)  # out of turn
    assert refused(b1, c.Bid(4), seat=2, reason="BID_TOO_LOW")
    assert refused(b1, c.Bid(31), seat=2, reason="NOT_ENOUGH_GOLD")
    assert refused(b1, c.Bid(5), seat=0, reason="ALREADY_HIGHEST")
    _, b2 = when(b1, c.PassBid(), seat=2)
    assert refused(b2, c.Bid(9), seat=2, reason="NOT_BIDDING")  # a pass is final
    _, b3 = when(b2, c.Bid(7), seat=1)
    events, won = when(b3, c.PassBid(), seat=0)
    assert e.AuctionClosed(ORIENTAL, 1, 7) in events
    assert won.ring.owners[ORIENTAL] == 1 and won.gold == [30, 23, 30] and won.phase == "action"


def test_nobody_bidding_leaves_the_lot_with_the_bank() -> None:
    s = table()
    _, s2 = next_turn(s, [2, 4])
    _, auction = when(s2, c.DeclineLot())
    _, a1 = when(auction, c.PassBid(), seat=0)
    events, done = when(a1, c.PassBid(), seat=1)
    assert e.AuctionClosed(ORIENTAL, -1, 0) in events and done.ring.owners[ORIENTAL] == -1


def test_without_the_price_the_auction_starts_at_once() -> None:
    s = table()
    s.gold[1] = 9
    events, after = next_turn(s, [2, 4])
    assert not events_of(events, e.BuyOffered) and after.phase == "auction"
    assert after.ring.auction is not None and after.ring.auction.bidders == [0, 1]


def test_a_bidder_who_cannot_outbid_is_passed_by_the_engine_at_once() -> None:
    """«Каждая ставка выше предыдущей, пас окончателен»: a bidder whose gold is not above the
    high bid could only pass, so the engine passes it (a journal line says why) and the table
    does not wait on its bid clock."""
    s = table(3)
    s.gold = [30, 30, 6]
    _, s2 = next_turn(s, [2, 4])
    _, auction = when(s2, c.DeclineLot())
    assert {d.seat for d in GAME.pending(auction)} == {0, 1, 2}  # 6 gold can still bid up to 6
    events, b1 = when(auction, c.Bid(6), seat=0)
    assert e.BidPassed(2, "gold") in events
    a = b1.ring.auction
    assert a is not None and a.bidders == [0, 1] and a.high_bidder == 0
    assert {d.seat for d in GAME.pending(b1)} == {1}  # nobody waits for seat 2
    assert not [m for m in GAME.legal(b1, 2, NOW) if isinstance(m.command, c.Bid | c.PassBid)]
    assert refused(b1, c.PassBid(), seat=2, reason="NOT_BIDDING")
    lines = [line for ev in events for line in GAME.journal(auction, ev)]
    gold_line = next(line for line in lines if line.code == "BID_PASSED_GOLD")
    assert gold_line.params == {"seat": 2} and gold_line.ru and gold_line.en and gold_line.audience is None
    # a bid equal to a bidder's whole gold passes it too: 30 is not above 30
    events, b2 = when(b1, c.Bid(30), seat=1)
    assert e.BidPassed(0, "gold") in events and e.AuctionClosed(ORIENTAL, 1, 30) in events
    assert b2.ring.owners[ORIENTAL] == 1 and b2.gold == [30, 0, 6] and b2.phase == "action"


def test_a_bidder_without_gold_passes_at_the_opening_and_nobody_waits_when_nobody_can_bid() -> None:
    s = table(3)
    s.gold = [0, 30, 12]
    _, s2 = next_turn(s, [2, 4])
    events, auction = when(s2, c.DeclineLot())
    assert e.BidPassed(0, "gold") in events
    assert auction.ring.auction is not None and auction.ring.auction.bidders == [1, 2]
    assert {d.seat for d in GAME.pending(auction)} == {1, 2}
    broke = table()
    broke.gold = [0, 0]
    events, after = next_turn(broke, [2, 4])  # the lander cannot pay: the auction opens at once
    assert [ev for ev in events if isinstance(ev, e.BidPassed)] == [e.BidPassed(0, "gold"), e.BidPassed(1, "gold")]
    assert e.AuctionClosed(ORIENTAL, -1, 0) in events
    assert after.ring.auction is None and after.ring.owners[ORIENTAL] == -1 and after.phase == "action"
    assert not [d for d in GAME.pending(after) if d.kind == "bid"]


def test_doubles_roll_again_after_the_purchase() -> None:
    s = table()
    _, s2 = next_turn(s, [3, 3, 1, 2])
    assert s2.phase == "buy" and s2.ring.positions[1] == ORIENTAL
    events, after = when(s2, c.BuyLot(), source=Rigged([1, 2]))
    assert e.DiceRolled(1, 1, 2) in events and after.ring.positions[1] == CONNECTICUT


# --- rent ------------------------------------------------------------------------------------


def test_rent_to_an_enemy_none_to_an_ally_none_on_a_mortgage() -> None:
    s = table()
    s.ring.owners[ORIENTAL] = 0
    events, after = next_turn(s, [2, 4])
    assert e.GoldPaid(1, -1, "rent") in events and after.gold == [31, 29]
    s.ring.mortgaged[ORIENTAL] = True
    assert next_turn(s, [2, 4])[1].gold == [30, 30]
    t = table(4, teams=True)
    t.turn = 1  # player 2 (player 0's ally) rolls
    t.round_seen = [0, 1]
    t.ring.owners[ORIENTAL] = 0
    _, ally = next_turn(t, [2, 4])
    assert ally.turn == 2 and ally.ring.positions[2] == ORIENTAL and ally.gold[2] == 30 and ally.gold[0] == 30


def test_a_whole_district_doubles_the_bare_rent_buildings_take_their_rent() -> None:
    s = table()
    for sq in (ORIENTAL, VERMONT, CONNECTICUT):
        s.ring.owners[sq] = 0
    assert next_turn(s, [2, 4])[1].gold == [32, 28]
    s.ring.buildings[ORIENTAL] = 2
    assert next_turn(s, [2, 4])[1].gold == [39, 21]  # 9 with two houses


def test_gates_three_five_ten_twenty() -> None:
    gates = [5, 15, 25, 35]
    for held, rent in zip(range(1, 5), (3, 5, 10, 20), strict=True):
        s = table()
        for sq in gates[:held]:
            s.ring.owners[sq] = 0
        s.gold[1] = 40
        assert next_turn(s, [2, 3])[1].gold[1] == 40 - rent  # lands on the Reading gates


def test_utilities_take_the_dice_sum_times_three_for_both() -> None:
    s = table()
    s.ring.positions[1] = 7
    s.ring.owners[ELECTRIC] = 0
    assert next_turn(s, [1, 4])[1].gold[1] == 25
    s.ring.owners[WATER] = 0
    assert next_turn(s, [1, 4])[1].gold[1] == 15


# --- building and mortgages ------------------------------------------------------------------


def light_blue(seat: int = 0) -> State:
    s = table()
    s.turn = seat
    s.phase = "action"
    for sq in (ORIENTAL, VERMONT, CONNECTICUT):
        s.ring.owners[sq] = seat
    return s


def test_building_needs_the_whole_district_and_goes_evenly() -> None:
    s = light_blue()
    s.ring.owners[CONNECTICUT] = 1
    assert refused(s, c.Build(ORIENTAL), reason="NO_WHOLE_DISTRICT")
    s = light_blue()
    _, one = when(s, c.Build(ORIENTAL))
    assert one.ring.buildings[ORIENTAL] == 1 and one.gold[0] == 25 and one.ring.houses_bank == 31
    assert refused(one, c.Build(ORIENTAL), reason="BUILD_EVENLY")
    _, two = when(one, c.Build(VERMONT))
    assert two.ring.buildings[VERMONT] == 1 and two.turn == 0 and two.phase == "action"  # the turn goes on
    s.ring.mortgaged[VERMONT] = True
    assert refused(s, c.Build(ORIENTAL), reason="DISTRICT_MORTGAGED")
    assert refused(light_blue(), c.Build(MEDITERRANEAN), reason="NOT_YOUR_LOT")


def test_the_bank_has_32_houses_and_12_hotels_a_hotel_returns_four() -> None:
    s = light_blue()
    s.ring.houses_bank = 0
    assert refused(s, c.Build(ORIENTAL), reason="BANK_EMPTY")
    s = light_blue()
    s.ring.buildings[ORIENTAL] = s.ring.buildings[VERMONT] = s.ring.buildings[CONNECTICUT] = 4
    s.ring.houses_bank = 20
    _, hotel = when(s, c.Build(ORIENTAL))
    assert hotel.ring.buildings[ORIENTAL] == 5 and hotel.ring.hotels_bank == 11 and hotel.ring.houses_bank == 24
    assert refused(hotel, c.Build(ORIENTAL), reason="HOTEL_BUILT")
    s.ring.hotels_bank = 0
    assert refused(s, c.Build(ORIENTAL), reason="BANK_EMPTY")


def test_mortgage_half_redeem_ten_percent_more_none_with_buildings() -> None:
    s = light_blue()
    _, m = when(s, c.Mortgage(CONNECTICUT))
    assert m.ring.mortgaged[CONNECTICUT] and m.gold[0] == 36  # 120 / 2 / 10
    assert refused(m, c.Mortgage(CONNECTICUT), reason="MORTGAGED")
    _, r = when(m, c.Redeem(CONNECTICUT))
    assert not r.ring.mortgaged[CONNECTICUT] and r.gold[0] == 36 - 7  # 6 + 10 %, rounded up
    s.ring.buildings[ORIENTAL] = 1
    assert refused(s, c.Mortgage(CONNECTICUT), reason="DISTRICT_BUILT")


# --- trades ----------------------------------------------------------------------------------


def test_one_trade_offer_per_turn_accepted_out_of_turn() -> None:
    s = light_blue()
    s.ring.owners[BOARDWALK] = 1
    _, offered = when(s, c.OfferTrade(1, [ORIENTAL], [BOARDWALK], give_gold=5))
    assert [d.kind for d in GAME.pending(offered) if d.seat == 1] == ["trade"]
    assert refused(offered, c.OfferTrade(1, [VERMONT], []), reason="ALREADY_OFFERED")
    _, done = when(offered, c.AnswerTrade(True), seat=1)
    assert done.ring.owners[ORIENTAL] == 1 and done.ring.owners[BOARDWALK] == 0 and done.gold == [25, 35]
    _, declined = when(offered, c.AnswerTrade(False), seat=1)
    assert declined.ring.owners[ORIENTAL] == 0 and declined.gold == [30, 30] and declined.ring.offer is None
    assert refused(declined, c.OfferTrade(1, [VERMONT], []), reason="ALREADY_OFFERED")


def test_no_lots_of_built_districts_in_trades_and_offers_lapse_with_the_turn() -> None:
    s = light_blue()
    s.ring.buildings[VERMONT] = 1
    assert refused(s, c.OfferTrade(1, [ORIENTAL], []), reason="DISTRICT_BUILT")
    assert refused(s, c.OfferTrade(1, [], [BOARDWALK]), reason="NOT_YOUR_LOT")
    assert refused(s, c.OfferTrade(1, [], [], get_gold=31), reason="NOT_ENOUGH_GOLD")
    s = light_blue()
    _, offered = when(s, c.OfferTrade(1, [ORIENTAL], [], get_gold=3))
    offered.phase = "continue"
    _, later = when(offered, c.EndTurn(), source=Rigged([5, 5, 5, 6]))
    assert later.ring.offer is None and refused(later, c.AnswerTrade(True), seat=1, reason="NO_OFFER")


# --- taxes and cards -------------------------------------------------------------------------


def test_income_tax_is_twenty_or_ten_percent_of_the_wealth_luxury_ten() -> None:
    s = table()
    s.ring.positions[1] = 1
    assert next_turn(s, [1, 2])[1].gold[1] == 10  # max(20, 3)
    s.gold[1] = 200
    s.ring.owners[BOARDWALK] = 1  # 40
    s.ring.owners[PARK_PLACE] = 1
    s.ring.mortgaged[PARK_PLACE] = True  # 18
    assert next_turn(s, [1, 2])[1].gold[1] == 200 - 26  # 10 % of 258, rounded half up
    s = table()
    s.ring.positions[1] = 35
    assert next_turn(s, [1, 2])[1].gold[1] == 20


def test_the_decks_are_data_with_the_seeds_own_kinds() -> None:
    for deck in ("chance", "chest"):
        kinds = {all_cards()[x].kind for x in deck_of(deck)}
        assert {"money", "fine", "dungeon", "repairs", "lose_piece", "jail_free", "advance"} <= kinds
    assert all(cd.en and cd.ru for cd in all_cards().values())


def chance_turn(card_id: str, **setup: object) -> tuple[list[msgspec.Struct], State]:
    s = table()
    s.ring.positions[1] = 4  # 4 + 3 = Chance
    for key, value in setup.items():
        setattr(s.ring, key, value)
    return next_turn(s, [1, 2], [card_index(s, card_id)])


def test_chance_money_dungeon_repairs_and_the_cheapest_piece() -> None:
    events, after = chance_turn("chance.dividend")
    assert e.RingCardDrawn(1, "chance.dividend") in events and after.gold[1] == 35
    _, jailed = chance_turn("chance.dungeon")
    assert jailed.ring.dungeon[1] == 0 and jailed.ring.positions[1] == 10
    owners = [-1] * 40
    owners[ORIENTAL] = owners[VERMONT] = 1
    buildings = [0] * 40
    buildings[ORIENTAL], buildings[VERMONT] = 5, 2
    _, repaired = chance_turn("chance.repairs", owners=owners, buildings=buildings)
    assert repaired.gold[1] == 30 - 10 - 2 * 3
    s = table()
    s.pieces[cell("e5")] = s.pieces.pop(next(x for x, p in s.pieces.items() if p.side == 1 and p.kind == Kind.KING))
    s.pieces[cell("d9")] = Piece(Kind.ROOK, 1)
    s.pieces[cell("d10")] = Piece(Kind.KNIGHT, 1)
    s.ring.positions[1] = 4
    events, lost = next_turn(s, [1, 2], [card_index(s, "chance.deserter")])
    assert e.PieceSold(1, cell("d10"), Kind.KNIGHT, 0, "card") in events and cell("d9") in lost.pieces


def test_the_pass_card_is_kept_and_not_drawn_again() -> None:
    _, kept = chance_turn("chance.pass")
    assert kept.ring.passes[1] == ["chance.pass"]
    assert "chance.pass" not in [x for x in deck_of("chance") if x not in kept.ring.passes[1]]


# --- the Dungeon -----------------------------------------------------------------------------


def jailed(tries: int = 0) -> State:
    s = own_all(table(), 1)
    s.ring.positions[1] = 10
    s.ring.dungeon[1] = tries
    return s


def test_the_dungeon_opens_the_turn_with_its_choice() -> None:
    events, s = next_turn(jailed(), [])
    assert s.phase == "dungeon" and not events_of(events, e.DiceRolled)
    assert refused(s, c.DrawCard(), reason="WRONG_PHASE") and refused(s, c.UsePass(), reason="NO_PASS")
    d = next(x for x in GAME.pending(s) if x.seat == 1)
    assert d.kind == "dungeon" and GAME.default_command(s, d) == c.RollDice()


def test_out_by_doubles_no_further_roll() -> None:
    _, s = next_turn(jailed(), [])
    events, out = when(s, c.RollDice(), source=Rigged([2, 2, 6, 6]))
    assert e.DungeonLeft(1, "doubles") in events and out.ring.positions[1] == 14 and out.ring.dungeon[1] == -1
    assert len(events_of(events, e.DiceRolled)) == 1 and out.phase == "action"


def test_a_failed_try_ends_the_ring_part_the_third_pays_and_goes() -> None:
    _, s = next_turn(jailed(), [])
    events, failed = when(s, c.RollDice(), source=Rigged([1, 2]))
    assert e.DungeonTried(1) in events and failed.ring.dungeon[1] == 1 and failed.phase == "action"
    _, s = next_turn(jailed(2), [])
    events, paid = when(s, c.RollDice(), source=Rigged([1, 2]))
    assert e.DungeonLeft(1, "paid") in events and paid.gold[1] == 25 and paid.ring.positions[1] == 13


def test_pay_five_or_use_a_pass_then_roll() -> None:
    _, s = next_turn(jailed(), [])
    events, fined = when(s, c.PayFine(), source=Rigged([1, 2]))
    assert fined.gold[1] == 25 and fined.ring.positions[1] == 13 and e.DungeonLeft(1, "fine") in events
    s.ring.passes[1] = ["chest.pass"]
    _, passed = when(s, c.UsePass(), source=Rigged([1, 2]))
    assert passed.gold[1] == 30 and passed.ring.passes[1] == [] and passed.ring.positions[1] == 13
    s.gold[1] = 4
    assert refused(s, c.PayFine(), reason="NOT_ENOUGH_GOLD")


# --- elimination and the safe-conduct --------------------------------------------------------


def test_an_eliminated_players_lots_go_back_to_the_bank() -> None:
    s = light_blue()
    s.ring.buildings[ORIENTAL] = 5
    s.ring.hotels_bank = 11
    s.ring.owners[BOARDWALK] = 1
    s.ring.mortgaged[BOARDWALK] = True
    s2 = table(3)
    s2.ring = s.ring
    events, after = when(s2, c.Surrender(), seat=0)
    assert e.LotsReturned(0) in events
    assert after.ring.owners[ORIENTAL] == -1 and after.ring.buildings[ORIENTAL] == 0 and after.ring.hotels_bank == 12
    assert after.ring.owners[BOARDWALK] == 1 and after.ring.mortgaged[BOARDWALK]


def test_the_safe_conduct_takes_fifteen_off_the_next_rent_by_itself() -> None:
    s = table()
    s.turn, s.phase = 1, "action"
    _, bought = when(s, c.BuyItem("safe_conduct"))
    assert bought.gold[1] == 24 and bought.inventory[1] == ["safe_conduct"]
    assert refused(bought, c.UseItem("safe_conduct"), reason="NOT_USABLE")
    t = table()
    t.inventory[1] = ["safe_conduct"]
    t.ring.positions[1] = 21
    t.ring.owners[BOARDWALK] = 0
    t.ring.buildings[BOARDWALK] = 2  # rent 60
    events, after = next_turn(t, [1, 3])  # 21 + 4 = 25: the B. & O. gates, free
    assert after.inventory[1] == ["safe_conduct"]
    t.ring.positions[1] = 33
    events, after = next_turn(t, [2, 4])
    assert e.SafeConductSpent(1) in events and after.inventory[1] == [] and after.gold == [30 + 30, 0]
    assert e.DebtForgiven(1, 15) in events and not after.item_used


def test_the_ring_writes_public_journal_lines_in_both_languages() -> None:
    s = table()
    s.ring.owners[ORIENTAL] = 0
    events, _ = next_turn(s, [2, 4])
    lines = [line for ev in events for line in GAME.journal(s, ev)]
    codes = [line.code for line in lines]
    assert "DICE_ROLLED" in codes and "TOKEN_MOVED" in codes and "RING_GOLD" in codes
    ring = ("DICE_ROLLED", "TOKEN_MOVED", "RING_GOLD")
    assert all(line.ru and line.en and line.audience is None for line in lines if line.code in ring)


def test_advance_cards_pay_start_when_passed_back_three_does_not() -> None:
    s = own_all(table(), 1)
    s.ring.positions[1] = 33  # 33 + 3 = Chance (36)
    events, after = next_turn(s, [1, 2], [card_index(s, "chance.illinois")])
    assert after.ring.positions[1] == 24 and e.GoldPaid(1, 10, "start") in events
    events, after = next_turn(s, [1, 2], [card_index(s, "chance.gates_1")])
    assert after.ring.positions[1] == READING and e.GoldPaid(1, 10, "start") in events
    events, after = next_turn(s, [1, 2], [card_index(s, "chance.back_three")])
    assert not [ev for ev in events if isinstance(ev, e.GoldPaid) and ev.reason == "start"]
    assert after.ring.positions[1] == 33 and len(events_of(events, e.RingCardDrawn)) == 2  # Chest at 33


# --- decisions and descriptors ---------------------------------------------------------------


def test_ring_decisions_have_descriptors_clocks_and_safe_defaults() -> None:
    s = table()
    _, buy = next_turn(s, [2, 4])
    assert {type(m.command) for m in GAME.legal(buy, 1, NOW)} >= {c.BuyLot, c.DeclineLot}
    turn = next(d for d in GAME.pending(buy) if d.seat == 1)
    assert turn.kind == "buy" and GAME.default_command(buy, turn) == c.DeclineLot()
    _, auction = when(buy, c.DeclineLot())
    bids = [m for m in GAME.legal(auction, 0, NOW) if isinstance(m.command, c.Bid)]
    assert len(bids) == 1 and bids[0].params[0].field == "amount"
    assert (bids[0].params[0].domain.lo, bids[0].params[0].domain.hi) == (1, 30)  # type: ignore[union-attr]
    decision = next(d for d in GAME.pending(auction) if d.seat == 0)
    assert decision.kind == "bid" and GAME.default_command(auction, decision) == c.PassBid()
    # the deadline and the default are the match's to check (SubmitDefaultCommand); the rules
    # only say what a run-out bid clock does: a pass, and no strike
    ctx = DecideContext(0, decision.deadline_ms, Rigged([]), timed_out=decision)
    events = GAME.decide(auction, c.PassBid(), ctx)
    assert e.BidPassed(0) in events and not [ev for ev in events if isinstance(ev, e.Acted)]  # no strike


def test_estate_descriptors_list_what_decide_accepts() -> None:
    s = light_blue()
    s.ring.owners[BOARDWALK] = 1
    moves = {type(m.command): m for m in GAME.legal(s, 0, NOW)}
    assert moves[c.Build].params[0].domain.values == [ORIENTAL, VERMONT, CONNECTICUT]  # type: ignore[union-attr]
    assert moves[c.Mortgage].params[0].domain.values == [ORIENTAL, VERMONT, CONNECTICUT]  # type: ignore[union-attr]
    assert c.Redeem not in moves and c.OfferTrade in moves
    _, offered = when(s, c.OfferTrade(1, [ORIENTAL], []))
    assert c.OfferTrade not in {type(m.command) for m in GAME.legal(offered, 0, NOW)}
    answers = [m.command for m in GAME.legal(offered, 1, NOW) if isinstance(m.command, c.AnswerTrade)]
    assert answers == [c.AnswerTrade(True), c.AnswerTrade(False)]
