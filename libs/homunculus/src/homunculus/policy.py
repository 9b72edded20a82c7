"""Bot hooks: the random legal player, the playout player and the evaluation the strong bot's
search uses (the easy heuristic is `homunculus.bot`).

`rollout_policy` plays a seat's move in a full state, and is only ever given the sampled worlds
of a search (`determinize`): it never spells out the legal descriptors, it builds the few
moves worth playing out from the state directly (the easy bot's scores, cut down):

- «Уно!» and «Поймать» first; a trade offer is declined; a bid goes a quarter of the lot's price above
  the high bid while that stays within the price and the reserve of gold, else it passes;
- the Dungeon: a pass card, else the fine when rich, else the dice; a free lot is bought while
  the reserve stays;
- the action: every playable card with each of its moves, scored like the easy bot (the taken
  piece's worth, less the moving piece's when an enemy reaches its new cell, plus it when the
  piece escapes, less the chance of a mine the mover cannot see times the piece's worth); the
  action cards by their effect on the next player; drawing (or, at ten cards, exchanging the
  cheapest card). Tiles, the shop and the estates are left out of playouts;
- after a draw the drawn card is played when it scores above keeping it; the free move takes
  the best move, or ends the turn.

A tenth of the moves are a random pick among those candidates, so playouts vary. The mines it
steps around are what the mover could know (its own and allied mines, and the share of hidden
mines among the closed cells of the centre), never the sample's hidden mines themselves.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from homunculus import cards as k
from homunculus import commands as c
from homunculus.board import moves_of
from homunculus.cards import Card
from homunculus.ring import board as rb
from homunculus.ring.state import BUY, DUNGEON, Auction
from homunculus.state import ACTION, AFTER_DRAW, CONTINUE, FREE_MOVE, State
from tablehall_boards import Kind, Move, cross

# what a piece is worth in a playout and in the evaluation (the easy bot's table; the king apart)
WORTH: dict[Kind, float] = {
    Kind.PAWN: 1.0,
    Kind.KNIGHT: 3.0,
    Kind.BISHOP: 3.0,
    Kind.ROOK: 5.0,
    Kind.QUEEN: 9.0,
    Kind.KING: 60.0,
}
THREAT_SHARE = 0.8
RESERVE = 8
EXPLORE = 0.1  # the share of playout moves picked at random among the candidates
KING_BASE = 6.0  # the evaluation: a live king's own worth (the armies without it are material)
WOUND = 3.0  # the evaluation: what a wounded king costs
GOLD_WORTH = 0.1  # the evaluation: a gold coin, in pawns
_CENTRE: frozenset[int] = cross.centre()


def random_policy(view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    """A random legal command; it never surrenders while anything else is possible."""
    keep_playing = [cmd for cmd in legal if not isinstance(cmd, c.Surrender)]
    return rng.choice(keep_playing or legal)


def evaluate(state: State, seat: int) -> float:
    """The seat's side's share of the worth on the board (1 when it has won, 0 when it is out):
    pieces by the easy bot's worth, a live king `KING_BASE` less `WOUND` when wounded, gold at
    `GOLD_WORTH` a coin."""
    if state.finished:
        return 1.0 if state.places and seat in state.places[0] else 0.0
    if not state.alive[seat]:
        return 0.0
    worth = [0.0] * state.players
    for p in range(state.players):
        if state.alive[p]:
            worth[p] = KING_BASE - (WOUND if state.wounded[p] else 0.0) + GOLD_WORTH * max(0, state.gold[p])
    for piece in state.pieces.values():
        if piece.kind != Kind.KING:
            worth[piece.side] += WORTH[piece.kind]
    mine = sum(w for p, w in enumerate(worth) if state.allied(seat, p))
    total = sum(worth)
    return mine / total if total > 0 else 0.5


# --- the playout player ----------------------------------------------------------------------


def rollout_policy(state: State, seat: int, rng: random.Random) -> msgspec.Struct | None:
    """A move for one of `seat`'s open decisions in the full state (None: it has none)."""
    if state.finished or not 0 <= seat < state.players or not state.alive[seat]:
        return None
    window = state.uno
    if window is not None:
        if seat == window.seat:
            return c.SayUno()
        if not state.allied(seat, window.seat):
            return c.CatchUno()
    r = state.ring
    if r.auction is not None and seat in r.auction.bidders and seat != r.auction.high_bidder:
        return _bid(state, seat, r.auction)
    if r.offer is not None and r.offer.to == seat:
        return c.AnswerTrade(False)
    if seat != state.turn:
        return None
    phase = state.phase
    gold = state.gold[seat]
    if phase == DUNGEON:
        if r.passes[seat]:
            return c.UsePass()
        return c.PayFine() if gold - rb.DUNGEON_FINE >= 3 * RESERVE else c.RollDice()
    if phase == BUY:
        lot = rb.square(r.buy_square)
        return c.BuyLot() if gold - lot.price >= RESERVE else c.DeclineLot()
    if phase in (ACTION, CONTINUE, AFTER_DRAW, FREE_MOVE):
        return _turn_move(state, seat, phase, rng)
    return None


