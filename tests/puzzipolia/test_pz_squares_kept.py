"""The squares' part of Пузиполия's views is built once per board (owners, buildings, mortgages)
and shared by every view of that board (`SharedJson`, encoded once); the boards seen last are
kept, the least recently seen dropped first, so the memory it holds is bounded."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from puzzipolia import view as pz_view
from puzzipolia.game import GAME
from tablehall_rules import SharedJson, Viewer, clone
from tablehall_rules import conformance as kit


def boards(count: int) -> list[Any]:
    """`count` states of one table that differ only in who owns the first ownable square."""
    state, _, _ = kit.start(GAME, {}, kit.seats_for(4), random.Random(3).randbytes(32))
    lot = next(sq.index for sq in state.geometry.squares if sq.is_ownable)
    out = []
    for owner in range(-1, count - 1):
        made = clone(state)
        made.owners[lot] = owner
        out.append(made)
    return out


def squares(state: Any) -> SharedJson:
    part = GAME.view(state, Viewer.spectator())["squares"]
    assert type(part) is SharedJson
    return part


def test_views_of_one_board_share_its_squares_and_another_board_has_its_own() -> None:
    a, b = boards(2)
    assert squares(a) is squares(clone(a))
    assert squares(a) is GAME.view(a, Viewer.of_seat(1))["squares"]
    assert squares(b) is not squares(a)
    assert msgspec.json.encode(squares(b)) != msgspec.json.encode(squares(a))  # the owner shows


def test_the_least_recently_seen_board_is_dropped_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pz_view, "SQUARES_KEPT", 2)
    monkeypatch.setattr(pz_view, "_kept_squares", type(pz_view._kept_squares)())
    a, b, c = boards(3)
    first_a, first_b = squares(a), squares(b)
    assert squares(a) is first_a  # seen again: now the most recent
    squares(c)  # a third board: the least recently seen (b) goes
    assert len(pz_view._kept_squares) == 2
    assert squares(a) is first_a
    assert squares(b) is not first_b  # built again
    assert squares(b) == first_b
