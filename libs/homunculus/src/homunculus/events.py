"""Events: the facts `evolve` applies. Each carries what it needs to replay without drawing."""

from __future__ import annotations

import msgspec

from homunculus.cards import Card
from homunculus.state import State
from tablehall_boards import Kind
from tablehall_boards.deck import Drawn
from tablehall_boards.dominoes import Tile
from tablehall_rules.table import TABLE_EVENTS


class Started(msgspec.Struct, frozen=True, tag="Started"):
    """The dealt table (hands, deck order, bazaar, hidden mines: never shown as such)."""

    state: State


class Acted(msgspec.Struct, frozen=True, tag="Acted"):
    """A seat's command was accepted (`timed_out`: the default move of that decision key)."""

    seat: int
    timed_out: str = ""


class CardPlayed(msgspec.Struct, frozen=True, tag="CardPlayed"):
    seat: int
    card: Card
    colour: int  # the current colour after it (a wild card's choice)


class CardsDrawn(msgspec.Struct, frozen=True, tag="CardsDrawn"):
    seat: int
    drawn: Drawn[Card]
    reason: str  # draw, penalty, refill, catch, exchange


class CardExchanged(msgspec.Struct, frozen=True, tag="CardExchanged"):
    """The card goes under the discard pile (a draw follows)."""

    seat: int
    card: Card


class DrawnSet(msgspec.Struct, frozen=True, tag="DrawnSet"):
    """The drawn card that may be played at once (None: none was left)."""

    seat: int
    card: Card | None


class PieceMoved(msgspec.Struct, frozen=True, tag="PieceMoved"):
    seat: int
    origin: int
    target: int
    promotion: Kind | None = None


class PieceRemoved(msgspec.Struct, frozen=True, tag="PieceRemoved"):
    """A piece leaves the board: taken (`by` the taker), blown up (`by` the mine's owner or None)."""

    cell: int
    kind: Kind
    owner: int
    cause: str  # capture, mine
    by: int | None = None


class KingWounded(msgspec.Struct, frozen=True, tag="KingWounded"):
    seat: int
    cell: int


class GoldPaid(msgspec.Struct, frozen=True, tag="GoldPaid"):
    seat: int
    amount: int
    reason: str


class DominoTaken(msgspec.Struct, frozen=True, tag="DominoTaken"):
    """A tile from the bazaar into the hand (the tile is hidden from the others)."""

    seat: int
    tile: Tile


class DominoPlaced(msgspec.Struct, frozen=True, tag="DominoPlaced"):
    seat: int
    id: int
    low: int
    high: int
    cell_a: int
    cell_b: int


class DominoRemoved(msgspec.Struct, frozen=True, tag="DominoRemoved"):
    """A tile leaves the board for good (pierced, exploded on a mine)."""

    id: int
    cause: str


class MineExploded(msgspec.Struct, frozen=True, tag="MineExploded"):
    cell: int
    owner: int | None


class MineCleared(msgspec.Struct, frozen=True, tag="MineCleared"):
    """An own or allied mine taken off by a piece that stood on it."""

    cell: int


class CellsOpened(msgspec.Struct, frozen=True, tag="CellsOpened"):
    cells: list[int]


class PhaseSet(msgspec.Struct, frozen=True, tag="PhaseSet"):
    phase: str
    at_ms: int


class EffectQueued(msgspec.Struct, frozen=True, tag="EffectQueued"):
    """A card's effect on the next player: skip it, make it draw."""

    skips: int = 0
    draws: int = 0


class DirectionReversed(msgspec.Struct, frozen=True, tag="DirectionReversed"):
    direction: int


class TurnSkipped(msgspec.Struct, frozen=True, tag="TurnSkipped"):
    seat: int


class TurnBegan(msgspec.Struct, frozen=True, tag="TurnBegan"):
    seat: int
    at_ms: int


class UnoOpened(msgspec.Struct, frozen=True, tag="UnoOpened"):
    seat: int


class UnoClosed(msgspec.Struct, frozen=True, tag="UnoClosed"):
    """The window closed: `said` «Уно!», `caught_by` a catcher, or neither (another command)."""

    seat: int
    said: bool = False
    caught_by: int | None = None


class RoundEnded(msgspec.Struct, frozen=True, tag="RoundEnded"):
    """Every live player has had a turn (skipped turns count); `quiet`: nobody took a piece."""

    round_no: int
    quiet: bool


