"""Shared boards and pieces for Tablehall's chess-based games (pure, no I/O).

Modules, one job each (see `docs/boards.md`):

- `grid`: masked square grids, cell indices ↔ coordinates, neighbours, rays, leaps, names;
- `cross`, `disk`, `magnates`, `chess8`: the boards of Гомункул, Драконы, Магнаты and 8×8 chess;
- `pieces`, `pawns`, `blocking`, `movegen`: chess move generation, once, for any grid, piece set
  and blocking policy; `perft`: node counts and the perft file format;
- `billiard`, `jumps`, `track`: Магнаты's bouncing lines, knight double jumps, clockwise tracks;
- `monopoly`: the classic Monopoly ring's squares as data (Пузиполия, Гомункул's ring);
- `deck`, `dominoes`, `hidden`: a deck with reshuffle, domino sets and the bazaar, hidden hands
  resampled for a bot's determinization.
"""

from tablehall_boards.blocking import Blocking, CallbackBlocking, OccupancyBlocking, Overlay, Verdict
from tablehall_boards.grid import Cell, Coord, Direction, Grid, rectangle_grid
from tablehall_boards.movegen import STANDARD_PIECES, Move, MoveGenerator, Movement
from tablehall_boards.pawns import PawnRules, rows_pawn_rules
from tablehall_boards.pieces import Kind, Piece

__all__ = [
    "STANDARD_PIECES",
    "Blocking",
    "CallbackBlocking",
    "Cell",
    "Coord",
    "Direction",
    "Grid",
    "Kind",
    "Move",
    "MoveGenerator",
    "Movement",
    "OccupancyBlocking",
    "Overlay",
    "PawnRules",
    "Piece",
    "Verdict",
    "rectangle_grid",
    "rows_pawn_rules",
]
