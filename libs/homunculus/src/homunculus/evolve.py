"""`evolve`: apply one event to the state. Total, deterministic, never draws."""

from __future__ import annotations

from functools import singledispatch

import msgspec

from homunculus import events as e
from homunculus.ring.board import dungeon_square
from homunculus.ring.cards import ring_card
from homunculus.ring.state import Auction, Offer
from homunculus.state import Mine, PlacedDomino, State, UnoWindow
from tablehall_boards import Piece
from tablehall_boards.deck import apply_drawn, put_under_discard
from tablehall_boards.dominoes import give_back, take, tile
from tablehall_rules.dispatch import ByType
from tablehall_rules.table import evolve_table


def evolve(state: State | None, event: msgspec.Struct) -> State:
    if type(event) is e.Started:  # not isinstance: see `_items_after`
        return msgspec.convert(msgspec.to_builtins(event.state), State)
    if state is None:
        raise ValueError(f"{type(event).__name__} before Started")
    if not evolve_table(state.afk, event):
        _apply_by_type(event, state)
        _items_after(event, state)
    return state


@singledispatch
def _apply(event: msgspec.Struct, state: State) -> None:
    raise TypeError(f"no evolve for {type(event).__name__}")


@_apply.register
def _(event: e.Acted, state: State) -> None:
    if event.timed_out:
        state.afk.strike(event.seat)
    else:
        state.afk.acted(event.seat)


@_apply.register
def _(event: e.CardPlayed, state: State) -> None:
    state.hands[event.seat].remove(event.card)
    state.deck = msgspec.structs.replace(state.deck, discard_pile=(*state.deck.discard_pile, event.card))
    state.colour = event.colour
    state.drawn = None


@_apply.register
def _(event: e.CardsDrawn, state: State) -> None:
    state.deck = apply_drawn(state.deck, event.drawn)
    state.hands[event.seat].extend(event.drawn.cards)


@_apply.register
def _(event: e.CardExchanged, state: State) -> None:
    state.hands[event.seat].remove(event.card)
    state.deck = put_under_discard(state.deck, [event.card])


@_apply.register
def _(event: e.DrawnSet, state: State) -> None:
    state.drawn = event.card


@_apply.register
def _(event: e.PieceMoved, state: State) -> None:
    piece = state.pieces.pop(event.origin)
    if event.promotion is not None:
        piece = Piece(event.promotion, piece.side)
    state.pieces[event.target] = piece


@_apply.register
def _(event: e.PieceRemoved, state: State) -> None:
    del state.pieces[event.cell]
    if event.cause == "capture":
        state.captured_this_round = True


@_apply.register
def _(event: e.KingWounded, state: State) -> None:
    state.wounded[event.seat] = True


@_apply.register
def _(event: e.GoldPaid, state: State) -> None:
    state.gold[event.seat] += event.amount


@_apply.register
def _(event: e.DominoTaken, state: State) -> None:
    state.bazaar = take(state.bazaar, event.tile)
    state.domino_hands[event.seat].append(event.tile)


@_apply.register
def _(event: e.DominoPlaced, state: State) -> None:
    state.domino_hands[event.seat].remove(tile(event.low, event.high))
    state.dominoes.append(PlacedDomino(event.id, event.seat, event.low, event.high, event.cell_a, event.cell_b))
    state.next_domino_id = event.id + 1


@_apply.register
def _(event: e.DominoRemoved, state: State) -> None:
    for d in state.dominoes:
        if d.id == event.id:
            state.dominoes.remove(d)
            state.removed_tiles.append(tile(d.first, d.second))
            state.removed_tiles.sort()
            return
    raise ValueError(f"no domino {event.id}")


@_apply.register
def _(event: e.MineExploded, state: State) -> None:
    _drop_mine(state, event.cell)


@_apply.register
def _(event: e.MineCleared, state: State) -> None:
    _drop_mine(state, event.cell)


def _drop_mine(state: State, cell: int) -> None:
    mine = state.mine_at(cell)
    if mine is None:
        raise ValueError(f"no mine on {cell}")
    state.mines.remove(mine)


@_apply.register
def _(event: e.CellsOpened, state: State) -> None:
    state.opened = sorted({*state.opened, *event.cells})


