"""Set-up: the 160-cell cross, armies on their arms, 7 cards, 3 tiles, hidden mines, 108 cards."""

from __future__ import annotations

from collections import Counter

import pytest
from hm_helpers import cell, fresh

from homunculus.cards import WILD, full_deck
from homunculus.game import GAME
from tablehall_boards import Kind, cross
from tablehall_rules import InvalidOptions


def test_the_cross_has_160_cells() -> None:
    assert len(cross.grid()) == 160


@pytest.mark.parametrize(("players", "arms"), [(2, [0, 2]), (3, [0, 1, 2]), (4, [0, 1, 2, 3])])
def test_armies_stand_on_their_arms(players: int, arms: list[int]) -> None:
    s = fresh(players)
    assert s.arms == arms
    for p in range(players):
        mine = {c: pc.kind for c, pc in s.pieces.items() if pc.side == p}
        assert len(mine) == 16
        assert mine == {c: pc.kind for c, pc in cross.army(arms[p]).items()}
    assert len(s.pieces) == 16 * players


def test_kings_start_on_h1_a7_g14_n8() -> None:
    s = fresh(4)
    kings = {pc.side: c for c, pc in s.pieces.items() if pc.kind == Kind.KING}
    assert kings == {0: cell("h1"), 1: cell("a7"), 2: cell("g14"), 3: cell("n8")}


@pytest.mark.parametrize(("players", "mines", "tiles"), [(2, 6, 28), (3, 7, 28), (4, 8, 56)])
def test_hands_tiles_mines_gold(players: int, mines: int, tiles: int) -> None:
    s = fresh(players)
    assert [len(h) for h in s.hands] == [7] * players
    assert [len(h) for h in s.domino_hands] == [3] * players
    assert len(s.bazaar) == tiles - 3 * players
    assert len(s.mines) == mines
    assert all(m.cell in cross.centre() and m.owner is None for m in s.mines)
    assert all(m.cell not in s.pieces for m in s.mines)
    assert s.gold == [30] * players
    assert len(s.deck) + sum(len(h) for h in s.hands) == 108
    assert s.turn == 0 and s.direction == 1


def test_the_deck_has_108_cards_as_ruled() -> None:
    deck = full_deck()
    assert len(deck) == 108
    counts = Counter((c.colour, c.value) for c in deck)
    for colour in range(4):
        assert {v: counts[(colour, v)] for v in ("pawn", "knight", "bishop", "rook", "queen", "king")} == {
            "pawn": 6,
            "knight": 3,
            "bishop": 3,
            "rook": 3,
            "queen": 2,
            "king": 2,
        }
        assert counts[(colour, "skip")] == counts[(colour, "reverse")] == counts[(colour, "draw2")] == 2
    assert counts[(WILD, "wild")] == counts[(WILD, "wild4")] == 4


def test_teams_only_at_four() -> None:
    assert GAME.teams({"teams": True}, 4) == [[0, 2], [1, 3]]
    assert fresh(4, teams=True).teams == [[0, 2], [1, 3]]
    with pytest.raises(InvalidOptions):
        fresh(2, teams=True)
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"bogus": 1})
