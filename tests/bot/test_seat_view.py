"""GetTableView with `seat`: a service reads any seat's view; a player only their own."""

from __future__ import annotations

import json

import grpc
from support.lobbykit import refused
from support.matchkit import Running, Tokens, start_race

from tablehall.match.v1 import match_pb2


async def test_a_service_reads_exactly_the_named_seats_view(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    bot = tokens("bot", roles=("service",))
    for seat in (0, 1):
        reply = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table, seat=seat), metadata=bot)
        view = json.loads(reply.view.view_json)
        assert reply.view.seat == seat and reply.view.role == match_pb2.VIEWER_ROLE_SEAT
        # its own secret only, as the seat itself would see it
        assert view["secrets"][seat] is not None and view["secrets"][1 - seat] is None
        assert len(reply.view.legal_moves) == (2 if seat == 0 else 0)


async def test_a_player_may_name_only_their_own_seat(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    own = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table, seat=1), metadata=tokens("bob"))
    assert own.view.seat == 1
    await refused(
        match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table, seat=0), metadata=tokens("bob")),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_SEAT",
    )
    await refused(
        match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table, seat=0), metadata=tokens("carol")),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_SEAT",
    )


async def test_a_seat_the_table_lacks_is_a_bad_request(match: Running, tokens: Tokens) -> None:
    table = await start_race(match.stub, tokens)
    await refused(
        match.stub.GetTableView(
            match_pb2.GetTableViewRequest(table=table, seat=7), metadata=tokens("bot", roles=("service",))
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
        "NO_SUCH_SEAT",
    )
