"""Events: the facts `evolve` applies. Each carries what it needs to replay without drawing."""

from __future__ import annotations

import msgspec

from homunculus.cards import Card
from homunculus.state import State
from tablehall_boards import Kind
from tablehall_boards.deck import Drawn
from tablehall_boards.dominoes import Tile


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


# --- shop items, second part (rules/items.py) ----------------------------------------------


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


Event = (
    Started
    | Acted
    | CardPlayed
    | CardsDrawn
    | CardExchanged
    | DrawnSet
    | PieceMoved
    | PieceRemoved
    | KingWounded
    | GoldPaid
    | DominoTaken
    | DominoPlaced
    | DominoRemoved
    | MineExploded
    | MineCleared
    | CellsOpened
    | PhaseSet
    | EffectQueued
    | DirectionReversed
    | TurnSkipped
    | TurnBegan
    | UnoOpened
    | UnoClosed
    | RoundEnded
    | ItemBought
    | ItemUsed
    | PiecesSwapped
    | ColourChanged
    | KingHealed
    | HandDiscarded
    | RoundDie
    | MinesLaid
    | Eliminated
    | Finished
    | MinePlaced
    | DetectorUsed
    | ShieldGiven
    | ShieldBroke
    | PieceResurrected
    | MineDefused
    | SpyglassUsed
)
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
    MinePlaced,
    DetectorUsed,
    ShieldGiven,
    ShieldBroke,
    PieceResurrected,
    MineDefused,
    SpyglassUsed,
)
