"""What the four product games declare to the conformance suite, until each declares it itself.

Issue 26 moves these into the games (the lead, at the merge): a game's `conformance_setups`,
its `conformance_probes(state, seat)` method (`HasConformanceProbes`) and its `nature`. Until
then `declared(game)` is the game with what it lacks of these added (a subclass, exactly what
the game's class will say); what the game declares itself wins. The set-ups, budgets and probes
are those of the per-game conformance modules this replaces (tests/<game>/test_*_conformance.py);
`max_commands` is their bound on a random game (Драконы's and Магнаты's as their branches
declare them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from dragons import commands as dc
from dragons.state import State as DrState
from homunculus import commands as hc
from homunculus.rules import shop as hm_shop
from homunculus.state import State as HmState
from magnates import board as mg_board
from magnates import commands as mc
from magnates.state import State as MgState
from puzzipolia import commands as pc
from puzzipolia.state import Bundle
from puzzipolia.state import State as PzState
from tablehall_rules import Game, GameNature
from tablehall_rules.conformance import HasConformanceProbes
from tablehall_rules.setups import Setup


@dataclass(frozen=True)
class StandIn:
    setups: Sequence[Setup]
    probes: Callable[[Any, int], Sequence[msgspec.Struct]]
    nature: GameNature


def puzzipolia_probes(state: Any, seat: int) -> list[msgspec.Struct]:
    """Answers to every open offer (the kit's random ids rarely hit them) and a few bids."""
    st: PzState = state
    out: list[msgspec.Struct] = []
    for o in st.offers:
        out += [pc.AcceptTrade(offer_id=o.id), pc.DeclineTrade(offer_id=o.id), pc.WithdrawTrade(offer_id=o.id)]
    if st.auction is not None:
        out += [pc.Bid(amount=st.auction.high_bid + step) for step in (1, 10, 100)]
    for other in st.live_seats():
        if other != seat:
            out.append(pc.ProposeTrade(to_seat=other, give=Bundle(money=1), get=Bundle()))
    return out


def homunculus_probes(state: Any, seat: int) -> list[msgspec.Struct]:
    """Own cards and tiles with random fields (the kit's random values rarely name them)."""
    s: HmState = state
    out: list[msgspec.Struct] = [hc.SayUno(), hc.CatchUno(), hc.DrawCard(), hc.KeepCard(), hc.EndTurn()]
    for card in s.hands[seat][:4]:
        out.append(hc.PlayCard(card.colour, card.value))
        out.append(hc.PlayCard(card.colour, card.value, choose_colour=1))
        out.append(hc.ExchangeCard(card.colour, card.value))
    for t in s.domino_hands[seat][:2]:
        out.append(hc.PlaceDomino(t.low, t.high, [70, 71]))
        out.append(hc.PlaceDomino(t.low, t.high, [70, 84]))
    for item in hm_shop.SECOND_PART:  # the second part's items, on cells with mines, pieces, tiles
        out.append(hc.BuyItem(item))
        spots = [m.cell for m in s.mines[:2]] + sorted(s.pieces)[:2] + [d.cell_a for d in s.dominoes[:1]] + [0, 80]
        for x in spots:
            out.append(hc.UseItem(item, target=x))
            out.append(hc.UseItem(item, origin=x))
        out += [hc.UseItem(item, target=p) for p in range(s.players)]
    return out


def magnates_probes(state: Any, seat: int) -> list[msgspec.Struct]:
    """Commands with the cells and pieces that matter now (the kit's random numbers rarely hit them)."""
    s: MgState = state
    out: list[msgspec.Struct] = []
    for kind in ("queen", "rook", "bishop", "knight", "king", "pawn"):
        for cell in (0, 11, 33, 44, 99):
            out.append(mc.MovePiece(piece=kind, to=cell))
        for office in mg_board.offices(s.players[seat].corner):
            out.append(mc.BuyPiece(piece=kind, office=office))
    for cell in mg_board.company_cells():
        out += [mc.Upgrade(cell=cell), mc.ArbitrageBuy(cell=cell)]
    return out


def dragons_probes(state: Any, seat: int) -> list[msgspec.Struct]:
    """Commands the kit's random fields rarely hit: each rolled die on cells next to own dice,
    a domino of the seat's hand and one it does not hold, a black die inside the contour."""
    s: DrState = state
    out: list[msgspec.Struct] = []
    for face in sorted(set(s.rolled[seat])):
        for cell in range(0, 333, 37):
            out.append(dc.PlaceDie(face=face, cell=cell))
        out.append(dc.DiscardDie(face=face))
        for t in s.players[seat].hand[:2]:
            out.append(dc.PlaceDomino(face=face, first=t.low, second=t.high, cells=[150, 151]))
        out.append(dc.PlaceDomino(face=face, first=0, second=0, cells=[150, 151]))
    if s.contour is not None:
        out += [dc.PlaceBlack(cell=x) for x in s.contour.inside[:2]]
    out += [dc.TakeDomino(take=True), dc.TakeDomino(take=False)]
    return out


STAND_INS: dict[str, StandIn] = {
    "puzzipolia": StandIn(
        [Setup(2, {"round_limit": 8}, 6), Setup(4, {"round_limit": 6}, 6), Setup(9, {"round_limit": 8}, 6)],
        puzzipolia_probes,
        GameNature(hidden_information=True, chance=True, simultaneous=True, max_commands=20_000),
    ),
    "homunculus": StandIn(
        [Setup(2, {}, 4), Setup(3, {}, 4), Setup(4, {}, 4), Setup(4, {"teams": True}, 4)],
        homunculus_probes,
        GameNature(hidden_information=True, chance=True, simultaneous=True, max_commands=20_000),
    ),
    "magnates": StandIn(
        [Setup(2, {"round_limit": 25}, 5), Setup(3, {"round_limit": 15}, 5), Setup(4, {"round_limit": 12}, 5)],
        magnates_probes,
        GameNature(hidden_information=False, chance=True, simultaneous=False, max_commands=48_000),
    ),
    "dragons": StandIn(
        [Setup(2, {}, 3)],
        dragons_probes,
        GameNature(hidden_information=True, chance=True, simultaneous=True, max_commands=8 + 22 * 5 + 18 + 2 * 21),
    ),
}


def missing(game: Game[Any]) -> list[str]:
    """What of its stand-in the game does not declare itself."""
    declares = {
        "conformance_setups": bool(game.conformance_setups),
        "conformance_probes": isinstance(game, HasConformanceProbes),
        "nature": type(game).nature is not Game.nature,
    }
    return [name for name, done in declares.items() if not done]


def declared(game: Game[Any]) -> Game[Any]:
    """The game with what it lacks of its stand-in added (the game itself when it has none)."""
    stand_in = STAND_INS.get(game.id)
    if stand_in is None:
        return game
    lacks = missing(game)
    attrs: dict[str, Any] = {}
    if "conformance_setups" in lacks:
        attrs["conformance_setups"] = tuple(stand_in.setups)
    if "conformance_probes" in lacks:
        probes = stand_in.probes
        attrs["conformance_probes"] = lambda self, state, seat: probes(state, seat)
    if "nature" in lacks:
        attrs["nature"] = stand_in.nature
    declaring: Game[Any] = type(type(game).__name__, (type(game),), attrs)()
    return declaring
