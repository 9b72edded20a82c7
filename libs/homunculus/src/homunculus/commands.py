"""Commands a seat (or the table) sends. Cells are `tablehall_boards.cross` cell indices.

Fields a command does not use hold their defaults (-1 for a cell or a colour, "" for a value).
"""

from __future__ import annotations

import msgspec


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


class RemoveSeat(msgspec.Struct, frozen=True, tag="RemoveSeat"):
    """System command: the table takes a player out (the lobby removed the seat)."""

    seat: int


class CloseTable(msgspec.Struct, frozen=True, tag="CloseTable"):
    """System command: end the match as it stands (a draw among the live players)."""

    reason: str


Command = (
    PlayCard
    | PlaceDomino
    | DrawCard
    | ExchangeCard
    | KeepCard
    | FreeMove
    | EndTurn
    | SayUno
    | CatchUno
    | Surrender
    | BuyItem
    | UseItem
    | RemoveSeat
    | CloseTable
)
COMMAND_TYPES: tuple[type[msgspec.Struct], ...] = (
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
    RemoveSeat,
    CloseTable,
)
