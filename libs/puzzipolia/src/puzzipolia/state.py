"""The state of one table. Mutable structs: `evolve` updates them in place.

`decide` never touches a state it is given; it works on a copy (`tablehall_rules.clone`).
"""

from __future__ import annotations

import msgspec

from puzzipolia.board import Board, board
from tablehall_rules import AFK_CLOCK_MS, AfkLadder

BIG_TABLE = 7
LARGE_BOARD_FROM = 9

PLAYING = "playing"
BANKRUPT = "bankrupt"
LEFT = "left"

# decisions whose missed clock makes the seat AFK (auction, offer and vote clocks do not)
PERSONAL_KINDS = frozenset({"order_roll", "roll", "jail", "buy", "card67", "end_turn", "debt"})


class Bundle(msgspec.Struct, frozen=True):
    """One side of a trade: lots (square indices), money and get-out-of-jail cards."""

    lots: list[int] = []
    money: int = 0
    cards: list[str] = []

    @property
    def is_empty(self) -> bool:
        return not self.lots and self.money == 0 and not self.cards


class Player(msgspec.Struct):
    seat: int
    name: str
    is_bot: bool
    money: int
    position: int = 0
    status: str = PLAYING
    in_jail: bool = False
    jail_tries: int = 0
    jail_cards: list[str] = []
    offers_round: int = 0
    offers_made: int = 0
    # read only from snapshots stored before the AFK ladder (`State.afk`) kept these:
    # `State.__post_init__` folds them into the ladder, so they are always False after decoding
    stored_afk: bool = msgspec.field(default=False, name="afk")
    stored_absent: bool = msgspec.field(default=False, name="absent")
    stored_by_bot: bool = msgspec.field(default=False, name="bot_controlled")

    @property
    def is_playing(self) -> bool:
        return self.status == PLAYING


class Debt(msgspec.Struct):
    id: int
    debtor: int
    creditor: int | None  # None: the bank
    amount: int
    reason: str
    square: int
    card: str
    at_ms: int  # when its clock opened (reset when an earlier debt of the debtor is paid)


class Auction(msgspec.Struct):
    id: int
    square: int
    bidders: list[int]
    clock_at_ms: int
    high_bid: int = 0
    high_bidder: int | None = None
    bids: int = 0


class Offer(msgspec.Struct):
    id: int
    proposer: int
    recipient: int
    give: Bundle
    get: Bundle
    at_ms: int


class Vote(msgspec.Struct):
    id: int
    proposer: int | None  # None: the unseated host
    voters: list[int]
    yes: list[int]
    at_ms: int


class State(msgspec.Struct):
    board: str
    start_money: int
    clock_ms: int
    round_limit: int  # 0: none
    players: list[Player]
    seat_index: dict[int, int]
    owners: list[int]  # -1: the bank
    houses: list[int]  # 5 means a hotel
    mortgaged: list[bool]
    decks: dict[str, list[str]]  # hidden: top of the deck first
    order: list[int] = []
    order_groups: list[list[int]] = []
    order_rolls: dict[int, int] = {}
    order_stage: int = 0
    phase: str = "order"  # order | roll | buy | auction | card67 | end | over
    phase_at_ms: int = 0
    last_at_ms: int = 0  # time of the latest event: "now" for views and legal commands
    turn_seq: int = 0
    active: int = -1
    round: int = 0
    dice: list[int] = []
    doubles: int = 0
    roll_again: bool = False
    buy_square: int = -1
    debts: list[Debt] = []
    next_debt_id: int = 1
    auction: Auction | None = None
    next_auction_id: int = 1
    offers: list[Offer] = []
    next_offer_id: int = 1
    pair_waits: dict[str, int] = {}
    vote: Vote | None = None
    next_vote_id: int = 1
    vote_fail_at_ms: int = -1
    vote_fail_proposer: int = -2  # -1: the host, -2: no failed vote yet
    eliminated: list[int] = []
    end_reason: str = ""
    places: list[list[int]] = []
    scores: dict[int, int] = {}
    # who is away, by seat number (the platform's AFK ladder); empty only in a snapshot stored before it
    afk: AfkLadder = msgspec.field(default_factory=lambda: AfkLadder.for_seats(0))

    def __post_init__(self) -> None:
        if self.afk.seats == 0 and self.players:  # a snapshot from before the ladder
            self.afk = AfkLadder.for_seats(max(p.seat for p in self.players) + 1)
            for p in self.players:
                self.afk.afk[p.seat], self.afk.absent[p.seat] = p.stored_afk, p.stored_absent
                self.afk.by_bot[p.seat] = p.stored_by_bot
                p.stored_afk = p.stored_absent = p.stored_by_bot = False

    @property
    def geometry(self) -> Board:
        return board(self.board)

    @property
    def is_big_table(self) -> bool:
        return len(self.players) >= BIG_TABLE

    def player(self, seat: int) -> Player:
        return self.players[self.seat_index[seat]]

    def has_seat(self, seat: int) -> bool:
        return seat in self.seat_index

    def live_seats(self) -> list[int]:
        return [p.seat for p in self.players if p.status == PLAYING]

    def debts_of(self, seat: int) -> list[Debt]:
        return [d for d in self.debts if d.debtor == seat]

    def lots_of(self, seat: int) -> list[int]:
        return [i for i, owner in enumerate(self.owners) if owner == seat]

    def clock_for(self, seat: int) -> int:
        """The ladder's short clock for an AFK seat, a bot's hand included (see `evolve`)."""
        return AFK_CLOCK_MS if self.is_away(seat) else self.clock_ms

    def played_by_bot(self, seat: int) -> bool:
        """A bot seat, or a seat a bot plays for its absent player: neither proposes nor votes."""
        return self.player(seat).is_bot or self.afk.by_bot[seat]

    def is_away(self, seat: int) -> bool:
        """AFK: its decisions get the ladder's short clock (also when a bot plays the seat:
        a hand-over keeps the mark until the seat acts)."""
        return self.afk.is_afk(seat)


def pair_key(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"
