"""Events: the facts of a table. Replaying them with `evolve` alone rebuilds the state.

Every event carries `at_ms`, the service time of the command that produced it. Random outcomes
(the start dice, the five dice of a round, a black die, a domino taken) are drawn in `decide`
and written here. The platform's table events (`PresenceChanged`, `ControllerChanged`) are the
kit's (`tablehall_rules.table`), stored under the same names and fields as this game's before.
"""

from __future__ import annotations

import msgspec

from tablehall_boards.dominoes import Tile
from tablehall_rules.table import ControllerChanged, PresenceChanged


class Event(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    at_ms: int = 0


class SeatEntry(msgspec.Struct, frozen=True):
    seat: int
    name: str
    is_bot: bool = False


class Combo(msgspec.Struct, frozen=True):
    """One scoring combination: kind (straight_line, straight_diagonal, four_line,
    four_diagonal, contour, king_taken), its cells and its points."""

    kind: str
    cells: list[int]
    points: int


class GameStarted(Event, frozen=True, kw_only=True):
    seats: list[SeatEntry]
    clock_ms: int


class StartDieRolled(Event, frozen=True, kw_only=True):
    seat: int
    face: int


class StartDiePlaced(Event, frozen=True, kw_only=True):
    seat: int
    cell: int
    face: int


class SixesPlaced(Event, frozen=True, kw_only=True):
    cells: list[int]  # per seat


class RoundStarted(Event, frozen=True, kw_only=True):
    round: int
    rolled: list[list[int]]  # per seat, the dice of its colour


class TurnStarted(Event, frozen=True, kw_only=True):
    seat: int
    round: int
    index: int


class DiePlaced(Event, frozen=True, kw_only=True):
    seat: int
    face: int
    cell: int
    combos: list[Combo]


class PieceMoved(Event, frozen=True, kw_only=True):
    seat: int
    face: int  # the rolled die given up
    origin: int
    target: int
    piece: int  # the face of the moved die before the move
    promotion: int = 0
    captured: int = 0  # the face of the opponent's die taken, 0 for none
    combos: list[Combo] = msgspec.field(default_factory=list)


class DominoPlaced(Event, frozen=True, kw_only=True):
    seat: int
    face: int  # the rolled die given up
    id: int
    cells: list[int]
    pips: list[int]
    combos: list[Combo] = msgspec.field(default_factory=list)


class DieDiscarded(Event, frozen=True, kw_only=True):
    seat: int
    face: int


class ContourScored(Event, frozen=True, kw_only=True):
    seat: int
    cells: list[int]
    points: int
    black_face: int
    inside: list[int]  # the free cells inside, where the black die may go


class BlackPlaced(Event, frozen=True, kw_only=True):
    seat: int
    cell: int
    face: int


class DominoChoiceOpened(Event, frozen=True, kw_only=True):
    round: int
    seats: list[int]


class DominoAnswered(Event, frozen=True, kw_only=True):
    """A seat's sealed answer to the domino choice: one event type whatever the answer, told to
    the others only as "answered" until every seat has answered (then DominoTaken/Declined)."""

    seat: int
    take: bool  # hidden from every view and journal line but the seat's own and an auditor's


class DominoTaken(Event, frozen=True, kw_only=True):
    seat: int
    tile: Tile  # hidden from every view but the seat's own and an auditor's


class DominoDeclined(Event, frozen=True, kw_only=True):
    seat: int


class ClockExpired(Event, frozen=True, kw_only=True):
    seat: int
    kind: str
    key: str


class SeatActed(Event, frozen=True, kw_only=True):
    """The seat acted itself after clock-ended turns: back from AFK."""

    seat: int


class GameEnded(Event, frozen=True, kw_only=True):
    reason: str  # rounds | removed | operator | idle
    scores: list[int]  # before the end rules
    final: list[int]  # after: no own king-six → 0, minus the pips in hand
    places: list[list[int]]
    king: list[bool]  # whether each seat had an own king-six on the board
    hand_pips: list[int]


# the game's events and the platform's table events (`tablehall_rules.table`)
GameEvent = Event | PresenceChanged | ControllerChanged
EVENT_TYPES: tuple[type[msgspec.Struct], ...] = (
    GameStarted,
    StartDieRolled,
    StartDiePlaced,
    SixesPlaced,
    RoundStarted,
    TurnStarted,
    DiePlaced,
    PieceMoved,
    DominoPlaced,
    DieDiscarded,
    ContourScored,
    BlackPlaced,
    DominoChoiceOpened,
    DominoTaken,
    DominoDeclined,
    DominoAnswered,
    ClockExpired,
    SeatActed,
    PresenceChanged,
    ControllerChanged,
    GameEnded,
)
