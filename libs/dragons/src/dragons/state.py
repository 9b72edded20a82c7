"""The state of a table: the board, the round and its rolled dice, hands, scores, open decisions.

Seat 0 plays red (side 0), seat 1 blue (side 1): a seat is its side everywhere.
"""

from __future__ import annotations

import msgspec

from dragons.board import CELLS, FREE, NO_DOMINO
from tablehall_boards.dominoes import Tile
from tablehall_rules import AfkLadder

DICE_PER_PLAYER = 60
BLACK_DICE = 18
ROUNDS = 22
HAND_LIMIT = 4
CHESS_FROM_ROUND = 3
DEFAULT_CLOCK_MS = 60_000
# the most seat commands a game takes: the start ring's dice, five turns a round, a black die
# placed for each black die rolled, two domino answers after every round but the last
MAX_COMMANDS = 8 + ROUNDS * 5 + BLACK_DICE + 2 * (ROUNDS - 1)

# phases
SETUP = "setup"  # the start ring: alternate rolls placed on the marked cells
TURN = "turn"  # the active seat uses one of its rolled dice
BLACK = "black"  # the seat that scored a contour places the rolled black die inside it
DOMINO = "domino"  # the end of a round: each seat that may take a domino says whether it does
OVER = "over"


class Player(msgspec.Struct):
    seat: int
    name: str
    is_bot: bool = False
    score: int = 0
    dice_left: int = DICE_PER_PLAYER
    hand: list[Tile] = msgspec.field(default_factory=list)  # hidden from the opponent
    bazaar: list[Tile] = msgspec.field(default_factory=list)  # the own set not yet taken, sorted
    # read only from snapshots stored before presence moved to the AFK ladder (rules 1.1.0):
    # `State.__post_init__` folds it into `afk.absent`, so it is always False after decoding
    stored_absent: bool = msgspec.field(default=False, name="absent")


class PlacedDomino(msgspec.Struct, frozen=True):
    id: int
    seat: int
    cells: list[int]
    pips: list[int]  # the number on each cell, in the order of `cells`


class OpenContour(msgspec.Struct, frozen=True):
    """A scored contour whose black die waits for its cell."""

    seat: int
    cells: list[int]
    face: int  # the black die the server rolled
    inside: list[int]  # the free cells inside, where it may go


class State(msgspec.Struct):
    clock_ms: int
    players: list[Player]
    afk: AfkLadder
    owner: list[int] = msgspec.field(default_factory=lambda: [FREE] * CELLS)
    face: list[int] = msgspec.field(default_factory=lambda: [0] * CELLS)
    domino: list[int] = msgspec.field(default_factory=lambda: [NO_DOMINO] * CELLS)
    dominoes: list[PlacedDomino] = msgspec.field(default_factory=list)
    black_left: int = BLACK_DICE
    phase: str = SETUP
    round: int = 0
    turn_index: int = 0
    rolled: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])
    setup_face: int = 0  # the die rolled for the start ring, waiting for its cell
    active: int = 0
    contour: OpenContour | None = None
    domino_wait: list[int] = msgspec.field(default_factory=list)  # seats yet to answer the domino choice
    domino_answered: list[int] = msgspec.field(default_factory=list)  # seats that answered, in order
    domino_taking: list[int] = msgspec.field(default_factory=list)  # of those, the ones taking (sealed)
    phase_at_ms: int = 0
    turn_seq: int = 0
    last_at_ms: int = 0
    end_reason: str = ""
    places: list[list[int]] = msgspec.field(default_factory=list)
    final: list[int] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        for p in self.players:
            if p.stored_absent:
                self.afk.absent[p.seat] = True
                p.stored_absent = False

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def has_seat(self, seat: int) -> bool:
        return 0 <= seat < len(self.players)

    def clock_for(self, seat: int) -> int:
        return self.afk.clock_ms(seat, self.clock_ms)


def round_order(round_no: int) -> list[int]:
    """Odd rounds: red opens and closes (R B R B R); even rounds blue does."""
    first = 0 if round_no % 2 == 1 else 1
    return [first, 1 - first, first, 1 - first, first]
