"""The protobuf adapter (every command round-trips, packed in GameCommand.other too), the
journal (a domino taken is told with its tile to its taker only) and standings."""

from __future__ import annotations

import msgspec
import pytest
from dr_helpers import BLUE, RED, cell, of, put, scene, table

from dragons import commands as c
from dragons.events import DominoTaken
from dragons.game import GAME
from dragons.proto_codec import COMMAND_MESSAGE, command_from_proto, command_to_proto
from tablehall.dragons.v1 import dragons_pb2 as pb
from tablehall_rules import InvalidCommand
from tablehall_rules.table import CloseTable, RemovePlayer, SetController, SetPresence
from tablehall_rules.testing import Dice
from tablehall_stream import proto_games

# every command with the message the wire has always carried for it (the hand-written codec's)
SAMPLES: list[tuple[msgspec.Struct, pb.Command]] = [
    (c.PlaceStart(cell=150), pb.Command(place_start=pb.PlaceStart(cell=150))),
    (c.PlaceDie(face=3, cell=200), pb.Command(place_die=pb.PlaceDie(face=3, cell=200))),
    (
        c.PlaceDie(face=5, cell=249, contour=[249, 250, 251, 269, 286, 285, 284, 267]),
        pb.Command(place_die=pb.PlaceDie(face=5, cell=249, contour=[249, 250, 251, 269, 286, 285, 284, 267])),
    ),
    (c.ChessMove(face=1, origin=10, target=30), pb.Command(chess_move=pb.ChessMove(face=1, origin=10, target=30))),
    (
        c.ChessMove(face=2, origin=10, target=0, promotion=5, contour=[1, 2, 3, 4]),
        pb.Command(chess_move=pb.ChessMove(face=2, origin=10, target=0, promotion=5, contour=[1, 2, 3, 4])),
    ),
    (
        c.PlaceDomino(face=4, first=0, second=6, cells=[100, 101]),
        pb.Command(place_domino=pb.PlaceDomino(face=4, first=0, second=6, cells=[100, 101])),
    ),
    (
        c.PlaceDomino(face=4, first=6, second=0, cells=[101, 100], contour=[5, 6, 7, 8]),
        pb.Command(place_domino=pb.PlaceDomino(face=4, first=6, second=0, cells=[101, 100], contour=[5, 6, 7, 8])),
    ),
    (c.DiscardDie(face=6), pb.Command(discard_die=pb.DiscardDie(face=6))),
    (c.PlaceBlack(cell=268), pb.Command(place_black=pb.PlaceBlack(cell=268))),
    (c.TakeDomino(take=True), pb.Command(take_domino=pb.TakeDomino(answer=pb.DOMINO_ANSWER_TAKE))),
    (c.TakeDomino(take=False), pb.Command(take_domino=pb.TakeDomino(answer=pb.DOMINO_ANSWER_DECLINE))),
    (
        SetPresence(seat=1, present=False),
        pb.Command(set_presence=pb.SetPresence(seat=1, presence=pb.PRESENCE_ABSENT)),
    ),
    (SetPresence(seat=1, present=True), pb.Command(set_presence=pb.SetPresence(seat=1, presence=pb.PRESENCE_PRESENT))),
    (SetController(seat=0, by_bot=True), pb.Command(set_controller=pb.SetController(seat=0, by_bot=True))),
    (SetController(seat=0, by_bot=False), pb.Command(set_controller=pb.SetController(seat=0, by_bot=False))),
    (RemovePlayer(seat=1), pb.Command(remove_player=pb.RemovePlayer(seat=1))),
    (CloseTable(reason="operator"), pb.Command(close_table=pb.CloseTable(reason=pb.CLOSE_REASON_OPERATOR))),
    (CloseTable(reason="idle"), pb.Command(close_table=pb.CloseTable(reason=pb.CLOSE_REASON_IDLE))),
]


@pytest.mark.parametrize(("command", "wire"), SAMPLES, ids=lambda x: type(x).__name__)
def test_every_command_round_trips_through_its_message_as_it_always_has(
    command: msgspec.Struct, wire: pb.Command
) -> None:
    msg = command_to_proto(command)
    assert isinstance(msg, COMMAND_MESSAGE)
    assert msg.SerializeToString(deterministic=True) == wire.SerializeToString(deterministic=True)
    assert command_from_proto(pb.Command.FromString(wire.SerializeToString())) == command
    packed = proto_games.command_to_proto("dragons", command)
    assert proto_games.command_from_proto("dragons", packed) == command


def test_every_command_type_has_a_sample() -> None:
    assert {type(x) for x, _ in SAMPLES} == set(c.COMMAND_TYPES)


def test_unset_answers_and_empty_commands_are_invalid() -> None:
    for msg in (
        pb.Command(),
        pb.Command(take_domino=pb.TakeDomino()),
        pb.Command(close_table=pb.CloseTable()),
        pb.Command(set_presence=pb.SetPresence(seat=1)),
    ):
        with pytest.raises(InvalidCommand):
            command_from_proto(msg)


def test_a_domino_taken_is_journalled_for_all_and_with_its_tile_for_its_taker_only() -> None:
    t = table(round_no=1, red=(1,), blue=(), active=RED, index=4)
    put(t, 0, 3, RED, 2)
    t.play(c.PlaceDie(face=1, cell=cell(0, 4)))
    t.play(c.TakeDomino(take=True), seat=BLUE)  # sealed until red answers
    events = scene(t).play(c.TakeDomino(take=False), seat=RED, dice=Dice(5, then=b"next round"))
    (taken,) = of(events, DominoTaken)
    entries = GAME.journal(t.state, taken)
    assert [e.audience for e in entries] == [None, [BLUE]]  # spectators read the public line too
    text = f"{taken.tile.low}-{taken.tile.high}"
    assert text not in entries[0].ru + entries[0].en and text in entries[1].ru
    assert all(e.ru and e.en for e in entries)


def test_standings_follow_the_public_scores() -> None:
    st = table().state
    st.player(BLUE).score = 9
    assert GAME.standings(st) == [[BLUE], [RED]]


def test_dragons_is_registered_by_entry_point_with_every_hook() -> None:
    from tablehall_rules import Game, TableControl
    from tablehall_rules.bots import Determinizable, HasBotPolicy, HasEvaluation, HasRandomPolicy
    from tablehall_rules.journal import HasStandings, Journaled
    from tablehall_rules.registry import get_game, installed_games

    assert installed_games()["dragons"] == "dragons.game:GAME"
    game = get_game("dragons")
    assert game is GAME and isinstance(game, Game)
    hooks = (TableControl, Journaled, HasStandings, Determinizable, HasBotPolicy, HasEvaluation)
    assert all(isinstance(game, hook) for hook in hooks)
    assert not isinstance(game, HasRandomPolicy)  # the platform's uniform draw, made on the descriptors
    assert (game.min_seats, game.max_seats, game.title["ru"]) == (2, 2, "Драконы играют не только в покер")
    assert game.parse_options({}) == {"decision_clock_s": 60}
