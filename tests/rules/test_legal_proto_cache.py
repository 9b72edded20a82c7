"""The kept legal-move protos: the same protos as built anew, for every kind of descriptor,
and a kept proto is never changed by the view it is copied into."""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format, struct_pb2
from hypothesis import given
from hypothesis import strategies as st

from puzzipolia import commands as c
from puzzipolia.state import Bundle
from tablehall.match.v1 import match_pb2
from tablehall_rules import Choice, IntRange, LegalMove, Rule
from tablehall_rules.legal import expand_all, move
from tablehall_stream.codecs import command_codec
from tablehall_stream.proto_games import _plain, _value, legal_commands_of, legal_move_to_proto, legal_moves_to_proto

MOVES = [
    LegalMove(c.Roll()),
    move(c.Bid(amount=0), amount=IntRange(10, 20, 5)),
    move(c.Bid(amount=0), amount=IntRange(10, 25, 5)),
    move(c.ProposeTrade(to_seat=2, give=Bundle(), get=Bundle()), give=Choice([{"lots": [1], "money": 0, "cards": []}])),
    move(c.ProposeTrade(to_seat=3, give=Bundle(), get=Bundle()), give=Rule("any bundle", [{"lots": [], "money": 5}])),
    move(c.Build(square=15)),
]


def test_kept_protos_are_the_protos_built_anew() -> None:
    for _ in range(2):  # built, then kept
        assert legal_moves_to_proto("puzzipolia", MOVES) == [legal_move_to_proto("puzzipolia", m) for m in MOVES]


def test_different_descriptors_never_share_a_proto() -> None:
    protos = legal_moves_to_proto("puzzipolia", MOVES)
    assert len({p.SerializeToString() for p in protos}) == len(MOVES)


def test_a_view_holding_kept_protos_leaves_them_unchanged() -> None:
    view = match_pb2.TableView()
    view.legal_moves.extend(legal_moves_to_proto("puzzipolia", MOVES))
    view.legal_moves[0].parameters.add(field="changed")
    assert legal_moves_to_proto("puzzipolia", MOVES)[0] == legal_move_to_proto("puzzipolia", MOVES[0])


# ---- JSON values as google.protobuf.Value, and what a client reads back ----------------------

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12,
)


def _integral(data: Any) -> Any:
    if isinstance(data, float) and data.is_integer():
        return int(data)
    if isinstance(data, list):
        return [_integral(v) for v in data]
    if isinstance(data, dict):
        return {k: _integral(v) for k, v in data.items()}
    return data


@given(_json)
def test_a_value_is_built_and_read_as_protobufs_json_format_does(data: Any) -> None:
    reference = struct_pb2.Value()
    json_format.ParseDict(data, reference)
    assert _value(data) == reference
    assert _plain(reference) == _integral(json_format.MessageToDict(reference))


def test_commands_read_back_from_a_view_are_its_descriptors_spelled_out_each_time_and_within_the_limit() -> None:
    view = match_pb2.TableView(game="puzzipolia")
    wide = move(c.Bid(amount=0), amount=IntRange(10, 10_000))  # too many to keep: spelled out to the limit
    view.legal_moves.extend(legal_moves_to_proto("puzzipolia", [*MOVES, wide]))
    expected = expand_all([*MOVES, wide], command_codec("puzzipolia"))
    for _ in range(2):  # read, then kept
        assert legal_commands_of(view) == expected
        assert legal_commands_of(view, limit=5) == expected[:5]
        assert legal_commands_of(view, limit=50) == expected[:50]


def test_the_commands_kept_from_read_back_descriptors_stay_within_their_bound() -> None:
    from tablehall_stream import proto_games

    view = match_pb2.TableView(game="puzzipolia")
    for low in range(0, 200 * 400, 200):  # 400 descriptors of 200 bids each: 80,000 commands read
        del view.legal_moves[:]
        view.legal_moves.extend(
            legal_moves_to_proto("puzzipolia", [move(c.Bid(amount=0), amount=IntRange(low, low + 199))])
        )
        assert legal_commands_of(view) == [c.Bid(amount=a) for a in range(low, low + 200)]
        kept = sum(len(commands) for commands in proto_games._spelled.values())
        assert kept == proto_games._spelled_count[0] <= proto_games.SPELLED_COMMANDS
