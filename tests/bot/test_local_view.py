"""A bot's seat view rendered from the state folded in the bot is the one the match would answer:
the same view data as the match's JSON decodes to, the same legal commands as its legal-move protos
spell out, the same open decisions, at every version of random games of every game."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from support.randomplay import existing_games, random_match
from tablehall_bot.local_view import folded_view
from tablehall_bot.search.hooks import LEGAL_LIMIT
from tablehall_bot.seats import TableSeats

from tablehall.match.v1 import match_pb2
from tablehall_rules import Viewer
from tablehall_rules.disclosure import visible_decisions
from tablehall_stream.fold import TableFold
from tablehall_stream.proto_games import legal_commands_of, legal_moves_to_proto

NOW_MS = 1_700_000_100_000


def _as_the_match_answers(game: Any, state: Any, seat: int) -> tuple[Any, list[Any], list[Any]]:
    """What the bot read from GetTableView: the view through JSON, the legal moves through protobuf."""
    view = msgspec.json.decode(msgspec.json.encode(game.view(state, Viewer.of_seat(seat))))
    proto = match_pb2.TableView(game=game.id)
    proto.legal_moves.extend(legal_moves_to_proto(game.id, game.legal(state, seat, NOW_MS)))
    decisions = visible_decisions(game.pending(state), Viewer.of_seat(seat))
    return view, legal_commands_of(proto, limit=LEGAL_LIMIT), decisions


@pytest.mark.parametrize("game", existing_games(), ids=lambda g: g.id)
def test_a_view_rendered_in_the_bot_is_the_one_the_match_answers(game: Any) -> None:
    rng = random.Random(f"local-view-{game.id}")
    compared = 0
    for n in range(3):
        events = random_match(game, rng, f"lv-{n}", max_commands=60)
        seats = TableSeats()
        truth = TableFold("t")
        for event in events:
            seats.apply(event.version, event.type, event.payload, event.metadata, event.schema_version)
            truth.apply(event)
            if "pending" not in event.metadata:  # half way through a command: the match shows no such state
                assert folded_view("t", seats, 0, NOW_MS) is None
                continue
            if truth.state is None or truth.ended is not None or rng.random() < 0.5:
                continue
            for seat in range(len(truth.started.seats) if truth.started else 0):
                local = folded_view("t", seats, seat, NOW_MS)
                assert local is not None and local.version == event.version
                view, legal, decisions = _as_the_match_answers(game, truth.state, seat)
                assert local.view == view
                assert local.legal == legal
                assert local.decisions == decisions
                compared += 1
    assert compared >= 20, compared


def test_no_view_is_rendered_from_a_stream_that_could_not_be_folded() -> None:
    seats = TableSeats()
    # a start the platform's decoder refuses (no options, no seed commitment): the bot asks the match
    seats.apply(1, "match.Started", msgspec.json.encode({"game": "testgame", "seats": []}), {})
    assert seats.game_fold is None
    assert folded_view("t", seats, 0, NOW_MS) is None
