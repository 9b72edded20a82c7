"""The kept legal-move protos: the same protos as built anew, for every kind of descriptor,
and a kept proto is never changed by the view it is copied into."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.state import Bundle
from tablehall.match.v1 import match_pb2
from tablehall_rules import Choice, IntRange, LegalMove, Rule
from tablehall_rules.legal import move
from tablehall_stream.proto_games import legal_move_to_proto, legal_moves_to_proto

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
