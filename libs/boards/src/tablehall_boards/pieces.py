"""Chess pieces: a kind and the side that owns it.

`Kind` numbers the kinds as python-chess does (pawn 1 … king 6), which is also the Драконы
die face of each piece (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king). A side is an
int chosen by the game: a seat (Гомункул 0–3), a colour (Драконы 0 red, 1 blue).
"""

from __future__ import annotations

from enum import IntEnum

import msgspec


class Kind(IntEnum):
    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6

    @property
    def letter(self) -> str:
        """The English letter of the kind, upper case (`P N B R Q K`)."""
        return "PNBRQK"[self - 1]

    @classmethod
    def from_letter(cls, letter: str) -> Kind:
        index = "PNBRQK".find(letter.upper())
        if index < 0 or len(letter) != 1:
            raise ValueError(f"not a piece letter: {letter!r}")
        return cls(index + 1)


class Piece(msgspec.Struct, frozen=True, array_like=True):
    """A piece of `kind` owned by `side`."""

    kind: Kind
    side: int