def _bid(state: State, seat: int, a: Auction) -> msgspec.Struct:
    """A quarter of the lot's price above the high bid (at least 1), up to what the bidder
    would pay (the price, keeping the reserve); else pass. Big steps keep playouts short."""
    price = rb.square(a.square).price
    limit = min(price, state.gold[seat] - RESERVE)
    if a.high_bid + 1 > limit:
        return c.PassBid()
    return c.Bid(min(limit, a.high_bid + max(1, price // 4)))


class _Board:
    """What a playout move is scored by: the enemies' reach and the mover's mine risk."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.threatened: set[int] = set()
        for p in state.live_players():
            if not state.allied(seat, p):
                self.threatened.update(m.target for m in moves_of(state, p))
        known = {m.cell for m in state.mines if state.mine_visible_to(m, seat)}
        self.known = known
        self.opened = set(state.opened)
        self.halves = {x for d in state.dominoes for x in d.cells}
        closed = sum(1 for x in _CENTRE if x not in self.opened and x not in known and x not in self.halves)
        hidden = len(state.mines) - len(known)
        self.risk = hidden / closed if closed and hidden > 0 else 0.0

    def move_score(self, move: Move) -> float:
        st = self.state
        piece = st.pieces[move.origin]
        worth = WORTH[piece.kind]
        if piece.kind == Kind.KING:
            worth = WORTH[Kind.KING] / (1 if st.wounded[self.seat] else 2)
        score = 0.0
        victim = st.pieces.get(move.target)
        if victim is not None and not st.allied(self.seat, victim.side):
            score += WORTH[victim.kind] * (1.5 if victim.kind == Kind.KING else 1.0)
        elif move.target in self.halves:
            score += 0.3
        if move.target in self.threatened:
            score -= worth * THREAT_SHARE
        if move.origin in self.threatened:
            score += worth * THREAT_SHARE
        target = move.target
        if target in _CENTRE and target not in self.opened and target not in self.known:
            score -= self.risk * worth
        return score


def _card_cost(card: Card, army: int) -> float:
    if card.value == k.WILD_FOUR:
        return 0.6
    if card.value == k.WILD_CARD:
        return 0.8
    return 0.4 if card.colour == army else 0.0


def _card_effect(card: Card, state: State, seat: int) -> float:
    gain = {k.SKIP: 1.0, k.REVERSE: 0.6, k.DRAW_TWO: 2.0, k.WILD_FOUR: 3.0}.get(card.value, 0.0)
    return gain if not state.allied(seat, state.next_live(seat)) else -gain


def _best_colour(hand: list[Card]) -> int:
    counts = [0] * len(k.COLOURS)
    for card in hand:
        if not card.is_wild:
            counts[card.colour] += 1
    return max(range(len(counts)), key=lambda i: counts[i])


def _card_options(
    state: State, seat: int, cards: list[Card], board: _Board, moves: list[Move]
) -> list[tuple[float, msgspec.Struct]]:
    hand = state.hands[seat]
    army = state.army_colour(seat)
    by_kind: dict[Kind, list[tuple[float, Move]]] = {}
    scored = [(board.move_score(m), m) for m in moves]
    for value, m in scored:
        by_kind.setdefault(state.pieces[m.origin].kind, []).append((value, m))
    out: list[tuple[float, msgspec.Struct]] = []
    colour = _best_colour(hand)
    last = 3.0 if len(hand) == 1 else 0.0
    for card in sorted(set(cards)):
        if not k.matches(card, state.top, state.colour, army):
            continue
        base = 0.3 - _card_cost(card, army) + _card_effect(card, state, seat) + last
        choose = colour if card.is_wild else -1
        piece = card.piece
        if piece is not None or card.value == k.WILD_CARD:
            for value, m in scored if piece is None else by_kind.get(piece, []):
                out.append((base + value, c.PlayCard(card.colour, card.value, m.origin, m.target, choose)))
        else:
            out.append((base, c.PlayCard(card.colour, card.value, choose_colour=choose)))
    return out


def _turn_move(state: State, seat: int, phase: str, rng: random.Random) -> msgspec.Struct:
    board = _Board(state, seat)
    moves = moves_of(state, seat)
    hand = state.hands[seat]
    options: list[tuple[float, msgspec.Struct]]
    if phase == FREE_MOVE:
        options = [(0.0, c.EndTurn())] + [(board.move_score(m), c.FreeMove(m.origin, m.target)) for m in moves]
    elif phase == AFTER_DRAW:
        drawn = [state.drawn] if state.drawn is not None and state.drawn in hand else []
        options = [(0.0, c.KeepCard()), *_card_options(state, seat, drawn, board, moves)]
    else:
        options = _card_options(state, seat, hand, board, moves)
        if len(hand) >= k.HAND_LIMIT:
            army = state.army_colour(seat)
            cheapest = min(sorted(set(hand)), key=lambda card: _card_cost(card, army))
            options.append((-_card_cost(cheapest, army), c.ExchangeCard(cheapest.colour, cheapest.value)))
        else:
            options.append((0.2 if len(hand) < 6 else 0.0, c.DrawCard()))
        if phase == CONTINUE:
            options.append((0.0, c.EndTurn()))
    if rng.random() < EXPLORE:
        return rng.choice(options)[1]
    best = max(score for score, _ in options)
    return rng.choice([cmd for score, cmd in options if score == best])
