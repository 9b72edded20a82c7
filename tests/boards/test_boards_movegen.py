"""Move generation under the games' blocking rules: walls, bridges, piercing, allies, Драконы."""

from __future__ import annotations

import msgspec
import pytest

from tablehall_boards import cross, disk
from tablehall_boards.blocking import CallbackBlocking, OccupancyBlocking, Overlay, Verdict
from tablehall_boards.grid import Cell
from tablehall_boards.movegen import Move, MoveGenerator, Movement
from tablehall_boards.pawns import PawnRules
from tablehall_boards.pieces import Kind, Piece

G = cross.grid()
GEN = MoveGenerator(G, {s: cross.pawn_rules(s) for s in cross.SEATS})
POWER = {Kind.PAWN: 1, Kind.KNIGHT: 3, Kind.BISHOP: 3, Kind.KING: 4, Kind.ROOK: 5, Kind.QUEEN: 9}


def at(name: str) -> Cell:
    return G.parse(name)


def targets(moves: list[Move]) -> set[str]:
    return {G.name_of(m.target) for m in moves}


class DominoBoard:
    """A Гомункул-like policy: pieces by occupancy, dominoes (cell → (owner, pips)) on top."""

    def __init__(
        self, placement: dict[Cell, Piece], dominoes: dict[Cell, tuple[int, int]], allies: set[frozenset[int]]
    ):
        self.placement = placement
        self.dominoes = dominoes
        self.allies = allies

    def friendly(self, a: int, b: int) -> bool:
        return a == b or frozenset((a, b)) in self.allies

    def verdict(self, piece: Piece, cell: Cell) -> Verdict:
        if cell in self.dominoes:
            owner, pips = self.dominoes[cell]
            if self.friendly(piece.side, owner):
                return Verdict.PASS  # a bridge
            return Verdict.CAPTURE if POWER[piece.kind] >= pips else Verdict.BLOCKED  # piercing or a wall
        other = self.placement.get(cell)
        if other is None:
            return Verdict.EMPTY  # hidden mines too: passing one does not set it off
        return Verdict.BLOCKED if self.friendly(piece.side, other.side) else Verdict.CAPTURE

    def blocking(self) -> CallbackBlocking:
        return CallbackBlocking(len(G), self.verdict)


def test_an_own_domino_is_a_bridge_a_rook_passes_but_cannot_stop_on() -> None:
    rook = Piece(Kind.ROOK, 0)
    placement = {at("f5"): rook}
    board = DominoBoard(placement, {at("f7"): (0, 3), at("f8"): (0, 4)}, set())
    moves = GEN.piece_moves(at("f5"), rook, board.blocking())
    north = {n for n in targets(moves) if n[0] == "f" and int(n[1:]) > 5}
    assert north == {"f6", "f9", "f10", "f11", "f12", "f13", "f14"}


def test_an_enemy_domino_is_a_wall_unless_the_piece_is_strong_enough_to_pierce_its_half() -> None:
    placement = {at("f5"): Piece(Kind.ROOK, 0), at("h5"): Piece(Kind.BISHOP, 0)}
    board = DominoBoard(placement, {at("f7"): (2, 5), at("i6"): (2, 6), at("j6"): (2, 1)}, set())
    rook = GEN.piece_moves(at("f5"), placement[at("f5")], board.blocking())
    assert {n for n in targets(rook) if n[0] == "f" and int(n[1:]) > 5} == {"f6", "f7"}
    assert Move(at("f5"), at("f7"), True) in rook  # power 5 ≥ 5: pierces
    bishop = GEN.piece_moves(at("h5"), placement[at("h5")], board.blocking())
    assert "i6" not in targets(bishop) and "j7" not in targets(bishop)  # power 3 < 6: a wall


def test_a_knight_jumps_walls_and_bridges_but_lands_on_neither_unless_it_pierces() -> None:
    knight = Piece(Kind.KNIGHT, 0)
    placement = {at("g5"): knight}
    walls = {at(n): (2, 6) for n in ("f5", "h5", "g6", "g4", "f6", "h6", "f4", "h4")}
    board = DominoBoard(placement, {**walls, at("h7"): (0, 0), at("e6"): (2, 3)}, set())
    got = targets(GEN.piece_moves(at("g5"), knight, board.blocking()))
    assert got == {"f7", "e4", "f3", "h3", "i4", "i6", "e6"}  # h7 is a bridge; e6 pierced (3 ≥ 3)


