"""Private tables: entry and viewing only with the PIN, attempts rate limited,
the PIN never in an event, a listing or the read model."""

from __future__ import annotations

import grpc
from support.lobbykit import Lobby, race_table, refused, rid, start_lobby, stop_lobby
from support.matchkit import Tokens

from tablehall.lobby.v1 import lobby_pb2
from tablehall_lobby.events import table_stream

PIN = "7391-kestrel"


async def test_a_private_table_admits_only_with_its_pin(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(private=True, pin=PIN), metadata=tokens("host"))
    name = made.table.name
    assert made.table.private
    before = await lobby.store.stream_version(table_stream(name[7:]))

    join = lobby.stub.JoinTable
    await refused(
        join(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("eve")),
        grpc.StatusCode.PERMISSION_DENIED,
        "PIN_REQUIRED",
    )
    await refused(
        join(lobby_pb2.JoinTableRequest(table=name, pin="0000", request_id=rid()), metadata=tokens("eve")),
        grpc.StatusCode.PERMISSION_DENIED,
        "WRONG_PIN",
    )
    await refused(
        lobby.stub.EnterTable(
            lobby_pb2.EnterTableRequest(table=name, pin="1111", request_id=rid()), metadata=tokens("eve")
        ),
        grpc.StatusCode.PERMISSION_DENIED,
        "WRONG_PIN",
    )
    # viewing without the PIN: chat and the match view are closed
    await refused(
        lobby.stub.ListChatMessages(lobby_pb2.ListChatMessagesRequest(table=name), metadata=tokens("eve")),
        grpc.StatusCode.PERMISSION_DENIED,
        "PIN_REQUIRED",
    )
    await refused(
        lobby.stub.WatchTable(lobby_pb2.WatchTableRequest(table=name), metadata=tokens("eve")),
        grpc.StatusCode.PERMISSION_DENIED,
        "PIN_REQUIRED",
    )
    assert await lobby.store.stream_version(table_stream(name[7:])) == before  # nothing written

    ok = await join(lobby_pb2.JoinTableRequest(table=name, pin=PIN, request_id=rid()), metadata=tokens("bob"))
    assert ok.seat == 1
    spectator = await lobby.stub.EnterTable(
        lobby_pb2.EnterTableRequest(table=name, pin=PIN, request_id=rid()), metadata=tokens("sam")
    )
    assert list(spectator.table.spectators) == []  # who watches: members only
    seen_by_host = await lobby.stub.GetTable(lobby_pb2.GetTableRequest(table=name), metadata=tokens("host"))
    assert list(seen_by_host.table.spectators) == ["sam"]
    chat = await lobby.stub.ListChatMessages(lobby_pb2.ListChatMessagesRequest(table=name), metadata=tokens("sam"))
    assert list(chat.messages) == []

    # an invited user needs no PIN
    await lobby.stub.InvitePlayer(
        lobby_pb2.InvitePlayerRequest(table=name, user_id="ivy", request_id=rid()), metadata=tokens("host")
    )
    invited = await join(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("ivy"))
    assert invited.seat == 2

    # the PIN is nowhere but its hash
    payloads = b"".join(e.payload for e in await lobby.store.read_stream(table_stream(name[7:])))
    assert PIN.encode() not in payloads
    rows = await lobby.store.pool.fetch("SELECT state::text FROM lobby_tables")
    assert all(PIN not in r[0] for r in rows)
    secret = await lobby.store.pool.fetchrow("SELECT pin_hash FROM lobby_secrets WHERE table_id = $1", name[7:])
    assert secret is not None and PIN.encode() not in bytes(secret["pin_hash"])
    got = await lobby.stub.GetTable(lobby_pb2.GetTableRequest(table=name), metadata=tokens("host"))
    assert PIN not in str(got)


async def test_pin_attempts_are_rate_limited_per_user_and_table(lobby_db: str, tokens: Tokens) -> None:
    # the per-table guard (any identity) is loosened here: this is the per-user limit
    lobby = await start_lobby(lobby_db, pin_free_failures=100)
    try:
        await _rate_limited_per_user(lobby, tokens)
    finally:
        await stop_lobby(lobby)


