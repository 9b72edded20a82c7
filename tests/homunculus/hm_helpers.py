"""Scene set-up for Гомункул's scenario tests (tables, boards, mines, the top card) and `when` /
`refused` on the kit's facade (`tablehall_rules.testing.Table`)."""

from __future__ import annotations

import msgspec

from homunculus import commands as c
from homunculus import events as e
from homunculus.cards import Card
from homunculus.game import GAME
from homunculus.ring.state import AUCTION, BUY, DUNGEON
from homunculus.state import Mine, State
from tablehall_boards import Kind, Piece, cross
from tablehall_boards.deck import Deck
from tablehall_rules import DecideContext, DrawSource, PendingDecision, RuleError
from tablehall_rules import clone as copy_state
from tablehall_rules.conformance import START_MS, seats_for
from tablehall_rules.testing import Table

NOW = START_MS + 1000


def cell(name: str) -> int:
    return cross.grid().parse(name)


def fresh(players: int = 2, teams: bool = False, seed: bytes = b"hm-seed", ring: bool = False) -> State:
    """A dealt table; without `ring`, as dealt before the first turn's ring roll (player 0 in
    the phase `action`, every token on Start)."""
    options = GAME.parse_options({"teams": teams})
    events = GAME.start(options, seats_for(players), DecideContext(None, START_MS, DrawSource(seed)))
    state = None
    for event in events if ring else events[:1]:
        state = GAME.evolve(state, event)
    assert state is not None
    return state


def board(players: int = 2, teams: bool = False, pieces: dict[str, tuple[Kind, int]] | None = None) -> State:
    """A fresh table with only the given pieces (kings of every player added far away when
    missing), no mines, no dominoes on the board."""
    s = fresh(players, teams)
    placed = {cell(name): Piece(kind, side) for name, (kind, side) in (pieces or {}).items()}
    spare = ["a4", "a11", "n4", "n11", "d14", "k14", "d1", "k1"]
    for p in range(players):
        if not any(pc.side == p and pc.kind == Kind.KING for pc in placed.values()):
            for name in spare:
                if cell(name) not in placed:
                    placed[cell(name)] = Piece(Kind.KING, p)
                    break
    s.pieces = placed
    s.mines = []
    return s


def with_mines(s: State, *mines: tuple[str, int | None]) -> State:
    s.mines = sorted((Mine(cell(name), owner) for name, owner in mines), key=lambda m: m.cell)
    return s


def with_top(s: State, card: Card, colour: int | None = None) -> State:
    s.deck = Deck(s.deck.draw_pile, (card,))
    s.colour = card.colour if colour is None else colour
    return s


def when(
    s: State,
    command: msgspec.Struct,
    seat: int | None = None,
    source: DrawSource | None = None,
    timed_out: PendingDecision | None = None,
) -> tuple[list[msgspec.Struct], State]:
    """Play `command` on a table at a copy of `s` (the facade checks that decide left its input
    unchanged) for `seat` (default the turn's player); the events and the state after them."""
    table = Table.from_state(GAME, copy_state(s), now_ms=NOW)
    who = s.turn if seat is None else seat
    events = table.play(command, seat=who, dice=DrawSource(b"when") if source is None else source, timed_out=timed_out)
    return events, table.state


def refused(s: State, command: msgspec.Struct, seat: int | None = None, *, reason: str) -> RuleError:
    """The facade's refusal of `command` by `seat` (default the turn's player): the reason, both
    texts, the state untouched."""
    who = s.turn if seat is None else seat
    return Table.from_state(GAME, s, now_ms=NOW).refused(command, reason, seat=who, dice=DrawSource(b"when"))


def kinds(events: list[msgspec.Struct]) -> list[str]:
    return [type(e).__name__ for e in events]


def to_action(s: State) -> State:
    """Settle the turn player's ring part the safe way (decline the lot, everybody passes the
    auction, try doubles in the Dungeon) until its phase is the action: for tests of other
    rules that hand the turn on."""
    for _ in range(100):
        if s.finished or s.phase not in (BUY, AUCTION, DUNGEON):
            return s
        command, seat = safe_step(s)
        _, s = when(s, command, seat=seat)
    raise AssertionError("the ring part does not settle")


def safe_step(s: State) -> tuple[msgspec.Struct, int]:
    """The next safe ring command and its seat (the turn player's, or a bidder's pass)."""
    if s.phase == AUCTION:
        assert s.ring.auction is not None
        return c.PassBid(), next(p for p in s.ring.auction.bidders if p != s.ring.auction.high_bidder)
    return (c.DeclineLot() if s.phase == BUY else c.RollDice()), s.turn


class FixedDie(DrawSource):
    def __init__(self, face: int) -> None:
        super().__init__(b"die")
        self.face = face

    def die(self) -> int:
        return self.face


def end_round(s: State, face: int) -> tuple[list[msgspec.Struct], State]:
    """Player 1 ends the last turn of the round (after drawing) with the die showing `face`."""
    s.turn = 1
    s.round_seen = [0, 1]
    s.phase = "after_draw"
    events, after = when(s, c.KeepCard(), seat=1, source=FixedDie(face))
    assert e.RoundDie(face) in events
    return events, after


def play_piece(s: State, origin: str, target: str) -> tuple[list[msgspec.Struct], State]:
    """The owner of the piece on `origin` plays a trump card of its kind to move it to `target`
    (its turn, mid-round so no round die follows)."""
    piece = s.pieces[cell(origin)]
    s.turn = piece.side
    s.round_seen = [piece.side]
    s.phase = "action"
    value = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen", 6: "king"}[int(piece.kind)]
    s.hands[piece.side] = [Card(s.arms[piece.side], value)] * 2
    with_top(s, Card((s.arms[piece.side] + 1) % 4, "skip"))
    return when(s, c.PlayCard(s.arms[piece.side], value, origin=cell(origin), target=cell(target)))