@_apply.register
def _(event: e.PhaseSet, state: State) -> None:
    state.phase = event.phase
    state.decision_no += 1
    state.turn_started_ms = event.at_ms
    if event.phase != "after_draw":
        state.drawn = None


@_apply.register
def _(event: e.EffectQueued, state: State) -> None:
    state.skips += event.skips
    state.next_draws += event.draws


@_apply.register
def _(event: e.DirectionReversed, state: State) -> None:
    state.direction = event.direction


@_apply.register
def _(event: e.TurnSkipped, state: State) -> None:
    _seen(state, event.seat)


def _seen(state: State, seat: int) -> None:
    if seat not in state.round_seen:
        state.round_seen.append(seat)


@_apply.register
def _(event: e.ItemBought, state: State) -> None:
    state.gold[event.seat] -= event.price
    if event.item != "domino":
        state.inventory[event.seat].append(event.item)


@_apply.register
def _(event: e.ItemUsed, state: State) -> None:
    state.inventory[event.seat].remove(event.item)
    state.item_used = True


@_apply.register
def _(event: e.PiecesSwapped, state: State) -> None:
    state.pieces[event.a], state.pieces[event.b] = state.pieces[event.b], state.pieces[event.a]


@_apply.register
def _(event: e.ColourChanged, state: State) -> None:
    state.colour = event.colour


@_apply.register
def _(event: e.KingHealed, state: State) -> None:
    state.wounded[event.seat] = False


@_apply.register
def _(event: e.HandDiscarded, state: State) -> None:
    state.deck = put_under_discard(state.deck, state.hands[event.seat])
    state.hands[event.seat] = []


@_apply.register
def _(event: e.RoundDie, state: State) -> None:
    return None  # the face is a fact for the journal; its effects are their own events


@_apply.register
def _(event: e.MinesLaid, state: State) -> None:
    state.mines = sorted([*state.mines, *(Mine(cell) for cell in event.cells)], key=lambda m: m.cell)


@_apply.register
def _(event: e.RoundEnded, state: State) -> None:
    state.round_no = event.round_no + 1
    state.quiet_rounds = state.quiet_rounds + 1 if event.quiet else 0
    state.round_seen = []
    state.captured_this_round = False


@_apply.register
def _(event: e.TurnBegan, state: State) -> None:
    _seen(state, event.seat)
    state.turn = event.seat
    state.phase = "action"
    state.decision_no += 1
    state.turn_started_ms = event.at_ms
    state.drawn = None
    state.skips = 0
    state.next_draws = 0
    state.item_used = False


@_apply.register
def _(event: e.UnoOpened, state: State) -> None:
    state.uno = UnoWindow(event.seat, state.decision_no)


@_apply.register
def _(event: e.UnoClosed, state: State) -> None:
    state.uno = None


@_apply.register
def _(event: e.Eliminated, state: State) -> None:
    p = event.seat
    state.alive[p] = False
    state.eliminated.append(p)
    state.pieces = {c: piece for c, piece in state.pieces.items() if piece.side != p}
    gone = [d for d in state.dominoes if d.owner == p]
    state.dominoes = [d for d in state.dominoes if d.owner != p]
    state.removed_tiles = sorted([*state.removed_tiles, *(tile(d.first, d.second) for d in gone)])
    state.bazaar = give_back(state.bazaar, state.domino_hands[p])
    state.domino_hands[p] = []
    state.deck = put_under_discard(state.deck, state.hands[p])
    state.hands[p] = []
    for mine in state.mines:
        if mine.owner == p:
            mine.owner = None
    if state.uno is not None and state.uno.seat == p:
        state.uno = None
    if state.turn == p:
        state.drawn = None


@_apply.register
def _(event: e.Finished, state: State) -> None:
    state.finished = True
    state.places = event.places
    state.end_reason = event.reason
    state.uno = None


# --- the Monopoly ring and the debts ---------------------------------------------------------


@_apply.register
def _(event: e.RingTurnBegan, state: State) -> None:
    r = state.ring
    r.doubles = 0
    r.again = False
    r.offered = False
    r.offer = None
    r.auction = None
    r.buy_square = -1


