"""Identity: development sign-in without a token, operators, no provider."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from support.lobbykit import Lobby, race_table, refused, rid, start_lobby, stop_lobby
from support.matchkit import Tokens

from tablehall.lobby.v1 import lobby_pb2
from tablehall_sdk.client_secret import client_secret_of_this_user


@pytest.fixture
async def closed_lobby(lobby_db: str) -> AsyncIterator[Lobby]:
    running = await start_lobby(lobby_db, dev=False, operators=("oidc-issuer|owner",))
    yield running
    await stop_lobby(running)


async def test_dev_sign_in_gives_a_token_that_works(lobby: Lobby) -> None:
    signed = await lobby.identity.DevSignIn(
        lobby_pb2.DevSignInRequest(name="dana", display_name="Dana D.", client_secret="test-client-secret-dana")
    )
    assert signed.user_id == "dana"
    auth = [("authorization", f"Bearer {signed.token}")]
    me = await lobby.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=auth)
    assert (me.user_id, me.name, list(me.roles), me.operator) == ("dana", "Dana D.", ["player"], False)
    made = await lobby.stub.CreateTable(race_table(), metadata=auth)
    assert made.table.host_name == "Dana D."
    for bad in ("", "bot-7", "service", "a b", "x" * 41):
        await refused(
            lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name=bad)),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_NAME",
        )


async def test_a_call_without_a_token_is_refused(lobby: Lobby, tokens: Tokens) -> None:
    await refused(lobby.stub.CreateTable(race_table()), grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")
    await refused(
        lobby.stub.CreateTable(race_table(), metadata=[("authorization", "Bearer nonsense")]),
        grpc.StatusCode.UNAUTHENTICATED,
        "TOKEN_INVALID",
    )
    me = await lobby.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=tokens("root", ("operator",)))
    assert me.operator


async def test_without_a_provider_nobody_gets_in_and_dev_sign_in_is_off(closed_lobby: Lobby, tokens: Tokens) -> None:
    await refused(
        closed_lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name="dana")),
        grpc.StatusCode.FAILED_PRECONDITION,
        "DEV_SIGN_IN_DISABLED",
    )
    await refused(
        closed_lobby.stub.ListTables(lobby_pb2.ListTablesRequest(), metadata=tokens("dana")),
        grpc.StatusCode.UNAUTHENTICATED,
        "TOKEN_ISSUER_UNKNOWN",
    )


def test_operators_are_recognised_by_role_or_by_listed_id() -> None:
    from tablehall_lobby.identity import Identity
    from tablehall_platform.auth import Principal

    identity = Identity(operators=("https://id.twitch.tv/oauth2|1234",))
    owner = Principal("https://id.twitch.tv/oauth2|1234", "owner", issuer="https://id.twitch.tv/oauth2")
    viewer = Principal("https://id.twitch.tv/oauth2|99", "viewer", issuer="https://id.twitch.tv/oauth2")
    dev_operator = Principal("root", "root", roles=frozenset({"operator"}))
    assert identity.actor(owner).is_operator and identity.actor(dev_operator).is_operator
    assert not identity.actor(viewer).is_operator


async def test_dev_sign_in_never_hands_out_an_operators_name() -> None:
    from support.matchkit import SECRET

    from tablehall_lobby.identity import Identity
    from tablehall_platform.auth import DevProvider
    from tablehall_platform.errors import Refused

    identity = Identity(operators=("root",), dev=DevProvider(SECRET))
    with pytest.raises(Refused) as caught:
        await identity.dev_sign_in("root", "", "a-client-secret-of-16+")
    assert caught.value.reason == "NAME_RESERVED"


async def test_a_dev_name_belongs_to_the_client_that_claimed_it_first(lobby: Lobby, tmp_path: Path) -> None:
    mine = client_secret_of_this_user(tmp_path / "mine")
    assert client_secret_of_this_user(tmp_path / "mine") == mine  # kept in the config folder
    assert (tmp_path / "mine" / "client-secret").stat().st_mode & 0o777 == 0o600
    theirs = client_secret_of_this_user(tmp_path / "theirs")
    name = f"h{rid()}"
    first = await lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name=name, client_secret=mine))
    again = await lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name=name, client_secret=mine))
    assert first.user_id == again.user_id == name
    # anyone else who types the host's name is refused, with or without a secret
    await refused(
        lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name=name, client_secret=theirs)),
        grpc.StatusCode.PERMISSION_DENIED,
        "NAME_CLAIMED",
    )
    await refused(
        lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name=name)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "CLIENT_SECRET_REQUIRED",
    )
