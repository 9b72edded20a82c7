"""Events: frozen tagged structs; every one carries `at_ms` (stamped by the flow). The table's
presence and hand-over events are the platform's (`tablehall_rules.table`), stored under the same
names and fields as Магнаты' own before them."""

from __future__ import annotations

import msgspec

from magnates.state import Stop
from tablehall_rules import SeatInfo
from tablehall_rules.table import TABLE_EVENTS


class Started(msgspec.Struct, frozen=True, tag="Started"):
    seats: list[SeatInfo]
    corners: list[int]
    round_limit: int
    clock_ms: int
    start_cash: int
    at_ms: int = 0


class Acted(msgspec.Struct, frozen=True, tag="Acted"):
    """A seat took its open decision (itself, or by its clock running out)."""

    seat: int
    timeout: bool = False
    at_ms: int = 0


class DiceRolled(msgspec.Struct, frozen=True, tag="DiceRolled"):
    seat: int
    white: int
    blue: int
    at_ms: int = 0


class KingRolled(msgspec.Struct, frozen=True, tag="KingRolled"):
    """An extra roll of the White die after a White 6."""

    seat: int
    white: int
    at_ms: int = 0


class KingMoved(msgspec.Struct, frozen=True, tag="KingMoved"):
    seat: int
    start: int  # track positions
    end: int
    at_ms: int = 0


class Paid(msgspec.Struct, frozen=True, tag="Paid"):
    """Money moves; -1 is the bank. Reasons: bank_stop, bank_pass, fine, subsidy, sanction,
    arbitrage, company, upgrade, piece, duel, debt, takeover."""

    payer: int
    payee: int
    amount: int
    reason: str
    cell: int = -1
    at_ms: int = 0


class CompanyChanged(msgspec.Struct, frozen=True, tag="CompanyChanged"):
    """A Company's owner (-1 the bank) and level. Reasons: bought, arbitrage, raid, upgrade,
    sold (debt), returned (elimination)."""

    cell: int
    owner: int
    level: int
    reason: str
    at_ms: int = 0


class PieceMoved(msgspec.Struct, frozen=True, tag="PieceMoved"):
    seat: int
    piece: str
    start: int
    to: int
    at_ms: int = 0


class PieceLost(msgspec.Struct, frozen=True, tag="PieceLost"):
    """Reasons: duel, raid, sold (debt), displaced (a bought piece took its Office)."""

    seat: int
    piece: str
    reason: str
    at_ms: int = 0


class PiecePlaced(msgspec.Struct, frozen=True, tag="PiecePlaced"):
    seat: int
    piece: str
    cell: int
    at_ms: int = 0


class DuelFought(msgspec.Struct, frozen=True, tag="DuelFought"):
    attacker: int
    attacker_piece: str
    defender: int
    defender_piece: str
    attacker_roll: int
    defender_roll: int
    attacker_won: bool
    at_ms: int = 0


class RaidFought(msgspec.Struct, frozen=True, tag="RaidFought"):
    seat: int
    piece: str
    cell: int
    owner: int
    attacker_roll: int
    owner_roll: int
    success: bool
    at_ms: int = 0


class ArbitrageRolled(msgspec.Struct, frozen=True, tag="ArbitrageRolled"):
    seat: int
    value: int
    at_ms: int = 0


class PhaseChanged(msgspec.Struct, frozen=True, tag="PhaseChanged"):
    """The open decision changes: a new key and clock."""

    phase: str
    stop: Stop | None = None
    piece: str = ""
    at_ms: int = 0


class TurnStarted(msgspec.Struct, frozen=True, tag="TurnStarted"):
    seat: int
    round: int
    at_ms: int = 0


class Eliminated(msgspec.Struct, frozen=True, tag="Eliminated"):
    """Reasons: king (a defeated lone King), debt, removed (the table took the seat out)."""

    seat: int
    reason: str
    at_ms: int = 0


class Finished(msgspec.Struct, frozen=True, tag="Finished"):
    places: list[list[int]]
    reason: str  # last_standing, round_limit, closed
    scores: dict[int, int]
    at_ms: int = 0


EVENT_TYPES: tuple[type[msgspec.Struct], ...] = (
    Started,
    Acted,
    DiceRolled,
    KingRolled,
    KingMoved,
    Paid,
    CompanyChanged,
    PieceMoved,
    PieceLost,
    PiecePlaced,
    DuelFought,
    RaidFought,
    ArbitrageRolled,
    PhaseChanged,
    TurnStarted,
    Eliminated,
    Finished,
    *TABLE_EVENTS,
)
