"""Legal moves as descriptors (`tablehall_rules.legal`).

The turn player, by phase: each playable card (piece and wild cards per piece that can move,
with its targets as a `Choice`, wild cards with `choose_colour`), each tile of the hand with
its placements (`cells` as a `Choice` of [low cell, high cell] pairs), draw or exchange,
keep the drawn card, the free move, end the turn. Every live player: surrender; «Уно!» for
the player with one card and «Поймать» for its opponents while the window is open.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache, lru_cache

from homunculus import cards as k
from homunculus import commands as c
from homunculus.board import grid, moves_of
from homunculus.cards import Card
from homunculus.rules import shop
from homunculus.rules.cards_play import playable
from homunculus.rules.dominoes_play import free_cells
from homunculus.rules.ring_commands import ring_legal
from homunculus.state import ACTION, AFTER_DRAW, CONTINUE, FREE_MOVE, State
from tablehall_boards import Kind, Move
from tablehall_rules import Choice, LegalMove, RuleError
from tablehall_rules.legal import move as describe

COLOURS = Choice(list(k.COLOURS))


def legal(state: State, seat: int, now_ms: int) -> list[LegalMove]:
    if state.finished or not 0 <= seat < state.players or not state.alive[seat]:
        return []
    out: list[LegalMove] = []
    if seat == state.turn:
        out += _turn_moves(state, seat)
    out += ring_legal(state, seat)
    window = state.uno
    if window is not None:
        if seat == window.seat:
            out.append(LegalMove(c.SayUno()))
        elif not state.allied(seat, window.seat):
            out.append(LegalMove(c.CatchUno()))
    out.append(LegalMove(c.Surrender()))
    return out


@cache
def _adjacent_pairs() -> tuple[tuple[int, int], ...]:
    """The side-neighbour pairs of the board, in `dominoes.placements`' order."""
    return grid().adjacent_pairs()


@lru_cache(maxsize=64)
def _spots(free: frozenset[int]) -> list[list[int]]:
    """Every [cell, cell] a tile may cover on the `free` cells, both orientations (the same
    board gives the same list: consecutive states mostly share their board; read-only)."""
    return [list(p) for a, b in _adjacent_pairs() if a in free and b in free for p in ((a, b), (b, a))]


def _targets(moves: list[Move]) -> dict[int, list[int]]:
    by_origin: dict[int, list[int]] = defaultdict(list)
    for m in moves:
        by_origin[m.origin].append(m.target)
    return by_origin


def card_moves(state: State, seat: int, card: Card, moves: list[Move] | None = None) -> list[LegalMove]:
    """The descriptors of playing `card`; `moves`: every move of the seat's pieces, if known."""
    if moves is None:
        moves = moves_of(state, seat)
    if not playable(state, seat, card, moves):
        return []
    if card.piece is not None or card.value == k.WILD_CARD:
        kind: Kind | None = card.piece
        mine = [m for m in moves if kind is None or state.pieces[m.origin].kind == kind]
        out = []
        for origin, targets in sorted(_targets(mine).items()):
            template = c.PlayCard(card.colour, card.value, origin=origin)
            if card.is_wild:
                out.append(describe(template, target=Choice(targets), choose_colour=COLOURS))
            else:
                out.append(describe(template, target=Choice(targets)))
        return out
    if card.is_wild:
        return [describe(c.PlayCard(card.colour, card.value), choose_colour=COLOURS)]
    return [LegalMove(c.PlayCard(card.colour, card.value))]


def _shop_moves(state: State, seat: int, moves: list[Move]) -> list[LegalMove]:
    out: list[LegalMove] = []
    for item in sorted(shop.PRICES):
        try:
            shop.check_buy(state, seat, c.BuyItem(item))
        except RuleError:
            continue
        out.append(LegalMove(c.BuyItem(item)))
    if state.item_used:
        return out
    owned = set(state.inventory[seat])
    targets = shop.usable_targets(state, seat) if owned & {"teleport", "castling"} else {}
    for item in sorted(owned - shop.AUTOMATIC):
        if item == "boots":
            for origin, ts in sorted(_targets(moves).items()):
                out.append(describe(c.UseItem(item, origin=origin), target=Choice(ts)))
        elif item in ("teleport", "castling"):
            for origin, ts in targets[item]:
                out.append(describe(c.UseItem(item, origin=origin), target=Choice(ts)))
        elif item == "sledgehammer":
            cells = sorted(x for d in state.dominoes if not state.allied(seat, d.owner) for x in d.cells)
            if cells:
                out.append(describe(c.UseItem(item), origin=Choice(cells)))
        elif item == "chameleon":
            out.append(describe(c.UseItem(item), colour=COLOURS))
        elif item in shop.SECOND_PART:
            out += shop.descriptors(state, seat, item)
        elif item == "medicine":
            if state.wounded[seat]:
                out.append(LegalMove(c.UseItem(item)))
        else:
            out.append(LegalMove(c.UseItem(item)))
    return out


def _turn_moves(state: State, seat: int) -> list[LegalMove]:
    phase = state.phase
    hand = state.hands[seat]
    out: list[LegalMove] = []
    moves = moves_of(state, seat)
    if phase in (ACTION, CONTINUE):
        for card in sorted(set(hand)):
            out += card_moves(state, seat, card, moves)
        spots = _spots(frozenset(free_cells(state)))
        if spots:
            for t in sorted(set(state.domino_hands[seat])):
                out.append(describe(c.PlaceDomino(t.low, t.high, []), cells=Choice(spots)))
        if len(hand) >= k.HAND_LIMIT:
            out += [LegalMove(c.ExchangeCard(card.colour, card.value)) for card in sorted(set(hand))]
        else:
            out.append(LegalMove(c.DrawCard()))
        if phase == CONTINUE:
            out.append(LegalMove(c.EndTurn()))
        out += _shop_moves(state, seat, moves)
    elif phase == AFTER_DRAW:
        if state.drawn is not None:
            out += card_moves(state, seat, state.drawn, moves)
        out.append(LegalMove(c.KeepCard()))
    elif phase == FREE_MOVE:
        for origin, targets in sorted(_targets(moves).items()):
            out.append(describe(c.FreeMove(origin, -1), target=Choice(targets)))
        out.append(LegalMove(c.EndTurn()))
    return out