@_apply.register
def _(event: e.DiceRolled, state: State) -> None:
    r = state.ring
    r.dice = [event.first, event.second]
    double = event.first == event.second
    if event.counts:
        r.doubles = r.doubles + 1 if double else 0
    r.again = event.counts and double


@_apply.register
def _(event: e.TokenMoved, state: State) -> None:
    state.ring.positions[event.seat] = event.square


@_apply.register
def _(event: e.DungeonEntered, state: State) -> None:
    r = state.ring
    r.positions[event.seat] = dungeon_square()
    r.dungeon[event.seat] = 0
    r.again = False


@_apply.register
def _(event: e.DungeonTried, state: State) -> None:
    state.ring.dungeon[event.seat] += 1


@_apply.register
def _(event: e.DungeonLeft, state: State) -> None:
    state.ring.dungeon[event.seat] = -1


@_apply.register
def _(event: e.BuyOffered, state: State) -> None:
    state.ring.buy_square = event.square


@_apply.register
def _(event: e.LotBought, state: State) -> None:
    state.ring.owners[event.square] = event.seat
    state.gold[event.seat] -= event.price
    state.ring.buy_square = -1


@_apply.register
def _(event: e.AuctionOpened, state: State) -> None:
    state.ring.auction = Auction(event.square, list(event.bidders), at_ms=event.at_ms)
    state.ring.buy_square = -1


@_apply.register
def _(event: e.BidPlaced, state: State) -> None:
    a = state.ring.auction
    assert a is not None
    a.high_bid = event.amount
    a.high_bidder = event.seat
    a.bids += 1
    a.at_ms = event.at_ms


@_apply.register
def _(event: e.BidPassed, state: State) -> None:
    a = state.ring.auction
    assert a is not None
    a.bidders.remove(event.seat)


@_apply.register
def _(event: e.AuctionClosed, state: State) -> None:
    state.ring.auction = None
    if event.winner >= 0:
        state.ring.owners[event.square] = event.winner
        state.gold[event.winner] -= event.price


@_apply.register
def _(event: e.RingCardDrawn, state: State) -> None:
    if ring_card(event.card).is_kept:
        state.ring.passes[event.seat].append(event.card)


@_apply.register
def _(event: e.PassCardUsed, state: State) -> None:
    state.ring.passes[event.seat].remove(event.card)


@_apply.register
def _(event: e.BuildingBuilt, state: State) -> None:
    r = state.ring
    r.buildings[event.square] += 1
    if r.buildings[event.square] == 5:  # a hotel replaces 4 houses
        r.hotels_bank -= 1
        r.houses_bank += 4
    else:
        r.houses_bank -= 1
    state.gold[event.seat] -= event.cost


@_apply.register
def _(event: e.BuildingDemolished, state: State) -> None:
    r = state.ring
    level = r.buildings[event.square]
    after = level - event.levels
    if level == 5:
        r.hotels_bank += 1
        r.houses_bank -= after  # a hotel sold down to 4 houses takes them from the bank
    else:
        r.houses_bank += event.levels
    r.buildings[event.square] = after
    state.gold[event.seat] += event.refund


@_apply.register
def _(event: e.LotMortgaged, state: State) -> None:
    state.ring.mortgaged[event.square] = True
    state.gold[event.seat] += event.amount


@_apply.register
def _(event: e.LotRedeemed, state: State) -> None:
    state.ring.mortgaged[event.square] = False
    state.gold[event.seat] -= event.cost


@_apply.register
def _(event: e.TradeOffered, state: State) -> None:
    r = state.ring
    r.offered = True
    r.offer = Offer(
        event.proposer,
        event.to,
        list(event.give_lots),
        list(event.get_lots),
        event.give_gold,
        event.get_gold,
        state.decision_no,
        event.at_ms,
    )


@_apply.register
def _(event: e.TradeAnswered, state: State) -> None:
    r = state.ring
    o = r.offer
    r.offer = None
    if not event.accepted or o is None:
        return
    for sq in o.give_lots:
        r.owners[sq] = o.to
    for sq in o.get_lots:
        r.owners[sq] = o.proposer
    state.gold[o.proposer] += o.get_gold - o.give_gold
    state.gold[o.to] += o.give_gold - o.get_gold