def test_allies_block_each_other_and_are_never_captured() -> None:
    queen = Piece(Kind.QUEEN, 0)
    placement = {at("g5"): queen, at("g7"): Piece(Kind.PAWN, 2), at("e5"): Piece(Kind.PAWN, 1)}
    board = DominoBoard(placement, {}, {frozenset((0, 2))})
    got = GEN.piece_moves(at("g5"), queen, board.blocking())
    assert "g7" not in targets(got) and "g8" not in targets(got) and "g6" in targets(got)
    assert Move(at("g5"), at("e5"), True) in got


def test_a_pawn_double_step_needs_both_cells_empty_and_a_pawn_never_takes_straight_ahead() -> None:
    pawn = Piece(Kind.PAWN, 0)
    placement = {at("e2"): pawn, at("e4"): Piece(Kind.KNIGHT, 2), at("f3"): Piece(Kind.KNIGHT, 2)}
    got = GEN.moves(placement, 0, OccupancyBlocking(len(G), placement))
    assert {(G.name_of(m.target), m.capture) for m in got} == {("e3", False), ("f3", True)}
    placement[at("e3")] = Piece(Kind.KNIGHT, 2)
    got = GEN.moves(placement, 0, OccupancyBlocking(len(G), placement))
    assert {(G.name_of(m.target), m.capture) for m in got} == {("f3", True)}


def test_a_pawn_cannot_step_onto_a_bridge() -> None:
    pawn = Piece(Kind.PAWN, 0)
    board = DominoBoard({at("e2"): pawn}, {at("e3"): (0, 2)}, set())
    assert GEN.piece_moves(at("e2"), pawn, board.blocking()) == []


def test_dragons_every_occupied_cell_blocks_and_only_enemy_dice_are_taken() -> None:
    g = disk.grid()
    gen = MoveGenerator(g, {disk.RED: disk.pawn_rules(disk.RED), disk.BLUE: disk.pawn_rules(disk.BLUE)})
    rook = Piece(Kind.ROOK, disk.RED)
    placement = {
        g.cell(0, 3): rook,
        g.cell(0, 6): Piece(Kind.PAWN, disk.BLUE),
        g.cell(2, 3): Piece(Kind.KING, disk.RED),
    }
    fixed = {g.cell(0, 1): Verdict.BLOCKED}  # a black die or a domino half
    moves = gen.piece_moves(g.cell(0, 3), rook, Overlay(OccupancyBlocking(len(g), placement), fixed))
    got = {g.coord(m.target): m.capture for m in moves}
    assert got == {
        (0, 2): False,
        (0, 4): False,
        (0, 5): False,
        (0, 6): True,
        (1, 3): False,
        **{(x, 3): False for x in range(-1, -10, -1)},
    }


def test_a_piece_set_is_data_a_missing_kind_does_not_move() -> None:
    g = cross.grid()
    gen = MoveGenerator(g, {}, pieces={Kind.ROOK: Movement(slides=((1, 0),))})
    placement = {at("d4"): Piece(Kind.ROOK, 0), at("e4"): Piece(Kind.QUEEN, 0)}
    assert gen.moves(placement, 0, OccupancyBlocking(len(g), placement)) == []
    placement = {at("d4"): Piece(Kind.ROOK, 0)}
    assert len(gen.moves(placement, 0, OccupancyBlocking(len(g), placement))) == 10  # e4 … n4
    assert gen.moves({at("e2"): Piece(Kind.PAWN, 0)}, 0, OccupancyBlocking(len(g), {})) == []
    with pytest.raises(KeyError):
        MoveGenerator(g, {}).piece_moves(at("e2"), Piece(Kind.PAWN, 0), OccupancyBlocking(len(g), {}))


def test_pawn_rules_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        PawnRules(forward=(1, 1))
    with pytest.raises(ValueError):
        PawnRules(forward=(0, 1), promotion_cells=frozenset({1}), promotions=())
    with pytest.raises(ValueError):
        PawnRules(forward=(0, 1), promotions=(Kind.PAWN,))


def test_a_callback_policy_is_asked_once_per_piece_and_cell() -> None:
    asked: list[tuple[Piece, Cell]] = []

    def decide(piece: Piece, cell: Cell) -> Verdict:
        asked.append((piece, cell))
        return Verdict.EMPTY

    blocking = CallbackBlocking(len(G), decide)
    queen = Piece(Kind.QUEEN, 1)
    for _ in range(3):
        GEN.piece_moves(at("g7"), queen, blocking)
    assert len(asked) == len(G)


def test_moves_are_plain_data_for_an_event() -> None:
    move = Move(at("e7"), at("e8"), False, Kind.QUEEN)
    assert msgspec.json.encode(move) == b"[%d,%d,false,5]" % (move.origin, move.target)
    assert msgspec.json.decode(msgspec.json.encode(move), type=Move) == move
    assert msgspec.json.decode(b"[1,2]", type=Move) == Move(1, 2)