async def _rate_limited_per_user(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(private=True, pin=PIN), metadata=tokens("host"))
    name = made.table.name
    for _ in range(5):
        await refused(
            lobby.stub.JoinTable(
                lobby_pb2.JoinTableRequest(table=name, pin="guess", request_id=rid()), metadata=tokens("mallory")
            ),
            grpc.StatusCode.PERMISSION_DENIED,
            "WRONG_PIN",
        )
    # over the limit even the right PIN is not compared
    await refused(
        lobby.stub.JoinTable(
            lobby_pb2.JoinTableRequest(table=name, pin=PIN, request_id=rid()), metadata=tokens("mallory")
        ),
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "PIN_ATTEMPTS_EXCEEDED",
    )
    # another user is not affected
    ok = await lobby.stub.JoinTable(
        lobby_pb2.JoinTableRequest(table=name, pin=PIN, request_id=rid()), metadata=tokens("bob")
    )
    assert ok.seat == 1


async def test_the_host_makes_a_table_private_and_public_again(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(race_table(), metadata=tokens("host"))
    name = made.table.name
    await refused(
        lobby.stub.SetPrivacy(
            lobby_pb2.SetPrivacyRequest(table=name, private=True, pin=PIN, request_id=rid()), metadata=tokens("bob")
        ),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_THE_HOST",
    )
    await refused(
        lobby.stub.SetPrivacy(
            lobby_pb2.SetPrivacyRequest(table=name, private=True, pin="12", request_id=rid()), metadata=tokens("host")
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_PIN",
    )
    private = await lobby.stub.SetPrivacy(
        lobby_pb2.SetPrivacyRequest(table=name, private=True, pin=PIN, request_id=rid()), metadata=tokens("host")
    )
    assert private.table.private
    await refused(
        lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("bob")),
        grpc.StatusCode.PERMISSION_DENIED,
        "PIN_REQUIRED",
    )
    public = await lobby.stub.SetPrivacy(
        lobby_pb2.SetPrivacyRequest(table=name, private=False, request_id=rid()), metadata=tokens("host")
    )
    assert not public.table.private
    joined = await lobby.stub.JoinTable(
        lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("bob")
    )
    assert joined.seat == 1
    types = [e.type for e in await lobby.store.read_stream(table_stream(name[7:]))]
    assert types == ["lobby.TableCreated", "lobby.PrivacyChanged", "lobby.PrivacyChanged", "lobby.SeatTaken"]


async def test_a_private_tables_game_is_shown_only_to_those_who_entered(lobby: Lobby, tokens: Tokens) -> None:
    from tablehall.match.v1 import match_pb2

    made = await lobby.stub.CreateTable(race_table(private=True, pin=PIN), metadata=tokens("host"))
    name = made.table.name
    await lobby.stub.JoinTable(
        lobby_pb2.JoinTableRequest(table=name, pin=PIN, request_id=rid()), metadata=tokens("bob")
    )
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    view = match_pb2.GetTableViewRequest(table=name)
    await refused(
        lobby.match_stub.GetTableView(view, metadata=tokens("eve")), grpc.StatusCode.PERMISSION_DENIED, "TABLE_PRIVATE"
    )
    assert (await lobby.match_stub.GetTableView(view, metadata=tokens("bob"))).view.seat == 1  # a player
    await lobby.stub.EnterTable(
        lobby_pb2.EnterTableRequest(table=name, pin=PIN, request_id=rid()), metadata=tokens("eve")
    )
    seen = await lobby.match_stub.GetTableView(view, metadata=tokens("eve"))
    assert seen.view.role == match_pb2.VIEWER_ROLE_SPECTATOR
    await lobby.stub.RemoveSpectator(
        lobby_pb2.RemoveSpectatorRequest(table=name, user_id="eve", request_id=rid()), metadata=tokens("host")
    )
    await refused(
        lobby.match_stub.GetTableView(view, metadata=tokens("eve")),
        grpc.StatusCode.PERMISSION_DENIED,
        "REMOVED_FROM_TABLE",
    )