class RoundDie(msgspec.Struct, frozen=True, tag="RoundDie"):
    """The round die: 1 detonation, 2 gold rush, 3 reinforcements, 4 reverse, 5 minefield, 6 bazaar."""

    face: int


class MinesLaid(msgspec.Struct, frozen=True, tag="MinesLaid"):
    """New hidden mines, nobody's (the minefield)."""

    cells: list[int]


class ItemBought(msgspec.Struct, frozen=True, tag="ItemBought"):
    seat: int
    item: str
    price: int


class ItemUsed(msgspec.Struct, frozen=True, tag="ItemUsed"):
    seat: int
    item: str


class PiecesSwapped(msgspec.Struct, frozen=True, tag="PiecesSwapped"):
    a: int
    b: int


class ColourChanged(msgspec.Struct, frozen=True, tag="ColourChanged"):
    colour: int


class KingHealed(msgspec.Struct, frozen=True, tag="KingHealed"):
    seat: int


class HandDiscarded(msgspec.Struct, frozen=True, tag="HandDiscarded"):
    """The whole hand goes under the discard pile (new hand)."""

    seat: int


class Eliminated(msgspec.Struct, frozen=True, tag="Eliminated"):
    seat: int
    reason: str  # king, surrender, clock, removed


class Finished(msgspec.Struct, frozen=True, tag="Finished"):
    places: list[list[int]]
    reason: str


# --- the Monopoly ring and the debts (homunculus.rules.ring_*, rules.debts) ------------------


class RingTurnBegan(msgspec.Struct, frozen=True, tag="RingTurnBegan"):
    """The ring's facts of a new turn reset (doubles, the offer)."""

    seat: int


class DiceRolled(msgspec.Struct, frozen=True, tag="DiceRolled"):
    """The ring roll; `counts`: a doubles counts toward the three (not a Dungeon try)."""

    seat: int
    first: int
    second: int
    counts: bool = True


class TokenMoved(msgspec.Struct, frozen=True, tag="TokenMoved"):
    seat: int
    square: int
    passed_start: bool = False


class DungeonEntered(msgspec.Struct, frozen=True, tag="DungeonEntered"):
    seat: int
    reason: str  # doubles, square, card


class DungeonTried(msgspec.Struct, frozen=True, tag="DungeonTried"):
    """A failed try for doubles in the Dungeon."""

    seat: int


class DungeonLeft(msgspec.Struct, frozen=True, tag="DungeonLeft"):
    seat: int
    how: str  # doubles, fine, pass, paid (after the third failed try)


class BuyOffered(msgspec.Struct, frozen=True, tag="BuyOffered"):
    """The turn player stands on a free lot it can pay for (phase `buy`)."""

    seat: int
    square: int


class LotBought(msgspec.Struct, frozen=True, tag="LotBought"):
    seat: int
    square: int
    price: int


class AuctionOpened(msgspec.Struct, frozen=True, tag="AuctionOpened"):
    square: int
    bidders: list[int]
    at_ms: int


class BidPlaced(msgspec.Struct, frozen=True, tag="BidPlaced"):
    seat: int
    amount: int
    at_ms: int


class BidPassed(msgspec.Struct, frozen=True, tag="BidPassed"):
    """`seat` leaves the auction (a pass is final). `reason`: "" the bidder passed (or its
    clock did); "gold" the engine passed it, its gold not above the high bid; "out" it left
    the game."""

    seat: int
    reason: str = ""


class AuctionClosed(msgspec.Struct, frozen=True, tag="AuctionClosed"):
    """The lot goes to `winner` for `price` (-1: nobody bid, it stays with the bank)."""

    square: int
    winner: int
    price: int


class RingCardDrawn(msgspec.Struct, frozen=True, tag="RingCardDrawn"):
    seat: int
    card: str  # the card's id (homunculus.ring.cards)


class PassCardUsed(msgspec.Struct, frozen=True, tag="PassCardUsed"):
    seat: int
    card: str


class BuildingBuilt(msgspec.Struct, frozen=True, tag="BuildingBuilt"):
    seat: int
    square: int
    cost: int


class BuildingDemolished(msgspec.Struct, frozen=True, tag="BuildingDemolished"):
    """One building level sold back at half its cost (a hotel to 4 houses when the bank has
    them, else the whole lot's buildings: `levels`)."""

    seat: int
    square: int
    levels: int
    refund: int


