"""Commands a seat (or the table itself) submits.

A turn is one command: the rolled die it uses (`face`) and what it does with it — placed on a
cell (`PlaceDie`), or, from round 3, given up for a chess move of an own die (`ChessMove`) or a
domino from the hand (`PlaceDomino`). A move that closes a contour declares it in `contour`
(the cycle of cells, in order; [] declares none). The platform sends its table commands
(`tablehall_rules.table`: presence, hand-over, removal, closing) for the table itself.
"""

from __future__ import annotations

import msgspec

from tablehall_rules.table import TABLE_COMMANDS


class Command(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    """Base of every Драконы command (tagged by class name)."""


class PlaceStart(Command, frozen=True, kw_only=True):
    """Put the die rolled for the start ring on one of the own marked cells."""

    cell: int


class PlaceDie(Command, frozen=True, kw_only=True):
    """Place the rolled die `face` on `cell` (Выставить кубик)."""

    face: int
    cell: int
    contour: list[int] = msgspec.field(default_factory=list)


class ChessMove(Command, frozen=True, kw_only=True):
    """Give up the rolled die `face`; move the own die on `origin` as its piece to `target` (Шахматный ход).
    `promotion` (2–5) for a pawn reaching the last cell of its column, else 0."""

    face: int
    origin: int
    target: int
    promotion: int = 0
    contour: list[int] = msgspec.field(default_factory=list)


class PlaceDomino(Command, frozen=True, kw_only=True):
    """Give up the rolled die `face`; lay the hand's domino `first`-`second` with `first` on
    `cells[0]` and `second` on `cells[1]` (Выставить доминошку)."""

    face: int
    first: int
    second: int
    cells: list[int]
    contour: list[int] = msgspec.field(default_factory=list)


class DiscardDie(Command, frozen=True, kw_only=True):
    """Give up the rolled die `face` with nothing else to do: only when no other use exists."""

    face: int


class PlaceBlack(Command, frozen=True, kw_only=True):
    """Put the black die rolled for a contour on a free cell inside it."""

    cell: int


class TakeDomino(Command, frozen=True, kw_only=True):
    """At the end of a round: take a random domino of the own set (`take`) or not."""

    take: bool


SEAT_COMMANDS: tuple[type[Command], ...] = (
    PlaceStart,
    PlaceDie,
    ChessMove,
    PlaceDomino,
    DiscardDie,
    PlaceBlack,
    TakeDomino,
)
# the seats' commands and the platform's table commands (`tablehall_rules.table`)
COMMAND_TYPES: tuple[type[msgspec.Struct], ...] = (*SEAT_COMMANDS, *TABLE_COMMANDS)
