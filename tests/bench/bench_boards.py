"""Shared boards benchmark: perft speed of the move generator and its comparison with python-chess.

Prints, for the Гомункул cross (2, 3 and 4 armies, the standard set-up) and 8×8 chess:
perft leaves per second (leaves counted in bulk at the last ply) and positions generated per
second (every interior node generates its moves once); the cost of one move generation; and a
run of random positions on random 8×8 windows of every board (turned every way) compared with
python-chess's pseudo-legal moves: positions and moves compared, differences found (0 expected),
time per position for each side. No assertions: figures only.

    make bench-boards      (or: .venv/bin/python tests/bench/bench_boards.py [positions] [depth])
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boards.boards_oracle import ALL_WINDOWS, Window, oracle_moves

from tablehall_boards import chess8, cross, perft
from tablehall_boards.blocking import OccupancyBlocking
from tablehall_boards.grid import Cell
from tablehall_boards.movegen import MoveGenerator
from tablehall_boards.pieces import Piece

PIECES = [chess.Piece(t, c) for t in chess.PIECE_TYPES for c in chess.COLORS]


def bench_perft(depth: int) -> None:
    cases: list[tuple[str, MoveGenerator, dict[Cell, Piece], tuple[int, ...]]] = []
    gen = MoveGenerator(cross.grid(), {s: cross.pawn_rules(s) for s in cross.SEATS})
    for players in (2, 3, 4):
        seats = cross.seats_for(players)
        cases.append((f"cross, {players} armies", gen, dict(cross.standard_setup(seats)), seats))
    placement, _ = chess8.placement_from_fen(chess.STARTING_FEN)
    cases.append(("8×8 chess start", chess8.generator(), dict(placement), (0, 1)))
    print(f"perft depth {depth} (pseudo-legal, kings capturable):")
    for name, generator, placed, order in cases:
        interior = sum(perft.perft(generator, placed, order, d) for d in range(depth))
        started = time.perf_counter()
        leaves = perft.perft(generator, placed, order, depth)
        took = time.perf_counter() - started
        print(
            f"  {name:20s} {leaves:>10,} leaves in {took:6.2f} s: {leaves / took:>11,.0f} leaves/s, "
            f"{interior / took:>9,.0f} positions generated/s"
        )


def bench_movegen() -> None:
    gen = MoveGenerator(cross.grid(), {s: cross.pawn_rules(s) for s in cross.SEATS})
    placement = cross.standard_setup(cross.SEATS)
    size = len(cross.grid())
    rounds = 2000
    started = time.perf_counter()
    for _ in range(rounds):
        moves = gen.moves(placement, 0, OccupancyBlocking(size, placement))
    took = time.perf_counter() - started
    print(
        f"one move generation, cross with 4 armies (incl. the blocking table): {took / rounds * 1e6:.1f} µs, {len(moves)} moves"
    )
    started = time.perf_counter()
    for _ in range(rounds):
        MoveGenerator(cross.grid(), {s: cross.pawn_rules(s) for s in cross.SEATS})
    took = time.perf_counter() - started
    print(f"building a generator for the cross (tables cached per grid): {took / rounds * 1e6:.1f} µs")


def random_board(rng: random.Random) -> chess.Board:
    board = chess.Board(None)
    for square in rng.sample(chess.SQUARES, rng.randint(0, 40)):
        piece = rng.choice(PIECES)
        if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
            continue
        board.set_piece_at(square, piece)
    board.turn = rng.random() < 0.5
    return board


def bench_oracle(positions: int) -> None:
    rng = random.Random(12)
    windows: dict[tuple[int, int], Window] = {}
    ours_s = theirs_s = 0.0
    moves = differences = 0
    for _ in range(positions):
        index, turn = rng.randrange(len(ALL_WINDOWS)), rng.randrange(4)
        w = windows.get((index, turn))
        if w is None:
            grid, x0, y0 = ALL_WINDOWS[index]
            w = windows[(index, turn)] = Window(grid, x0, y0, turn)
        board = random_board(rng)
        t0 = time.perf_counter()
        expected = oracle_moves(board)
        t1 = time.perf_counter()
        got = w.our_moves(board)
        t2 = time.perf_counter()
        theirs_s += t1 - t0
        ours_s += t2 - t1
        moves += len(expected)
        differences += got != expected
    print(
        f"python-chess comparison: {positions:,} random positions on {len(windows)} windows/turns "
        f"of {len({g.name for g, _, _ in ALL_WINDOWS})} boards, {moves:,} moves compared, {differences} differing; "
        f"ours {ours_s / positions * 1e6:.0f} µs/position (incl. building the walled policy), "
        f"python-chess {theirs_s / positions * 1e6:.0f} µs/position"
    )


def main() -> None:
    positions = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    bench_perft(depth)
    bench_movegen()
    bench_oracle(positions)


if __name__ == "__main__":
    main()
