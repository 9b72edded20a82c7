"""Perft node counts under Гомункул's rules, kept as data (`data/homunculus_rules.perft`): the
piece-move tree on the cross with tiles (walls, bridges, piercing), mines (own, allied, enemy,
nobody's; a wounded king), shields and kings falling.

`make test` recomputes every count up to depth 2; the deeper ones are marked slow (`make soak`).
Two checks that do not rest on the file: the standard set-ups give the counts of the shared
generator's own perft (tablehall_boards.perft, checked against python-chess and the board's
symmetry in tests/boards) while no king can be taken, and every record turned a quarter (each
cell, tile and mine turned, each player on the next arm) gives the same counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from homunculus import perft as rules
from homunculus.state import Mine, PlacedDomino, State
from tablehall_boards import cross, perft
from tablehall_rules import clone as copy_state

DATA = Path(__file__).resolve().parent / "data"
BOARDS_DATA = Path(__file__).resolve().parents[1] / "boards" / "data" / "homunculus.perft"
SHALLOW = 2
RECORDS = perft.parse_perft((DATA / "homunculus_rules.perft").read_text("utf-8"))
CASES = [(r, depth, nodes) for r in RECORDS for depth, nodes in r.counts]


def _id(case: tuple[perft.PerftRecord, int, int]) -> str:
    return f"{case[0].id}-d{case[1]}"


def test_the_file_holds_tiles_mines_teams_and_falling_kings() -> None:
    ids = {r.id for r in RECORDS}
    assert {"rules-2-tiles-mines", "rules-4-teams-tiles-mines", "rules-3-kings-fall"} <= ids
    for record in RECORDS:
        assert [d for d, _ in record.counts] == list(range(1, len(record.counts) + 1)), record.id
        assert len(record.counts) >= 3 and all(nodes > 0 for _, nodes in record.counts)
        state = rules.setup_state(record.setup)
        assert record.grid == cross.grid().name and sorted(record.order) == list(range(state.players))
    tiled = rules.setup_state(next(r for r in RECORDS if r.id == "rules-2-tiles-mines").setup)
    assert len(tiled.dominoes) == 3 and len(tiled.mines) == 4 and tiled.wounded == [False, True]


@pytest.mark.parametrize("case", [c for c in CASES if c[1] <= SHALLOW], ids=_id)
def test_shallow_counts_are_recomputed(case: tuple[perft.PerftRecord, int, int]) -> None:
    record, depth, nodes = case
    assert rules.perft(rules.setup_state(record.setup), record.order, depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c[1] > SHALLOW], ids=_id)
def test_deep_counts_are_recomputed(case: tuple[perft.PerftRecord, int, int]) -> None:
    record, depth, nodes = case
    assert rules.perft(rules.setup_state(record.setup), record.order, depth) == nodes


def test_the_standard_set_ups_give_the_shared_generators_counts() -> None:
    """Kings cannot be taken in the first plies, so the game's tree is the plain chess tree."""
    theirs = {r.id: dict(r.counts) for r in perft.parse_perft(BOARDS_DATA.read_text("utf-8"))}
    for players in (2, 4):
        ours = dict(next(r for r in RECORDS if r.id == f"rules-{players}-standard").counts)
        for depth, nodes in ours.items():
            assert theirs[f"homunculus-{players}-standard"][depth] == nodes


def turned(state: State) -> State:
    """The same table turned a quarter clockwise: each player on the next arm."""
    g = cross.grid()

    def t(cell: int) -> int:
        x, y = g.coord(cell)
        return g.cell(y, cross.SIZE - 1 - x)

    s = copy_state(state)
    s.arms = [(arm + 1) % 4 for arm in state.arms]
    s.pieces = {t(cell): piece for cell, piece in state.pieces.items()}
    s.dominoes = [PlacedDomino(d.id, d.owner, d.first, d.second, t(d.cell_a), t(d.cell_b)) for d in state.dominoes]
    s.mines = sorted((Mine(t(m.cell), m.owner) for m in state.mines), key=lambda m: m.cell)
    s.shields = sorted(t(cell) for cell in state.shields)
    s.opened = sorted(t(cell) for cell in state.opened)
    return s


def test_turning_a_quarter_puts_each_army_where_the_next_arms_army_stands() -> None:
    state = turned(rules.setup_state("players 4; standard"))
    for p in range(4):
        mine = {cell: piece.kind for cell, piece in state.pieces.items() if piece.side == p}
        assert mine == {cell: piece.kind for cell, piece in cross.army((p + 1) % 4).items()}


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.id)
def test_every_record_turned_a_quarter_gives_the_same_counts(record: perft.PerftRecord) -> None:
    state = rules.setup_state(record.setup)
    for depth, nodes in record.counts[:SHALLOW]:
        assert rules.perft(turned(state), record.order, depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.id)
def test_every_record_turned_every_way_gives_the_same_deeper_counts(record: perft.PerftRecord) -> None:
    state = rules.setup_state(record.setup)
    depth, nodes = record.counts[2]
    for _ in range(3):
        state = turned(state)
        assert rules.perft(state, record.order, depth) == nodes


def test_divide_adds_up_and_the_rules_change_the_tree() -> None:
    record = next(r for r in RECORDS if r.id == "rules-2-tiles-mines")
    state = rules.setup_state(record.setup)
    split = rules.divide(state, record.order, 2)
    assert len(split) == record.counts[0][1] and sum(split.values()) == record.counts[1][1]
    bare = copy_state(state)
    bare.dominoes, bare.mines = [], []
    assert rules.perft(bare, record.order, 2) != record.counts[1][1]  # tiles and mines matter


def test_a_taken_king_ends_its_army_in_the_tree() -> None:
    record = next(r for r in RECORDS if r.id == "rules-3-kings-fall")
    state = rules.setup_state(record.setup)
    g = cross.grid()
    taking = next(m for m in rules.divide(state, record.order, 1) if m.target == g.parse("e10"))
    after = rules.play(state, 0, taking)
    assert not after.alive[1] and all(p.side != 1 for p in after.pieces.values())
    assert rules.perft(after, (1, 2, 0), 1) == rules.perft(after, (2, 0), 1)  # player 1 is skipped
