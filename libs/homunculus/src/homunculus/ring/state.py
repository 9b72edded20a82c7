"""The ring's part of the table state (all of it public).

Per square (40 entries): its owner (-1 the bank), its buildings (0-4 houses, 5 a hotel), its
mortgage. Per player: the token's square, the Dungeon (-1 out, else the failed tries so far),
the pass cards kept. The turn's ring facts: the last dice, doubles in a row, whether the last
roll gives another, the offer made this turn, the auction running.
"""

from __future__ import annotations

import msgspec

from homunculus.ring.board import HOTELS, HOUSES, SIZE


class Auction(msgspec.Struct):
    square: int
    bidders: list[int]  # still bidding (a pass is final)
    high_bid: int = 0
    high_bidder: int = -1
    bids: int = 0  # bids so far (names the decisions)
    at_ms: int = 0  # the last bid (or the opening): the bidders' clocks start here


class Offer(msgspec.Struct):
    proposer: int
    to: int
    give_lots: list[int]
    get_lots: list[int]
    give_gold: int
    get_gold: int
    no: int = 0  # the decision number when it was made (names the answer decision)
    at_ms: int = 0


def _squares(value: int) -> list[int]:
    return [value] * SIZE


class Ring(msgspec.Struct):
    positions: list[int] = msgspec.field(default_factory=list)
    owners: list[int] = msgspec.field(default_factory=lambda: _squares(-1))
    buildings: list[int] = msgspec.field(default_factory=lambda: _squares(0))
    mortgaged: list[bool] = msgspec.field(default_factory=lambda: [False] * SIZE)
    houses_bank: int = HOUSES
    hotels_bank: int = HOTELS
    dungeon: list[int] = msgspec.field(default_factory=list)
    passes: list[list[str]] = msgspec.field(default_factory=list)
    dice: list[int] = msgspec.field(default_factory=list)
    doubles: int = 0
    again: bool = False
    offered: bool = False
    offer: Offer | None = None
    auction: Auction | None = None
    buy_square: int = -1  # the free lot the turn player may buy (phase `buy`)

    @classmethod
    def for_players(cls, players: int) -> Ring:
        return cls(positions=[0] * players, dungeon=[-1] * players, passes=[[] for _ in range(players)])


# the ring's turn phases (before the shop and the action)
BUY = "buy"  # the turn player may buy the free lot it stands on
AUCTION = "auction"  # every bidder may bid or pass
DUNGEON = "dungeon"  # in the Dungeon at the turn's start: try doubles, pay 5 or use a pass
