"""Commands a seat sends (the table's are the platform's, `tablehall_rules.table`). Cells are
`tablehall_boards.cross` cell indices.

Fields a command does not use hold their defaults (-1 for a cell or a colour, "" for a value).
"""

from __future__ import annotations

import msgspec

from tablehall_rules import InvalidCommand, invalid
from tablehall_rules.table import TABLE_COMMANDS, RemovePlayer


class PlayCard(msgspec.Struct, frozen=True, tag="PlayCard"):
    """Play a card from the hand: `colour` and `value` name it (wild cards have colour -1).

    Piece cards and the wild card move a piece from `origin` to `target`; wild cards choose
    `choose_colour` (0..3)."""

    colour: int
    value: str
    origin: int = -1
    target: int = -1
    choose_colour: int = -1


class PlaceDomino(msgspec.Struct, frozen=True, tag="PlaceDomino"):
    """Place the tile `low`-`high` from the hand: `low` on `cells[0]`, `high` on `cells[1]`."""

    low: int
    high: int
    cells: list[int]


class DrawCard(msgspec.Struct, frozen=True, tag="DrawCard"):
    """Draw a card (fewer than 10 in the hand)."""


class ExchangeCard(msgspec.Struct, frozen=True, tag="ExchangeCard"):
    """With 10 cards: put this card under the discard pile and draw a new one."""

    colour: int
    value: str


class KeepCard(msgspec.Struct, frozen=True, tag="KeepCard"):
    """After a draw: keep the drawn card and end the turn."""


class FreeMove(msgspec.Struct, frozen=True, tag="FreeMove"):
    """After the last card: move any own piece from `origin` to `target`."""

    origin: int
    target: int


class EndTurn(msgspec.Struct, frozen=True, tag="EndTurn"):
    """End the turn without the optional move (after a linking domino, or the free move)."""


class SayUno(msgspec.Struct, frozen=True, tag="SayUno"):
    """«Уно!»: the player left with one card announces it (a reaction, out of turn)."""


class CatchUno(msgspec.Struct, frozen=True, tag="CatchUno"):
    """«Поймать»: an opponent catches the player with one card who has not said «Уно!»."""


class Surrender(msgspec.Struct, frozen=True, tag="Surrender"):
    """Give up: the army leaves the board (any time, out of turn too)."""


class BuyItem(msgspec.Struct, frozen=True, tag="BuyItem"):
    """Buy an item in the shop (on your turn, before the action; does not spend the turn)."""

    item: str


class UseItem(msgspec.Struct, frozen=True, tag="UseItem"):
    """Use an item of the inventory (one per turn; the turn goes on). Cells and the colour as
    the item needs them (-1 otherwise)."""

    item: str
    origin: int = -1
    target: int = -1
    colour: int = -1


# --- the Monopoly ring (homunculus.rules.ring_*) ------------------------------------------


class RollDice(msgspec.Struct, frozen=True, tag="RollDice"):
    """In the Dungeon at the start of the turn: try for doubles."""


class PayFine(msgspec.Struct, frozen=True, tag="PayFine"):
    """In the Dungeon: pay 5 gold and roll."""


class UsePass(msgspec.Struct, frozen=True, tag="UsePass"):
    """In the Dungeon: give back a pass card and roll."""


class BuyLot(msgspec.Struct, frozen=True, tag="BuyLot"):
    """Buy the free lot the token stands on at its price."""


class DeclineLot(msgspec.Struct, frozen=True, tag="DeclineLot"):
    """Do not buy: the lot goes to auction."""


class Bid(msgspec.Struct, frozen=True, tag="Bid"):
    """A bid in the running auction (higher than the last; any bidder, out of turn)."""

    amount: int


class PassBid(msgspec.Struct, frozen=True, tag="PassBid"):
    """Leave the running auction (final)."""


class Build(msgspec.Struct, frozen=True, tag="Build"):
    """Build a house (a hotel on 4 houses) on a lot of a whole district."""

    square: int


class Mortgage(msgspec.Struct, frozen=True, tag="Mortgage"):
    square: int


class Redeem(msgspec.Struct, frozen=True, tag="Redeem"):
    square: int


class OfferTrade(msgspec.Struct, frozen=True, tag="OfferTrade"):
    """Once per turn: offer player `to` these lots and gold for those."""

    to: int
    give_lots: list[int]
    get_lots: list[int]
    give_gold: int = 0
    get_gold: int = 0


class AnswerTrade(msgspec.Struct, frozen=True, tag="AnswerTrade"):
    """The offered player accepts or declines (out of turn)."""

    accept: bool


SEAT_COMMANDS: tuple[type[msgspec.Struct], ...] = (
    PlayCard,
    PlaceDomino,
    DrawCard,
    ExchangeCard,
    KeepCard,
    FreeMove,
    EndTurn,
    SayUno,
    CatchUno,
    Surrender,
    BuyItem,
    UseItem,
    RollDice,
    PayFine,
    UsePass,
    BuyLot,
    DeclineLot,
    Bid,
    PassBid,
    Build,
    Mortgage,
    Redeem,
    OfferTrade,
    AnswerTrade,
)


class RemoveSeat(msgspec.Struct, frozen=True, tag="RemoveSeat"):
    """The table's removal as Гомункул stored it before the platform's `RemovePlayer` (old
    streams' commands decode to it and are decided as `RemovePlayer`)."""

    seat: int


# the seats' commands, the platform's table commands, and the old name of one of them
COMMAND_TYPES: tuple[type[msgspec.Struct], ...] = (*SEAT_COMMANDS, *TABLE_COMMANDS, RemoveSeat)


def upcast(command: msgspec.Struct) -> msgspec.Struct:
    """A table command under its platform name."""
    return RemovePlayer(seat=command.seat) if isinstance(command, RemoveSeat) else command


def unused_fields() -> InvalidCommand:
    """A field the command does not use is not left at its default."""
    return invalid("UNUSED_FIELDS", "This card takes no move or colour.", "Эта карта не требует хода или цвета.")
