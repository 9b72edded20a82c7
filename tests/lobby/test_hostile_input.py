"""Issue 13: a single hostile request harms nobody else. Each input below once
answered UNKNOWN (and some wrote an event that broke the table for everyone);
now each is INVALID_ARGUMENT (or UNAUTHENTICATED) with a reason, and nothing is written."""

from __future__ import annotations

import time
from typing import Any

import grpc
import jwt
import pytest
from support.lobbykit import Lobby, race_table, refused, rid
from support.matchkit import SECRET, Tokens

from tablehall.lobby.v1 import lobby_pb2
from tablehall_lobby.events import table_stream
from tablehall_platform.auth import DevProvider

Code = grpc.StatusCode
NUL = "\x00"
LONG = "r" * 3000


async def _table(lobby: Lobby, tokens: Tokens) -> str:
    created = await lobby.stub.CreateTable(race_table(), metadata=tokens("host"))
    return str(created.table.name)


async def _version(lobby: Lobby, name: str) -> int:
    return await lobby.store.stream_version(table_stream(name[7:]))


async def _still_served(lobby: Lobby, tokens: Tokens, name: str, version: int) -> None:
    """The table answers everyone as before, at the same version."""
    got = await lobby.stub.GetTable(lobby_pb2.GetTableRequest(table=name), metadata=tokens("host"))
    assert got.table.version == version
    joined = await lobby.stub.JoinTable(
        lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens("carol")
    )
    assert joined.table.version == version + 1


async def test_a_nul_display_name_is_refused_at_sign_in(lobby: Lobby) -> None:
    await refused(
        lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name="eve", display_name="Eve" + NUL)),
        Code.INVALID_ARGUMENT,
        "INVALID_NAME",
    )
    await refused(
        lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name="alice\n")), Code.INVALID_ARGUMENT, "INVALID_NAME"
    )


async def test_a_display_name_is_normalised_to_nfc(lobby: Lobby) -> None:
    signed = await lobby.identity.DevSignIn(
        lobby_pb2.DevSignInRequest(name="rene", display_name="Rene\u0301", client_secret="test-client-secret-rene")
    )
    me = await lobby.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=[("authorization", f"Bearer {signed.token}")])
    assert me.name == "Ren\u00e9"


async def test_a_token_naming_a_nul_user_cannot_join_and_the_table_goes_on(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens)
    before = await _version(lobby, name)
    token = DevProvider(SECRET).issue("eve", "Eve" + NUL)  # a token signed before the fix
    await refused(
        lobby.stub.JoinTable(
            lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=[("authorization", f"Bearer {token}")]
        ),
        Code.UNAUTHENTICATED,
        "TOKEN_INVALID",
    )
    await _still_served(lobby, tokens, name, before)


@pytest.mark.parametrize("method", ["InvitePlayer", "RemoveSpectator"])
async def test_a_nul_user_id_is_refused_and_the_table_goes_on(lobby: Lobby, tokens: Tokens, method: str) -> None:
    name = await _table(lobby, tokens)
    before = await _version(lobby, name)
    request: Any = getattr(lobby_pb2, f"{method}Request")(table=name, user_id="bob" + NUL, request_id=rid())
    await refused(getattr(lobby.stub, method)(request, metadata=tokens("host")), Code.INVALID_ARGUMENT, "INVALID_ID")
    await _still_served(lobby, tokens, name, before)


@pytest.mark.parametrize("request_id", [LONG, "r" + NUL, "r\n"])
async def test_bad_request_ids_are_refused_by_create_add_bot_and_join(
    lobby: Lobby, tokens: Tokens, request_id: str
) -> None:
    create = race_table()
    create.request_id = request_id
    await refused(lobby.stub.CreateTable(create, metadata=tokens("host")), Code.INVALID_ARGUMENT, "INVALID_REQUEST_ID")
    name = await _table(lobby, tokens)
    before = await _version(lobby, name)
    await refused(
        lobby.stub.AddBot(lobby_pb2.AddBotRequest(table=name, request_id=request_id), metadata=tokens("host")),
        Code.INVALID_ARGUMENT,
        "INVALID_REQUEST_ID",
    )
    await refused(
        lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=request_id), metadata=tokens("bob")),
        Code.INVALID_ARGUMENT,
        "INVALID_REQUEST_ID",
    )
    await _still_served(lobby, tokens, name, before)


