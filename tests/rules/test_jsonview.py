"""`JsonView` and `json_shaped`: a view its game made JSON-shaped is handed on as it is; any other
is converted to what its JSON decodes to. Every product game's seat and spectator views are
`JsonView`s (so a bot rendering its own view copies nothing); the conformance kit checks each
such view equals its JSON round trip (`check_view_shapes`)."""

from __future__ import annotations

import random

import msgspec
import pytest

from tablehall_rules import JsonView, Viewer, json_shaped
from tablehall_rules import conformance as kit
from tablehall_rules.registry import get_game


class Piece(msgspec.Struct):
    kind: str
    side: int


def test_a_json_view_is_handed_on_as_it_is() -> None:
    view = JsonView({"pieces": {"5": ["queen", 0]}})
    assert json_shaped(view) is view


def test_any_other_view_becomes_what_its_json_decodes_to() -> None:
    view = {"pieces": {5: Piece("queen", 0)}, "dice": [1, 2]}
    shaped = json_shaped(view)
    assert shaped == {"pieces": {"5": {"kind": "queen", "side": 0}}, "dice": [1, 2]}
    assert shaped == msgspec.json.decode(msgspec.json.encode(view))


@pytest.mark.parametrize(("game_id", "seats"), [("puzzipolia", 3), ("homunculus", 4), ("dragons", 2), ("magnates", 2)])
def test_every_game_shows_seats_and_spectators_json_views(game_id: str, seats: int) -> None:
    game = get_game(game_id)
    _, played = kit.play_random_game(game, {}, seats, random.Random(7))
    for state in kit.states_of(game, played, random.Random(7), 4):
        for viewer in [Viewer.of_seat(s) for s in range(seats)] + [Viewer.spectator()]:
            view = game.view(state, viewer)
            assert type(view) is JsonView
            assert view == msgspec.json.decode(msgspec.json.encode(view))
        kit.check_view_shapes(game, state, seats)
