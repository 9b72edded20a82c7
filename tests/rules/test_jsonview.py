"""`JsonView` and `json_shaped`: a view its game made JSON-shaped is handed on as it is; any other
is converted to what its JSON decodes to. Every product game's seat and spectator views are
`JsonView`s (so a bot rendering its own view copies nothing); the conformance kit checks each
such view equals its JSON round trip (`check_view_shapes`). A `SharedJson` part is encoded once
for every view that holds it (`encode_view`), to the same bytes."""

from __future__ import annotations

import copy
import pickle
import random
from types import SimpleNamespace
from typing import Any, cast

import msgspec
import pytest

from tablehall_rules import Game, JsonView, SharedJson, Viewer, encode_view, json_shaped
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


def test_a_shared_part_is_encoded_once_to_the_same_bytes() -> None:
    squares = SharedJson([{"ru": "Старт", "en": "Start"}, {"price": 60}])
    first = JsonView({"squares": squares, "money": [1500, 1350]})
    second = JsonView({"squares": squares, "money": [1400, 1450]})
    assert encode_view(first) == msgspec.json.encode(first)
    encoded = squares.encoded()
    assert encode_view(second) == msgspec.json.encode(second)
    assert squares.encoded() is encoded  # the second view reused the first one's encoding


def test_a_copy_of_a_shared_part_is_a_plain_list_to_change() -> None:
    part = SharedJson([[1, 2], {"a": 3}])
    part.encoded()
    for made in (copy.copy(part), copy.deepcopy(part), pickle.loads(pickle.dumps(part))):
        assert type(made) is list
        assert made == part


@pytest.mark.parametrize(("game_id", "seats"), [("puzzipolia", 3), ("homunculus", 4), ("dragons", 2), ("magnates", 2)])
def test_every_game_view_encodes_as_msgspec_does(game_id: str, seats: int) -> None:
    game = get_game(game_id)
    _, played = kit.play_random_game(game, {}, seats, random.Random(11))
    for state in kit.states_of(game, played, random.Random(11), 6):
        for viewer in [Viewer.of_seat(s) for s in range(seats)] + [Viewer.spectator(), Viewer.auditor()]:
            view = game.view(state, viewer)
            assert encode_view(view) == msgspec.json.encode(view)


@pytest.mark.parametrize(
    ("game_id", "part"), [("puzzipolia", "squares"), ("homunculus", "shop"), ("homunculus", "ring_squares")]
)
def test_views_of_one_board_share_its_part(game_id: str, part: str) -> None:
    game = get_game(game_id)
    _, played = kit.play_random_game(game, {}, 3, random.Random(5))
    state = next(iter(kit.states_of(game, played, random.Random(5), 1)))
    seat, spectator = game.view(state, Viewer.of_seat(0)), game.view(state, Viewer.spectator())
    assert type(seat[part]) is SharedJson
    assert seat[part] is spectator[part]


def test_the_kit_finds_a_shared_part_changed_after_it_was_encoded() -> None:
    part = SharedJson([{"owner": None}])
    encode_view(JsonView({"squares": part}))
    part[0] = {"owner": 2}  # what a game must never do: change a part views already hold

    def view(state: Any, viewer: Viewer) -> JsonView:
        return JsonView({"squares": part})

    fake = cast(Game[Any], SimpleNamespace(id="fake", view=view))
    with pytest.raises(AssertionError, match="SharedJson"):
        kit.check_view_shapes(fake, None, 1)