async def test_deeply_nested_options_are_refused(lobby: Lobby, tokens: Tokens) -> None:
    create = race_table(options='{"a": ' * 100_000 + "1" + "}" * 100_000)
    await refused(
        lobby.stub.CreateTable(create, metadata=tokens("host")), Code.INVALID_ARGUMENT, "INVALID_OPTIONS_JSON"
    )
    create = race_table(options="[" * 5000 + "]" * 5000)
    await refused(
        lobby.stub.CreateTable(create, metadata=tokens("host")), Code.INVALID_ARGUMENT, "INVALID_OPTIONS_JSON"
    )
    create = race_table(options='{"target": 30, "x": "a\\u0000"}')
    await refused(
        lobby.stub.CreateTable(create, metadata=tokens("host")), Code.INVALID_ARGUMENT, "INVALID_OPTIONS_JSON"
    )


async def test_a_table_name_with_a_final_newline_is_refused_not_resolved(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens)
    await refused(
        lobby.stub.GetTable(lobby_pb2.GetTableRequest(table=name + "\n"), metadata=tokens("host")),
        Code.INVALID_ARGUMENT,
        "INVALID_TABLE_NAME",
    )


@pytest.mark.parametrize("token", [str(2**31), str(2**63), "-1" + "9" * 30])
async def test_a_chat_page_token_beyond_int32_is_refused(lobby: Lobby, tokens: Tokens, token: str) -> None:
    name = await _table(lobby, tokens)
    await refused(
        lobby.stub.ListChatMessages(
            lobby_pb2.ListChatMessagesRequest(table=name, page_token=token), metadata=tokens("host")
        ),
        Code.INVALID_ARGUMENT,
        "INVALID_PAGE_TOKEN",
    )


async def test_a_listing_page_token_beyond_int64_is_refused(lobby: Lobby, tokens: Tokens) -> None:
    import base64

    for text in (f"{2**64}:t-1", "1:t-1\x00", "1:"):
        token = base64.urlsafe_b64encode(text.encode()).decode()
        await refused(
            lobby.stub.ListTables(lobby_pb2.ListTablesRequest(page_token=token), metadata=tokens("host")),
            Code.INVALID_ARGUMENT,
            "INVALID_PAGE_TOKEN",
        )


@pytest.mark.parametrize("roles", [[["player"]], [{"a": 1}], [1], "player", {"player": True}])
async def test_a_validly_signed_token_with_malformed_roles_is_unauthenticated(lobby: Lobby, roles: Any) -> None:
    now = int(time.time())
    claims = {"iss": DevProvider.issuer, "sub": "mallory", "name": "M", "roles": roles, "iat": now, "exp": now + 60}
    token = jwt.encode(claims, SECRET, algorithm="HS256")
    await refused(
        lobby.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=[("authorization", f"Bearer {token}")]),
        Code.UNAUTHENTICATED,
        "TOKEN_INVALID",
    )


@pytest.mark.parametrize(
    "payload",
    [
        b"\x0a\x03\xff\xfe\xfd",  # field 1 (table), a string of invalid UTF-8
        b"\x0a\x10abc",  # a string longer than the message
        b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # a broken tag
    ],
)
async def test_corrupt_protobuf_and_invalid_utf8_are_invalid_argument(
    lobby: Lobby, tokens: Tokens, payload: bytes
) -> None:
    call = lobby.channel.unary_unary(
        "/tablehall.lobby.v1.LobbyService/GetTable",
        request_serializer=lambda raw: raw,
        response_deserializer=lobby_pb2.GetTableResponse.FromString,
    )
    await refused(call(payload, metadata=tokens("host")), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")


async def test_a_request_id_sent_again_with_another_request_is_refused(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens)
    joined = await lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id="x1"), metadata=tokens("bob"))
    again = await lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id="x1"), metadata=tokens("bob"))
    assert (again.seat, again.table.version) == (joined.seat, joined.table.version)  # an honest retry
    await refused(
        lobby.stub.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=name, request_id="x1"), metadata=tokens("bob")),
        Code.FAILED_PRECONDITION,
        "REQUEST_ID_REUSED",
    )
    other_seat = lobby_pb2.JoinTableRequest(table=name, request_id="x1", seat=3)
    await refused(
        lobby.stub.JoinTable(other_seat, metadata=tokens("bob")), Code.FAILED_PRECONDITION, "REQUEST_ID_REUSED"
    )
    assert await _version(lobby, name) == joined.table.version
