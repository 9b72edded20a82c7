"""The 108-card deck and which card may be played on which.

Per colour (the colours of the four armies, 0..3, the seat's arm): pawn ×6, knight ×3,
bishop ×3, rook ×3, queen ×2, king ×2, skip ×2, reverse ×2, +2 ×2 (25); plus 4 wild and
4 wild +4 (colour `WILD`). A card matches the top of the discard pile by colour (the current
colour, which a wild card sets) or by value; a card of the player's own army colour is trump
and always matches; wild cards always match.
"""

from __future__ import annotations

import msgspec

from tablehall_boards import Kind

WILD = -1
COLOURS: tuple[int, ...] = (0, 1, 2, 3)

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = "pawn", "knight", "bishop", "rook", "queen", "king"
SKIP, REVERSE, DRAW_TWO, WILD_CARD, WILD_FOUR = "skip", "reverse", "draw2", "wild", "wild4"

PIECE_VALUES: dict[str, Kind] = {
    PAWN: Kind.PAWN,
    KNIGHT: Kind.KNIGHT,
    BISHOP: Kind.BISHOP,
    ROOK: Kind.ROOK,
    QUEEN: Kind.QUEEN,
    KING: Kind.KING,
}
PER_COLOUR: dict[str, int] = {
    PAWN: 6,
    KNIGHT: 3,
    BISHOP: 3,
    ROOK: 3,
    QUEEN: 2,
    KING: 2,
    SKIP: 2,
    REVERSE: 2,
    DRAW_TWO: 2,
}
WILDS: dict[str, int] = {WILD_CARD: 4, WILD_FOUR: 4}
VALUES: tuple[str, ...] = (*PER_COLOUR, *WILDS)

HAND_SIZE = 7
HAND_LIMIT = 10  # at 10 cards a draw becomes an exchange
EMPTY_HAND_REFILL = 5


class Card(msgspec.Struct, frozen=True, order=True, array_like=True):
    colour: int
    value: str

    @property
    def is_wild(self) -> bool:
        return self.colour == WILD

    @property
    def piece(self) -> Kind | None:
        return PIECE_VALUES.get(self.value)


def full_deck() -> tuple[Card, ...]:
    """The 108 cards, in a fixed order (shuffled at set-up)."""
    cards = [Card(colour, value) for colour in COLOURS for value, n in PER_COLOUR.items() for _ in range(n)]
    cards += [Card(WILD, value) for value, n in WILDS.items() for _ in range(n)]
    return tuple(cards)


def is_valid(card: Card) -> bool:
    if card.colour == WILD:
        return card.value in WILDS
    return card.colour in COLOURS and card.value in PER_COLOUR


def matches(card: Card, top: Card | None, colour: int, army_colour: int) -> bool:
    """Whether `card` may be laid on `top` while the current colour is `colour`."""
    if card.is_wild or card.colour == army_colour or card.colour == colour:
        return True
    return top is not None and not top.is_wild and card.value == top.value
