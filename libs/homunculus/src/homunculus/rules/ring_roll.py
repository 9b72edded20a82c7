"""The ring roll (бросок) that begins every turn, before the shop and the action.

A turn's ring part: two dice; the token goes forward by their sum (Start +10 when passed or
reached) and the square it stops on acts: a free lot may be bought or goes to auction (at
once when the lander cannot pay its price), an owned lot takes rent, a tax is paid, a Chance
or Chest card is drawn, «В Темницу» sends to the Dungeon. Doubles (дубль) roll again once the
square is dealt with; the third doubles in a row goes straight to the Dungeon. A skipped turn
has no roll (the roll belongs to the turn).

In the Dungeon (Темница) the turn starts with a choice (phase `dungeon`): try for doubles
(`RollDice`: doubles free the token, which moves by them and rolls no more), pay 5 (`PayFine`)
or give back a pass card (`UsePass`), both followed by an ordinary roll. After the third failed
try the player pays 5 (as a debt if it must) and moves by that roll. A failed try ends the
ring part of the turn. Card draws pick one card at random from the deck's cards not kept by a
player (**Choice**: the deck is shuffled before every draw, so its order is no secret).
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.flow import Flow
from homunculus.ring import board as rb
from homunculus.ring.cards import deck_of, ring_card
from homunculus.ring.state import BUY, DUNGEON
from homunculus.rules.debts import SALE_PRICE, pay
from homunculus.rules.ring_lots import rent_due, start_auction
from homunculus.state import ACTION


def begin_ring(flow: Flow) -> None:
    """The turn just began: reset the ring's turn facts, then roll (or the Dungeon's choice)."""
    s = flow.state
    seat = s.turn
    flow.emit(e.RingTurnBegan(seat))
    if s.ring.dungeon[seat] >= 0:
        flow.emit(e.PhaseSet(DUNGEON, flow.now_ms))
        return
    roll_and_move(flow, seat)


def roll(flow: Flow, seat: int, counts: bool = True) -> tuple[int, int]:
    first, second = flow.rng.die(), flow.rng.die()
    flow.emit(e.DiceRolled(seat, first, second, counts))
    return first, second


def roll_and_move(flow: Flow, seat: int) -> None:
    first, second = roll(flow, seat)
    if first == second and flow.state.ring.doubles >= 3:
        flow.emit(e.DungeonEntered(seat, "doubles"))
        finish_ring(flow)
        return
    advance(flow, seat, first + second)


def advance(flow: Flow, seat: int, steps: int) -> None:
    """Forward by `steps` (Start +10 when the walk reaches it), then the square acts."""
    walk = rb.TRACK.advance(flow.state.ring.positions[seat], steps)
    move_to(flow, seat, walk.end, passes=walk.reaches(rb.START))


def move_to(flow: Flow, seat: int, target: int, passes: bool) -> None:
    """Forward to `target` (Start +10 when `passes`), then the square acts."""
    flow.emit(e.TokenMoved(seat, target, passed_start=passes))
    if passes:
        flow.emit(e.GoldPaid(seat, rb.START_BONUS, "start"))
    land_on(flow, seat, target)


def land_on(flow: Flow, seat: int, index: int) -> None:
    s = flow.state
    sq = rb.square(index)
    if sq.ownable:
        owner = s.ring.owners[index]
        if owner < 0:
            if s.gold[seat] >= sq.price:
                flow.emit(e.BuyOffered(seat, index))
                flow.emit(e.PhaseSet(BUY, flow.now_ms))
            elif start_auction(flow, index):
                ring_goes_on(flow, flow.state.turn)
            return
        rent = rent_due(s, seat, index)
        if rent > 0 and "safe_conduct" in s.inventory[seat]:
            flow.emit(e.SafeConductSpent(seat))
            rent = max(0, rent - rb.SAFE_CONDUCT_OFF)
        pay(flow, seat, rent, owner, "rent")
    elif sq.kind == "tax":
        pay(flow, seat, income_tax(flow, seat) if sq.tax == "income" else rb.LUXURY_TAX, None, "tax")
    elif sq.kind in ("chance", "chest"):
        draw_ring_card(flow, seat, sq.kind)
        return
    elif sq.kind == "to_dungeon":
        flow.emit(e.DungeonEntered(seat, "square"))
    ring_goes_on(flow, seat)


def income_tax(flow: Flow, seat: int) -> int:
    """Подать: the greater of 20 and 10 % (rounded half up) of the total wealth."""
    return max(rb.INCOME_TAX_MIN, rb.half_up(wealth(flow, seat), 10))


def wealth(flow: Flow, seat: int) -> int:
    """Gold, lots at their price (mortgaged ones at what they would redeem less: the mortgage
    value), buildings at their cost (a hotel 5 houses)."""
    r = flow.state.ring
    total = flow.state.gold[seat]
    for sq in rb.squares():
        if r.owners[sq.index] == seat:
            total += sq.mortgage if r.mortgaged[sq.index] else sq.price
            total += r.buildings[sq.index] * sq.house_cost
    return total


def ring_goes_on(flow: Flow, seat: int) -> None:
    """After a square (or a decision about it): roll again on doubles, else the ring part ends."""
    s = flow.state
    if s.finished or s.turn != seat or not s.alive[seat]:
        return
    if s.ring.again and s.ring.dungeon[seat] < 0:
        roll_and_move(flow, seat)
    else:
        finish_ring(flow)


def finish_ring(flow: Flow) -> None:
    flow.emit(e.PhaseSet(ACTION, flow.now_ms))


def draw_ring_card(flow: Flow, seat: int, deck: str) -> None:
    s = flow.state
    held = {c for p in s.ring.passes for c in p}
    cards = [c for c in deck_of(deck) if c not in held]
    card = ring_card(cards[flow.rng.randint(0, len(cards) - 1)])
    flow.emit(e.RingCardDrawn(seat, card.id))
    here = s.ring.positions[seat]
    if card.kind in ("advance", "nearest"):
        target = rb.index_of(card.target) if card.kind == "advance" else rb.nearest(here, card.target)
        advance(flow, seat, rb.TRACK.distance(here, target) or rb.SIZE)
        return
    if card.kind == "back":
        target = rb.TRACK.advance(here, -card.steps).end
        flow.emit(e.TokenMoved(seat, target))
        land_on(flow, seat, target)
        return
    if card.kind == "money":
        flow.emit(e.GoldPaid(seat, card.amount, "card"))
    elif card.kind == "fine":
        pay(flow, seat, card.amount, None, "card")
    elif card.kind == "pay_each":
        for p in s.live_players():
            if p != seat:
                pay(flow, seat, card.amount, p, "card")
    elif card.kind == "collect_each":
        for p in s.live_players():
            if p != seat:
                pay(flow, p, card.amount, seat, "card")
    elif card.kind == "dungeon":
        flow.emit(e.DungeonEntered(seat, "card"))
    elif card.kind == "repairs":
        r = s.ring
        levels = [r.buildings[i] for i in range(rb.SIZE) if r.owners[i] == seat]
        cost = sum(card.hotel if b == rb.HOTEL else card.house * b for b in levels)
        pay(flow, seat, cost, None, "repairs")
    elif card.kind == "lose_piece":
        own = sorted(
            (
                (SALE_PRICE[p.kind], cell, p.kind)
                for cell, p in s.pieces.items()
                if p.side == seat and p.kind in SALE_PRICE
            )
        )
        if own:
            _, cell, kind = own[0]
            flow.emit(e.PieceSold(seat, cell, kind, 0, "card"))
    ring_goes_on(flow, seat)


def dungeon_roll(flow: Flow, seat: int) -> None:
    """`RollDice` in the Dungeon: doubles free the token; the third failure pays and goes."""
    first, second = roll(flow, seat, counts=False)
    if first == second:
        flow.emit(e.DungeonLeft(seat, "doubles"))
        advance(flow, seat, first + second)
        return
    if flow.state.ring.dungeon[seat] + 1 < rb.DUNGEON_TRIES:
        flow.emit(e.DungeonTried(seat))
        finish_ring(flow)
        return
    pay(flow, seat, rb.DUNGEON_FINE, None, "dungeon")
    flow.emit(e.DungeonLeft(seat, "paid"))
    advance(flow, seat, first + second)


def leave_dungeon(flow: Flow, seat: int, how: str) -> None:
    """`PayFine` / `UsePass`: out, then an ordinary roll."""
    if how == "fine":
        flow.emit(e.GoldPaid(seat, -rb.DUNGEON_FINE, "dungeon"))
    else:
        flow.emit(e.PassCardUsed(seat, flow.state.ring.passes[seat][0]))
    flow.emit(e.DungeonLeft(seat, how))
    roll_and_move(flow, seat)