class LotMortgaged(msgspec.Struct, frozen=True, tag="LotMortgaged"):
    seat: int
    square: int
    amount: int


class LotRedeemed(msgspec.Struct, frozen=True, tag="LotRedeemed"):
    seat: int
    square: int
    cost: int


class TradeOffered(msgspec.Struct, frozen=True, tag="TradeOffered"):
    proposer: int
    to: int
    give_lots: list[int]
    get_lots: list[int]
    give_gold: int
    get_gold: int
    at_ms: int


class TradeAnswered(msgspec.Struct, frozen=True, tag="TradeAnswered"):
    """The offer accepted (lots and gold change hands) or declined (or dropped)."""

    accepted: bool


class PieceSold(msgspec.Struct, frozen=True, tag="PieceSold"):
    """A piece taken off the board for a debt (`price` gold) or by a card (`price` 0)."""

    seat: int
    cell: int
    kind: Kind
    price: int
    cause: str  # debt, card


class DebtForgiven(msgspec.Struct, frozen=True, tag="DebtForgiven"):
    seat: int
    amount: int


class LotsReturned(msgspec.Struct, frozen=True, tag="LotsReturned"):
    """An eliminated player's lots go back to the bank (buildings to the bank's stock)."""

    seat: int


class SafeConductSpent(msgspec.Struct, frozen=True, tag="SafeConductSpent"):
    """The safe-conduct works by itself: this rent is 15 less; it leaves the inventory."""

    seat: int


# --- shop items, second part (rules/shop.py) ----------------------------------------------


class MinePlaced(msgspec.Struct, frozen=True, tag="MinePlaced"):
    """A bought mine put on a closed empty cell (seen by its owner and allies only)."""

    seat: int
    cell: int


class DetectorUsed(msgspec.Struct, frozen=True, tag="DetectorUsed"):
    """The detector scans the 5×5 around `centre` for its user, until the end of the turn."""

    seat: int
    centre: int


class ShieldGiven(msgspec.Struct, frozen=True, tag="ShieldGiven"):
    cell: int


class ShieldBroke(msgspec.Struct, frozen=True, tag="ShieldBroke"):
    """The shield on `cell` saved its piece once (`cause`: capture, mine, blast) and is gone."""

    cell: int
    cause: str


class PieceResurrected(msgspec.Struct, frozen=True, tag="PieceResurrected"):
    seat: int
    kind: Kind
    cell: int


class MineDefused(msgspec.Struct, frozen=True, tag="MineDefused"):
    """The probe found a mine on the cell and made it harmless (it leaves the board)."""

    cell: int


class SpyglassUsed(msgspec.Struct, frozen=True, tag="SpyglassUsed"):
    """The user sees `watched`'s cards until the end of its turn."""

    seat: int
    watched: int


EVENT_TYPES: tuple[type[msgspec.Struct], ...] = (
    Started,
    Acted,
    CardPlayed,
    CardsDrawn,
    CardExchanged,
    DrawnSet,
    PieceMoved,
    PieceRemoved,
    KingWounded,
    GoldPaid,
    DominoTaken,
    DominoPlaced,
    DominoRemoved,
    MineExploded,
    MineCleared,
    CellsOpened,
    PhaseSet,
    EffectQueued,
    DirectionReversed,
    TurnSkipped,
    TurnBegan,
    UnoOpened,
    UnoClosed,
    RoundEnded,
    ItemBought,
    ItemUsed,
    PiecesSwapped,
    ColourChanged,
    KingHealed,
    HandDiscarded,
    RoundDie,
    MinesLaid,
    Eliminated,
    Finished,
    RingTurnBegan,
    DiceRolled,
    TokenMoved,
    DungeonEntered,
    DungeonTried,
    DungeonLeft,
    BuyOffered,
    LotBought,
    AuctionOpened,
    BidPlaced,
    BidPassed,
    AuctionClosed,
    RingCardDrawn,
    PassCardUsed,
    BuildingBuilt,
    BuildingDemolished,
    LotMortgaged,
    LotRedeemed,
    TradeOffered,
    TradeAnswered,
    PieceSold,
    DebtForgiven,
    LotsReturned,
    SafeConductSpent,
    MinePlaced,
    DetectorUsed,
    ShieldGiven,
    ShieldBroke,
    PieceResurrected,
    MineDefused,
    SpyglassUsed,
    *TABLE_EVENTS,
)
