"""The state of a Гомункул table (mutable; `evolve` updates it in place).

Players are the platform's seats 0..n-1; each plays one arm of the cross (`arms[p]`): two
players take arms 0 and 2, three take 0, 1, 2, four take all. The arm is also the army's
colour on the cards. Pieces are kept per cell with the player (not the arm) as their side.
"""

from __future__ import annotations

import msgspec

from homunculus.cards import Card
from homunculus.ring.state import Ring
from tablehall_boards import Kind, Piece
from tablehall_boards.deck import Deck
from tablehall_boards.dominoes import Bazaar, Tile
from tablehall_rules import AfkLadder

# turn phases
ACTION = "action"  # one of: play a card, place a domino, draw a card
CONTINUE = "continue"  # after a linking domino: one more action, or end the turn
AFTER_DRAW = "after_draw"  # the drawn card may be played at once, or kept
FREE_MOVE = "free_move"  # after the last card: a free move with any piece, or end the turn


class PlacedDomino(msgspec.Struct, array_like=True):
    """A tile on the board: `first` pips on `cell_a`, `second` on `cell_b`."""

    id: int
    owner: int
    first: int
    second: int
    cell_a: int
    cell_b: int

    def pips_at(self, cell: int) -> int:
        return self.first if cell == self.cell_a else self.second

    @property
    def cells(self) -> tuple[int, int]:
        return (self.cell_a, self.cell_b)


class Mine(msgspec.Struct, array_like=True):
    cell: int
    owner: int | None = None  # None: nobody's (the initial mines, an eliminated player's)


class UnoWindow(msgspec.Struct):
    seat: int  # the player left with one card
    no: int = 0  # the decision number when it opened (names its reaction decisions)


class State(msgspec.Struct):
    players: int
    arms: list[int]
    teams: list[list[int]]
    clock_ms: int
    pieces: dict[int, Piece]
    wounded: list[bool]  # per player: the king has been wounded by a mine
    alive: list[bool]
    eliminated: list[int]  # players in order of elimination
    gold: list[int]
    hands: list[list[Card]]
    deck: Deck[Card]
    colour: int  # the current colour on the discard pile
    domino_hands: list[list[Tile]]
    bazaar: Bazaar
    dominoes: list[PlacedDomino]
    removed_tiles: list[Tile]  # pierced, exploded or gone with an eliminated army: out of the game
    mines: list[Mine]
    opened: list[int]  # opened cells, sorted
    turn: int
    direction: int  # +1 clockwise, -1 after a reverse
    phase: str
    turn_started_ms: int
    decision_no: int
    afk: AfkLadder
    drawn: Card | None = None  # the card drawn this turn (phase AFTER_DRAW)
    skips: int = 0  # how many next players this turn's cards make skip
    next_draws: int = 0  # how many cards the next player draws (+2, +4)
    uno: UnoWindow | None = None
    next_domino_id: int = 0
    round_no: int = 0
    round_seen: list[int] = msgspec.field(default_factory=lambda: [0])  # had a turn (or a skip) this round
    captured_this_round: bool = False
    quiet_rounds: int = 0  # rounds in a row that ended without a capture
    inventory: list[list[str]] = msgspec.field(default_factory=list)  # per player, shop items
    item_used: bool = False  # an item was used this turn
    finished: bool = False
    places: list[list[int]] = msgspec.field(default_factory=list)
    end_reason: str = ""
    ring: Ring = msgspec.field(default_factory=Ring)  # the Monopoly ring (homunculus.ring)
    # --- shop items, second part (rules/shop.py) ---
    shields: list[int] = msgspec.field(default_factory=list)  # cells of shielded pieces, sorted
    fallen: dict[int, list[Kind]] = msgspec.field(default_factory=dict)  # per player, its fallen pieces in order
    detection: list[int] = msgspec.field(default_factory=list)  # [user, centre] of this turn's detector, or []
    spyglass: list[int] = msgspec.field(default_factory=list)  # [user, watched] of this turn's spyglass, or []
    names: list[str] = msgspec.field(default_factory=list)  # the seats' names (the journal's), from the start

    # --- who is who ------------------------------------------------------------------------

    def team_of(self, player: int) -> list[int]:
        for team in self.teams:
            if player in team:
                return team
        return [player]

    def allied(self, a: int, b: int) -> bool:
        """Same player or teammates."""
        return a == b or b in self.team_of(a)

    def live_players(self) -> list[int]:
        return [p for p in range(self.players) if self.alive[p]]

    def next_live(self, player: int, direction: int | None = None) -> int:
        step = self.direction if direction is None else direction
        p = player
        for _ in range(self.players):
            p = (p + step) % self.players
            if self.alive[p]:
                return p
        return player

    def army_colour(self, player: int) -> int:
        return self.arms[player]

    def piece_at(self, cell: int) -> Piece | None:
        return self.pieces.get(cell)

    def king_cell(self, player: int) -> int | None:
        for cell, piece in self.pieces.items():
            if piece.side == player and piece.kind == Kind.KING:
                return cell
        return None

    def domino_at(self, cell: int) -> PlacedDomino | None:
        for d in self.dominoes:
            if cell in (d.cell_a, d.cell_b):
                return d
        return None

    def mine_at(self, cell: int) -> Mine | None:
        for m in self.mines:
            if m.cell == cell:
                return m
        return None

    def mine_visible_to(self, mine: Mine, player: int) -> bool:
        return mine.owner is not None and self.allied(player, mine.owner)

    @property
    def top(self) -> Card | None:
        return self.deck.top_discard
