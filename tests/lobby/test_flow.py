"""Create -> invite/join -> bots -> start -> play handed to the match service."""

from __future__ import annotations

import json

import grpc
from support.lobbykit import Lobby, race_table, refused, rid
from support.matchkit import Tokens, race_command

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2
from tablehall.match.v1 import match_pb2
from tablehall_lobby.events import table_stream


async def test_a_table_is_created_filled_started_and_played(lobby: Lobby, tokens: Tokens) -> None:
    stub = lobby.stub
    created = await stub.CreateTable(race_table(seat_count=4), metadata=tokens("alice"))
    table = created.table
    assert table.status == table_pb2.TABLE_STATUS_WAITING and table.host_user_id == "alice"
    assert table.seats[0].user_id == "alice" and table.seats_taken == 1
    assert json.loads(table.options_json) == {
        "target": 30,
        "clock_ms": 30000,
        "calls": False,
        "teams": False,
    }  # canonical

    await stub.InvitePlayer(
        lobby_pb2.InvitePlayerRequest(table=table.name, user_id="bob", request_id=rid()), metadata=tokens("alice")
    )
    joined = await stub.JoinTable(
        lobby_pb2.JoinTableRequest(table=table.name, request_id=rid()), metadata=tokens("bob")
    )
    assert joined.seat == 1
    bot = await stub.AddBot(lobby_pb2.AddBotRequest(table=table.name, request_id=rid()), metadata=tokens("alice"))
    assert bot.seat == 2 and bot.table.seats[2].is_bot
    await stub.UpdateOptions(
        lobby_pb2.UpdateOptionsRequest(table=table.name, options_json='{"target": 12}', request_id=rid()),
        metadata=tokens("alice"),
    )

    listed = await stub.ListTables(
        lobby_pb2.ListTablesRequest(game="testgame", page_size=100), metadata=tokens("carol")
    )
    mine = next(t for t in listed.tables if t.name == table.name)
    assert mine.seats_taken == 3 and not mine.private and json.loads(mine.options_json)["target"] == 12

    started = await stub.StartTable(
        lobby_pb2.StartTableRequest(table=table.name, request_id=rid()), metadata=tokens("alice")
    )
    assert started.table.status == table_pb2.TABLE_STATUS_PLAYING and len(started.seed_sha256) == 64
    assert [s.user_id for s in started.table.seats] == ["alice", "bob", "bot:" + table.name[7:] + ":1"]

    events = await lobby.store.read_stream(table_stream(table.name[7:]))
    types = [e.type for e in events]
    assert types[:6] == [
        "lobby.TableCreated",
        "lobby.Invited",
        "lobby.SeatTaken",
        "lobby.BotAdded",
        "lobby.OptionsChanged",
        "lobby.StartRequested",
    ]
    assert types[6] == "match.Started" and types[7] == "testgame.Started"
    assert json.loads(events[6].payload)["options"]["target"] == 12

    # play goes to the match service, for the caller's own seat only
    view = await lobby.match_stub.GetTableView(
        match_pb2.GetTableViewRequest(table=table.name), metadata=tokens("alice")
    )
    assert view.view.seat == 0 and view.view.decisions[0].seat == 0
    reply = await lobby.match_stub.SubmitCommand(
        match_pb2.SubmitCommandRequest(table=table.name, seat=0, command=race_command("roll"), request_id="r1"),
        metadata=tokens("alice"),
    )
    assert json.loads(reply.view.view_json)["turn"] == 1
    await refused(
        lobby.match_stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table.name, seat=1, command=race_command("roll"), request_id="x"),
            metadata=tokens("alice"),
        ),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_SEAT",
    )
    # the lobby relays a seat's command for its occupant too
    relayed = await stub.SubmitSeatCommand(
        lobby_pb2.SubmitSeatCommandRequest(table=table.name, command=race_command("pass"), request_id="p1"),
        metadata=tokens("bob"),
    )
    assert json.loads(relayed.view.view_json)["turn"] == 2

    # a started table leaves the open listing and refuses changes
    listed = await stub.ListTables(lobby_pb2.ListTablesRequest(page_size=100), metadata=tokens("carol"))
    assert table.name not in [t.name for t in listed.tables]
    listed = await stub.ListTables(
        lobby_pb2.ListTablesRequest(page_size=100, include_started=True), metadata=tokens("carol")
    )
    assert table.name in [t.name for t in listed.tables]


async def test_a_retried_request_is_answered_not_applied_twice(lobby: Lobby, tokens: Tokens) -> None:
    request = race_table()
    first = await lobby.stub.CreateTable(request, metadata=tokens("alice"))
    again = await lobby.stub.CreateTable(request, metadata=tokens("alice"))
    assert again.table.name == first.table.name and again.table.version == first.table.version
    join = lobby_pb2.JoinTableRequest(table=first.table.name, request_id="join-1")
    one = await lobby.stub.JoinTable(join, metadata=tokens("bob"))
    two = await lobby.stub.JoinTable(join, metadata=tokens("bob"))
    assert one.seat == two.seat == 1 and two.table.version == one.table.version
    stream = await lobby.store.read_stream(table_stream(first.table.name[7:]))
    assert [e.type for e in stream] == ["lobby.TableCreated", "lobby.SeatTaken"]
    start = lobby_pb2.StartTableRequest(table=first.table.name, request_id="go")
    a = await lobby.stub.StartTable(start, metadata=tokens("alice"))
    b = await lobby.stub.StartTable(start, metadata=tokens("alice"))
    assert a.seed_sha256 == b.seed_sha256
    types = [e.type for e in await lobby.store.read_stream(table_stream(first.table.name[7:]))]
    assert types.count("match.Started") == 1 and types.count("lobby.StartRequested") == 1


async def test_listing_pages_and_never_shows_a_pin(lobby: Lobby, tokens: Tokens) -> None:
    names = []
    for i in range(5):
        made = await lobby.stub.CreateTable(
            lobby_pb2.CreateTableRequest(
                game="testgame", private=i % 2 == 0, pin="secret-pin-77" if i % 2 == 0 else "", request_id=rid()
            ),
            metadata=tokens("pager"),
        )
        names.append(made.table.name)

    async def listed(user: str) -> list[lobby_pb2.Table]:
        seen: list[lobby_pb2.Table] = []
        token = ""
        while True:
            page = await lobby.stub.ListTables(
                lobby_pb2.ListTablesRequest(page_size=2, page_token=token), metadata=tokens(user)
            )
            assert len(page.tables) <= 2
            seen.extend(page.tables)
            token = page.next_page_token
            if not token:
                return seen

    seen = await listed("pager")  # the host sees its private tables listed
    ours = [t for t in seen if t.name in names]
    assert [t.name for t in ours] == list(reversed(names))  # newest first, each once
    assert [t.private for t in ours] == [True, False, True, False, True]
    assert all(not t.spectators and not t.invited for t in ours)
    # anyone else: private tables are not listed (docs/security.md)
    others = [t.name for t in await listed("viewer") if t.name in names]
    assert others == [names[3], names[1]]
    seen += await listed("viewer")
    assert "secret-pin-77" not in str(seen)
    await refused(
        lobby.stub.ListTables(lobby_pb2.ListTablesRequest(page_token="garbage!"), metadata=tokens("viewer")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_PAGE_TOKEN",
    )
