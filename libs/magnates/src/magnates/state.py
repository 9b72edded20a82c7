"""The state of a table. Everything in it is public: the only hidden facts are the future dice.

`owner`/`level` are per cell (100 each; -1 / 0 for cells that are not owned Companies). A
player's pieces on the board are `pieces` (kind -> cell); a lost piece is absent from it. The
King is on the perimeter track at `king` (a position; -1 once the player is out).
"""

from __future__ import annotations

import msgspec

from magnates.board import cell_of_position
from tablehall_rules import AfkLadder, SeatInfo

BANK = -1


class Player(msgspec.Struct):
    seat: int
    corner: int
    cash: int
    king: int
    pieces: dict[str, int]
    alive: bool = True


class Stop(msgspec.Struct, frozen=True):
    """What the player may still do where its King or piece stopped."""

    cell: int
    by_king: bool = True
    company: bool = False  # buy this unowned Company
    upgrade: bool = False  # Инвестиции: upgrade one own Company
    arbitrage: bool = False  # Арбитраж 5–6: buy one enemy Company
    shop: bool = False  # «Магазин фигур»: buy back one lost piece
    attack: bool = False  # the King may attack a lone King here

    @property
    def anything(self) -> bool:
        return self.company or self.upgrade or self.arbitrage or self.shop or self.attack


class State(msgspec.Struct):
    seats: list[SeatInfo]
    players: list[Player]
    owner: list[int]
    level: list[int]
    # stored as "ladder", its name before the game kit, so that snapshots of either age decode
    afk: AfkLadder = msgspec.field(name="ladder")
    round_limit: int
    clock_ms: int
    phase: str = "roll"  # roll, king_stop, move, piece_stop, fine, over
    turn: int = 0
    round: int = 1
    white: int = 0
    blue: int = 0
    extra_moves: int = 0
    stop: Stop | None = None
    piece: str = ""  # the piece that moved this turn (its fine or raid is open in phase "fine")
    decision_no: int = 0
    opened_at_ms: int = 0
    out_order: list[int] = msgspec.field(default_factory=list)
    places: list[list[int]] = msgspec.field(default_factory=list)
    end_reason: str = ""
    scores: dict[int, int] = msgspec.field(default_factory=dict)

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def live_seats(self) -> list[int]:
        return [p.seat for p in self.players if p.alive]

    def piece_at(self, cell: int) -> tuple[int, str] | None:
        """The (seat, kind) of the non-king piece on `cell`."""
        for p in self.players:
            for kind, at in p.pieces.items():
                if at == cell:
                    return p.seat, kind
        return None

    def kings_at(self, cell: int) -> list[int]:
        """Seats whose King stands on `cell`."""
        return [p.seat for p in self.players if p.alive and p.king >= 0 and cell_of_position(p.king) == cell]

    def is_lone(self, seat: int) -> bool:
        """The King is «одинок»: its owner has no other piece on the board."""
        return not self.players[seat].pieces

    def owned_by(self, seat: int) -> list[int]:
        return [cell for cell, owner in enumerate(self.owner) if owner == seat]

    def key(self) -> str:
        return f"{self.phase}-{self.decision_no}"