@_apply.register
def _(event: e.PieceSold, state: State) -> None:
    del state.pieces[event.cell]
    state.gold[event.seat] += event.price


@_apply.register
def _(event: e.DebtForgiven, state: State) -> None:
    return None  # a fact for the journal: the rest of the debt is gone


@_apply.register
def _(event: e.LotsReturned, state: State) -> None:
    r = state.ring
    for sq, owner in enumerate(r.owners):
        if owner == event.seat:
            r.owners[sq] = -1
            r.mortgaged[sq] = False
            level = r.buildings[sq]
            if level == 5:
                r.hotels_bank += 1
            else:
                r.houses_bank += level
            r.buildings[sq] = 0
    r.passes[event.seat] = []


@_apply.register
def _(event: e.SafeConductSpent, state: State) -> None:
    state.inventory[event.seat].remove("safe_conduct")


# --- shop items, second part (rules/shop.py) ----------------------------------------------
# Shields go with their pieces; pieces taken, blown up or caught in a blast are remembered as
# fallen (for the resurrection); the detector and the spyglass last until the end of the turn.

FALLS = ("capture", "mine", "blast")
# the events after which the items change (any other only takes a gone piece's shield along)
_TURN_OVER = (e.TurnBegan, e.TurnSkipped, e.RoundEnded, e.Finished)
_ITEM_EVENTS = frozenset((e.PieceMoved, e.PieceRemoved, e.PiecesSwapped, e.Eliminated, *_TURN_OVER))


def _items_after(event: msgspec.Struct, state: State) -> None:
    # the exact type in a set: an isinstance of a struct class that fails costs 0.3 µs (its
    # metaclass's instance check), and most events are none of these eight; events are never subclassed
    if type(event) in _ITEM_EVENTS:
        _items_on(event, state)
    if state.shields and not all(map(state.pieces.__contains__, state.shields)):
        # a piece gone by any other way (sold for a debt, lost to a card) takes its shield along
        state.shields = [cell for cell in state.shields if cell in state.pieces]


def _items_on(event: msgspec.Struct, state: State) -> None:
    if isinstance(event, e.PieceMoved):
        if event.origin in state.shields:
            state.shields = sorted({*state.shields} - {event.origin} | {event.target})
    elif isinstance(event, e.PieceRemoved):
        if event.cell in state.shields:
            state.shields.remove(event.cell)
        if event.cause in FALLS:
            state.fallen.setdefault(event.owner, []).append(event.kind)
    elif isinstance(event, e.PiecesSwapped):
        a, b = event.a in state.shields, event.b in state.shields
        if a != b:
            state.shields = sorted({*state.shields} ^ {event.a, event.b})
    elif isinstance(event, e.Eliminated):
        state.shields = [cell for cell in state.shields if cell in state.pieces]
        if event.seat in state.detection[:1]:
            state.detection = []
        if event.seat in state.spyglass:
            state.spyglass = []
    elif isinstance(event, _TURN_OVER):
        state.detection = []
        state.spyglass = []


@_apply.register
def _(event: e.MinePlaced, state: State) -> None:
    state.mines = sorted([*state.mines, Mine(event.cell, event.seat)], key=lambda m: m.cell)


@_apply.register
def _(event: e.DetectorUsed, state: State) -> None:
    state.detection = [event.seat, event.centre]


@_apply.register
def _(event: e.ShieldGiven, state: State) -> None:
    state.shields = sorted({*state.shields, event.cell})


@_apply.register
def _(event: e.ShieldBroke, state: State) -> None:
    state.shields.remove(event.cell)


@_apply.register
def _(event: e.PieceResurrected, state: State) -> None:
    fallen = state.fallen[event.seat]
    del fallen[len(fallen) - 1 - fallen[::-1].index(event.kind)]
    state.pieces[event.cell] = Piece(event.kind, event.seat)


@_apply.register
def _(event: e.MineDefused, state: State) -> None:
    _drop_mine(state, event.cell)


@_apply.register
def _(event: e.SpyglassUsed, state: State) -> None:
    state.spyglass = [event.seat, event.watched]


# the implementations above, found once per event type (a rebuild evolves thousands of events)
_apply_by_type: ByType[None] = ByType(_apply)
