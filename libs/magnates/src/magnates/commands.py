"""Commands: frozen tagged structs, the seats' own; the table's are the platform's (`tablehall_rules.table`)."""

from __future__ import annotations

import msgspec

from tablehall_rules.table import TABLE_COMMANDS


class Roll(msgspec.Struct, frozen=True, tag="Roll"):
    """Roll the White and the Blue die; the King moves clockwise by the White value."""


class BuyCompany(msgspec.Struct, frozen=True, tag="BuyCompany"):
    """Buy the unowned Company where the King (perimeter) or the piece (inner) stopped."""


class Upgrade(msgspec.Struct, frozen=True, tag="Upgrade"):
    """Инвестиции: upgrade one own Company one level for half its price."""

    cell: int


class ArbitrageBuy(msgspec.Struct, frozen=True, tag="ArbitrageBuy"):
    """Арбитраж 5–6: buy one enemy Company for its price plus its upgrades, paid to its owner."""

    cell: int


class BuyPiece(msgspec.Struct, frozen=True, tag="BuyPiece"):
    """«Магазин фигур»: buy back a lost piece onto one of your Offices."""

    piece: str
    office: int


class AttackKing(msgspec.Struct, frozen=True, tag="AttackKing"):
    """The King attacks the lone King standing where it stopped."""


class EndStop(msgspec.Struct, frozen=True, tag="EndStop"):
    """Done with the stop's options; the turn goes on."""


class MovePiece(msgspec.Struct, frozen=True, tag="MovePiece"):
    """Move one piece by the Blue value to `to` (a cell)."""

    piece: str
    to: int


class PassMove(msgspec.Struct, frozen=True, tag="PassMove"):
    """Move no piece this turn."""


class PayFine(msgspec.Struct, frozen=True, tag="PayFine"):
    """Pay the fine of the enemy Company the piece stopped on."""


class Raid(msgspec.Struct, frozen=True, tag="Raid"):
    """Raid the enemy inner Company the piece stopped on instead of paying its fine."""


SEAT_COMMANDS: tuple[type[msgspec.Struct], ...] = (
    Roll,
    BuyCompany,
    Upgrade,
    ArbitrageBuy,
    BuyPiece,
    AttackKing,
    EndStop,
    MovePiece,
    PassMove,
    PayFine,
    Raid,
)
COMMAND_TYPES: tuple[type[msgspec.Struct], ...] = SEAT_COMMANDS + TABLE_COMMANDS
