"""The easy heuristic bot and the random policy; both read the view and the legal commands.

Easy: roll; buy Companies, upgrades and lost pieces while 1000 stays in cash; never attack with
the King; prefer a piece move that wins a duel on odds, then one onto an unowned Company it can
buy, then any other; raid when the odds are at least even, else pay.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from magnates import board, tables
from magnates import commands as c

RESERVE = 1000


def _win_chance(attack_power: int, defend_power: int) -> float:
    wins = sum(1 for a in range(1, 7) for d in range(1, 7) if a + attack_power > d + defend_power)
    return wins / 36


def choose(view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    me = view["players"][view["turn"]]
    cash = me["cash"]
    by_type: dict[type[Any], list[msgspec.Struct]] = {}
    for command in legal:
        by_type.setdefault(type(command), []).append(command)
    owners = {co["cell"]: co for co in view["companies"]}

    def first(kind: type[Any]) -> msgspec.Struct | None:
        found = by_type.get(kind)
        return found[0] if found else None

    if (roll := first(c.Roll)) is not None:
        return roll
    buy = first(c.BuyCompany)
    if buy is not None and view["stop"] is not None and cash - board.square(view["stop"]["cell"]).price >= RESERVE:
        return buy
    for piece in by_type.get(c.BuyPiece, []):
        assert isinstance(piece, c.BuyPiece)
        if cash - tables.PIECE_PRICE[piece.piece] >= RESERVE:
            return piece
    for up in by_type.get(c.Upgrade, []):
        assert isinstance(up, c.Upgrade)
        if cash - board.upgrade_cost(up.cell) >= RESERVE:
            return up
    for arb in by_type.get(c.ArbitrageBuy, []):
        assert isinstance(arb, c.ArbitrageBuy)
        value = owners[arb.cell]["price"] * (2 + owners[arb.cell]["level"]) // 2
        if cash - value >= RESERVE:
            return arb
    if (end := first(c.EndStop)) is not None:
        return end
    if c.PayFine in by_type:
        piece = view["piece"]
        level = owners[view["stop"]["cell"]]["level"]
        if _win_chance(tables.POWER[piece], level) >= 0.5:
            return c.Raid()
        return c.PayFine()
    moves = [m for m in by_type.get(c.MovePiece, []) if isinstance(m, c.MovePiece)]
    if moves:
        best, value = _best_move(view, moves, rng)
        if value >= 0 or c.PassMove not in by_type:
            return best
        return c.PassMove()
    return legal[0]


def _best_move(view: dict[str, Any], moves: list[c.MovePiece], rng: random.Random) -> tuple[c.MovePiece, float]:
    """The move with the best expected value (in thousands), and that value."""
    me = view["turn"]
    occupants = {cell: (p["seat"], kind) for p in view["players"] for kind, cell in p["pieces"].items()}
    owners = {co["cell"]: co for co in view["companies"]}
    cash = view["players"][me]["cash"]

    def score(m: c.MovePiece) -> float:
        if board.is_perimeter(m.to):
            return 3 * _win_chance(tables.POWER[m.piece], 0)
        value = 0.0
        if m.to in occupants:
            _, kind = occupants[m.to]
            chance = _win_chance(tables.POWER[m.piece], tables.POWER[kind])
            value += chance * tables.PIECE_PRICE[kind] / 1000 - (1 - chance) * tables.PIECE_PRICE[m.piece] / 1000
        company = owners.get(m.to)
        if company is not None:
            if company["owner"] is None and company["price"] + RESERVE <= cash:
                value += 1.0
            elif company["owner"] not in (None, me):
                value -= company["fine"] / 1000
        return value + rng.random() / 100

    scored = [(score(m), i) for i, m in enumerate(moves)]
    value, index = max(scored)
    return moves[index], value


def random_choice(legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    return rng.choice(legal)
