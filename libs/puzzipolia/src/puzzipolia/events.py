"""Events: the facts of a table. Replaying them with `evolve` alone rebuilds the state.

Every event carries `at_ms`, the service time of the command that produced it;
clocks (turn, auction, offers, votes) are measured from these timestamps.
"""

from __future__ import annotations

import msgspec

from puzzipolia.state import Bundle

# the platform's table events, re-exported for this game's modules
from tablehall_rules.table import TABLE_EVENTS
from tablehall_rules.table import ControllerChanged as ControllerChanged
from tablehall_rules.table import PresenceChanged as PresenceChanged


class Event(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    at_ms: int = 0


class SeatEntry(msgspec.Struct, frozen=True):
    seat: int
    name: str
    is_bot: bool = False


class LiquidationStep(msgspec.Struct, frozen=True):
    action: str  # "sell" (one building) | "mortgage"
    square: int
    amount: int


# --- set-up and order -------------------------------------------------------
class GameStarted(Event, frozen=True, kw_only=True):
    board: str
    start_money: int
    clock_ms: int
    round_limit: int
    seats: list[SeatEntry]
    decks: dict[str, list[str]]  # the shuffled decks, top first (hidden from every view)


class StreetDealt(Event, frozen=True, kw_only=True):
    seat: int
    square: int


class OrderRolled(Event, frozen=True, kw_only=True):
    seat: int
    dice: list[int]


class OrderDecided(Event, frozen=True, kw_only=True):
    order: list[int]


# --- turn and movement ------------------------------------------------------
class TurnStarted(Event, frozen=True, kw_only=True):
    seat: int
    round: int


class DiceRolled(Event, frozen=True, kw_only=True):
    seat: int
    dice: list[int]


class Moved(Event, frozen=True, kw_only=True):
    seat: int
    from_square: int
    to_square: int
    via: str  # roll | card | back | choice


class SalaryPaid(Event, frozen=True, kw_only=True):
    seat: int
    amount: int


class FindPaid(Event, frozen=True, kw_only=True):
    seat: int
    square: int
    amount: int


class PhaseChanged(Event, frozen=True, kw_only=True):
    seat: int
    phase: str  # roll (again) | end


class NoRent(Event, frozen=True, kw_only=True):
    seat: int
    square: int
    why: str  # mortgaged


# --- jail -------------------------------------------------------------------
class SentToJail(Event, frozen=True, kw_only=True):
    seat: int
    reason: str  # square | card | three_doubles


class JailRollFailed(Event, frozen=True, kw_only=True):
    seat: int
    tries: int


class LeftJail(Event, frozen=True, kw_only=True):
    seat: int
    how: str  # fine | card | doubles | three_tries
    card: str = ""
    fine: int = 0


# --- buying and auctions ----------------------------------------------------
class PurchaseOffered(Event, frozen=True, kw_only=True):
    seat: int
    square: int


class LotBought(Event, frozen=True, kw_only=True):
    seat: int
    square: int
    price: int


class PurchaseDeclined(Event, frozen=True, kw_only=True):
    seat: int
    square: int


class AuctionOpened(Event, frozen=True, kw_only=True):
    auction_id: int
    square: int
    bidders: list[int]


class BidPlaced(Event, frozen=True, kw_only=True):
    seat: int
    amount: int


class AuctionPassed(Event, frozen=True, kw_only=True):
    seat: int


class AuctionClosed(Event, frozen=True, kw_only=True):
    square: int
    winner: int | None
    price: int


# --- cards ------------------------------------------------------------------
class CardDrawn(Event, frozen=True, kw_only=True):
    seat: int
    deck: str
    card: str


class CardDiceRolled(Event, frozen=True, kw_only=True):
    seat: int
    dice: list[int]


class Choice67Made(Event, frozen=True, kw_only=True):
    seat: int
    steps: int


class MoneyTransferred(Event, frozen=True, kw_only=True):
    payer: int | None  # None: the bank
    payee: int | None
    amount: int
    reason: str  # card | ...
    card: str = ""


class NothingHappened(Event, frozen=True, kw_only=True):
    seat: int
    why: str  # no_buildings | no_other_players


# --- debts and bankruptcy ---------------------------------------------------
class DebtOpened(Event, frozen=True, kw_only=True):
    debt_id: int
    debtor: int
    creditor: int | None
    amount: int
    reason: str  # rent | tax | card | jail_fine
    square: int = -1
    card: str = ""


class DebtPaid(Event, frozen=True, kw_only=True):
    debt_id: int
    debtor: int
    creditor: int | None
    amount: int


class AssetsLiquidated(Event, frozen=True, kw_only=True):
    seat: int
    steps: list[LiquidationStep]


class PlayerEliminated(Event, frozen=True, kw_only=True):
    """Out of the game. `creditor` (None: the bank) receives `lots`; a player creditor also
    receives `money` and, unless `cards_to_decks`, the `cards` (which otherwise go under
    their decks). Leaving in debt hands the creditor the lots only (money 0, cards to decks)."""

    seat: int
    reason: str  # bankrupt | left | removed
    creditor: int | None
    buildings_refund: int
    money: int
    lots: list[int]
    cards: list[str]
    cards_to_decks: bool = False


# --- building and mortgages -------------------------------------------------
class BuildingBuilt(Event, frozen=True, kw_only=True):
    seat: int
    square: int
    cost: int


class BuildingSold(Event, frozen=True, kw_only=True):
    seat: int
    square: int
    refund: int


class LotMortgaged(Event, frozen=True, kw_only=True):
    seat: int
    square: int
    amount: int


class LotRedeemed(Event, frozen=True, kw_only=True):
    seat: int
    square: int
    amount: int


# --- trades -----------------------------------------------------------------
class OfferMade(Event, frozen=True, kw_only=True):
    offer_id: int
    proposer: int
    recipient: int
    give: Bundle
    get: Bundle


class OfferAccepted(Event, frozen=True, kw_only=True):
    offer_id: int


class OfferDeclined(Event, frozen=True, kw_only=True):
    offer_id: int


class OfferExpired(Event, frozen=True, kw_only=True):
    offer_id: int


class OfferWithdrawn(Event, frozen=True, kw_only=True):
    offer_id: int


# --- the end vote -------------------------------------------------------------
class VoteOpened(Event, frozen=True, kw_only=True):
    vote_id: int
    proposer: int | None  # None: the unseated host
    voters: list[int]


class VoteAnswered(Event, frozen=True, kw_only=True):
    vote_id: int
    seat: int
    yes: bool


class VoteCancelled(Event, frozen=True, kw_only=True):
    vote_id: int
    by: int


class VoteFailed(Event, frozen=True, kw_only=True):
    vote_id: int
    silent: list[int]


class VotePassed(Event, frozen=True, kw_only=True):
    vote_id: int


# --- clocks, presence, end ------------------------------------------------------
class ClockExpired(Event, frozen=True, kw_only=True):
    seat: int
    kind: str
    key: str


class BackFromAfk(Event, frozen=True, kw_only=True):
    """An AFK seat made a move itself: normal clocks again (the ladder's `acted`)."""

    seat: int


class AfkChanged(Event, frozen=True, kw_only=True):
    """Retired (rules before the AFK ladder): read from old streams only, never written.
    Going AFK is implied by `ClockExpired` of a personal decision and by `PresenceChanged`;
    coming back is `BackFromAfk`. See `RETIRED_EVENTS`."""

    seat: int
    afk: bool


class GameEnded(Event, frozen=True, kw_only=True):
    reason: str  # last_standing | round_limit | vote | operator | idle
    places: list[list[int]]
    scores: dict[int, int]


EVENT_TYPES: tuple[type[msgspec.Struct], ...] = (
    GameStarted,
    StreetDealt,
    OrderRolled,
    OrderDecided,
    TurnStarted,
    DiceRolled,
    Moved,
    SalaryPaid,
    FindPaid,
    PhaseChanged,
    NoRent,
    SentToJail,
    JailRollFailed,
    LeftJail,
    PurchaseOffered,
    LotBought,
    PurchaseDeclined,
    AuctionOpened,
    BidPlaced,
    AuctionPassed,
    AuctionClosed,
    CardDrawn,
    CardDiceRolled,
    Choice67Made,
    MoneyTransferred,
    NothingHappened,
    DebtOpened,
    DebtPaid,
    AssetsLiquidated,
    PlayerEliminated,
    BuildingBuilt,
    BuildingSold,
    LotMortgaged,
    LotRedeemed,
    OfferMade,
    OfferAccepted,
    OfferDeclined,
    OfferExpired,
    OfferWithdrawn,
    VoteOpened,
    VoteAnswered,
    VoteCancelled,
    VoteFailed,
    VotePassed,
    ClockExpired,
    BackFromAfk,
    AfkChanged,
    GameEnded,
    *TABLE_EVENTS,
)


def _afk_changed_now(old: msgspec.Struct) -> msgspec.Struct | None:
    """What the rules write today where an old stream holds `AfkChanged`: `BackFromAfk`
    for a seat back from AFK; going AFK (afk=True) is implied by the event before it."""
    assert isinstance(old, AfkChanged)
    return BackFromAfk(seat=old.seat, at_ms=old.at_ms) if not old.afk else None


# retired stored event types -> the event the rules write in their place (None: none, the
# facts before it imply it); the verifier accepts exactly these (`Game.retired_events`)
RETIRED_EVENTS = {"AfkChanged": _afk_changed_now}
