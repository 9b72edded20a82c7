"""Issue 30: inputs that still answered INTERNAL or were taken as they came. Plain text that
looks like an escape is accepted; real NULs, huge numbers, invisible characters are refused
with a reason; look-alike names are one user; nothing is written for a refused request."""

from __future__ import annotations

import grpc
import pytest
from support.lobbykit import Lobby, race_table, refused, rid

from tablehall.lobby.v1 import lobby_pb2
from tablehall_lobby.events import table_stream
from tablehall_platform.errors import error_info

Code = grpc.StatusCode
PLAIN_ESCAPE = "\\u0000"  # the six characters backslash, u, 0, 0, 0, 0: not a NUL


def _bearer(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


async def _sign_in(lobby: Lobby, name: str, display_name: str = "", secret: str = "") -> lobby_pb2.DevSignInResponse:
    request = lobby_pb2.DevSignInRequest(
        name=name, display_name=display_name, client_secret=secret or f"test-client-secret-{name.lower()}"
    )
    signed: lobby_pb2.DevSignInResponse = await lobby.identity.DevSignIn(request)
    return signed


async def test_a_plain_backslash_u0000_in_a_name_and_in_chat_is_text(lobby: Lobby) -> None:
    """30.2: the guard once took the text `\\u0000` for a NUL: INTERNAL on create, join and chat."""
    eve = _bearer((await _sign_in(lobby, "eve30", "Eve" + PLAIN_ESCAPE)).token)
    me = await lobby.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=eve)
    assert me.name == "Eve" + PLAIN_ESCAPE
    made = await lobby.stub.CreateTable(race_table(), metadata=eve)
    name = made.table.name
    ann = _bearer((await _sign_in(lobby, "ann30", PLAIN_ESCAPE + "Ann")).token)
    joined = await lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=ann)
    assert [s.name for s in joined.table.seats if s.user_id] == ["Eve" + PLAIN_ESCAPE, PLAIN_ESCAPE + "Ann"]
    sent = await lobby.stub.SendChatMessage(
        lobby_pb2.SendChatMessageRequest(table=name, text="say " + PLAIN_ESCAPE + " \\\\u0000", request_id=rid()),
        metadata=ann,
    )
    assert sent.message.text == "say " + PLAIN_ESCAPE + " \\\\u0000"
    # a real NUL stays refused
    await refused(
        lobby.stub.SendChatMessage(
            lobby_pb2.SendChatMessageRequest(table=name, text="a\x00b", request_id=rid()), metadata=ann
        ),
        Code.INVALID_ARGUMENT,
        "INVALID_TEXT",
    )


async def test_numbers_beyond_64_bits_in_options_are_refused(lobby: Lobby) -> None:
    """30.3: a 5,000-digit number in options_json answered INTERNAL (past Python's int limit)."""
    host = _bearer((await _sign_in(lobby, "numbers30")).token)
    for options in (
        '{"target": ' + "9" * 5000 + "}",
        '{"target": 30, "x": -' + "1" * 400 + "}",
        '{"target": 30, "x": 9223372036854775808}',
        '{"target": 30, "x": 1e999}',
        '{"target": 30, "x": NaN}',
        '{"target": 30, "x": [Infinity]}',
    ):
        await refused(
            lobby.stub.CreateTable(race_table(options=options), metadata=host),
            Code.INVALID_ARGUMENT,
            "INVALID_OPTIONS_JSON",
        )
    start = lobby_pb2.CreateTableRequest(game="testgame", options_json='{"target": 30}', seat_count=2, request_id=rid())
    made = await lobby.stub.CreateTable(start, metadata=host)
    before = await lobby.store.stream_version(table_stream(made.table.name[7:]))
    await refused(
        lobby.stub.UpdateOptions(
            lobby_pb2.UpdateOptionsRequest(
                table=made.table.name, options_json='{"target": ' + "7" * 5000 + "}", request_id=rid()
            ),
            metadata=host,
        ),
        Code.INVALID_ARGUMENT,
        "INVALID_OPTIONS_JSON",
    )
    assert await lobby.store.stream_version(table_stream(made.table.name[7:])) == before


async def test_invisible_characters_in_names_and_chat_are_refused(lobby: Lobby) -> None:
    """30.5: "Eve" plus a zero-width space showed as "Eve"; bidirectional controls reorder text."""
    for shown in ("Eve\u200b", "Eve\u202e", "\u2066Eve\u2069", "E\u00adve", "\u3164", "Eve\ufeff"):
        await refused(
            lobby.identity.DevSignIn(
                lobby_pb2.DevSignInRequest(name="eve30b", display_name=shown, client_secret="test-client-secret-eve")
            ),
            Code.INVALID_ARGUMENT,
            "INVALID_NAME",
        )
    wide = await _sign_in(lobby, "eve30b", "\uff25\uff56\uff45")  # fullwidth "Eve": NFKC folds it
    me = await lobby.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=_bearer(wide.token))
    assert me.name == "Eve"
    made = await lobby.stub.CreateTable(race_table(), metadata=_bearer(wide.token))
    for text in ("abc\u202edcba", "a\u200bb", "\u2067x"):
        await refused(
            lobby.stub.SendChatMessage(
                lobby_pb2.SendChatMessageRequest(table=made.table.name, text=text, request_id=rid()),
                metadata=_bearer(wide.token),
            ),
            Code.INVALID_ARGUMENT,
            "INVALID_TEXT",
        )
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    sent = await lobby.stub.SendChatMessage(
        lobby_pb2.SendChatMessageRequest(table=made.table.name, text=family, request_id=rid()),
        metadata=_bearer(wide.token),
    )
    assert sent.message.text == family  # joiners are text: emoji sequences, Persian


async def test_a_token_name_with_invisible_characters_is_shown_without_them(lobby: Lobby) -> None:
    from support.matchkit import SECRET

    from tablehall_platform.auth import DevProvider

    token = DevProvider(SECRET).issue("oidc-like", "Eve\u200b\u202e")
    me = await lobby.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=_bearer(token))
    assert me.name == "Eve"


async def test_look_alike_login_names_are_one_user(lobby: Lobby) -> None:
    """30.5: `P4HOST` beside `p4host` were two users; now any case of a name is its first claim."""
    first = await _sign_in(lobby, "p4host", secret="the-p4host-client-secret")
    assert first.user_id == "p4host"
    again = await _sign_in(lobby, "P4HOST", secret="the-p4host-client-secret")
    assert again.user_id == "p4host"
    me = await lobby.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=_bearer(again.token))
    assert me.user_id == "p4host"
    for spelling in ("P4HOST", "P4host", "\uff30\uff14\uff28\uff2f\uff33\uff34"):  # the last: fullwidth
        await refused(
            lobby.identity.DevSignIn(
                lobby_pb2.DevSignInRequest(name=spelling, client_secret="mallorys-own-client-secret")
            ),
            Code.PERMISSION_DENIED,
            "NAME_CLAIMED",
        )


async def test_removing_a_spectator_needs_a_user_id(lobby: Lobby) -> None:
    """30.6: RemoveSpectator with an empty user id was accepted and wrote an event."""
    host = _bearer((await _sign_in(lobby, "host30")).token)
    made = await lobby.stub.CreateTable(race_table(), metadata=host)
    stream = table_stream(made.table.name[7:])
    before = await lobby.store.stream_version(stream)
    await refused(
        lobby.stub.RemoveSpectator(
            lobby_pb2.RemoveSpectatorRequest(table=made.table.name, user_id="", request_id=rid()), metadata=host
        ),
        Code.INVALID_ARGUMENT,
        "INVALID_USER_ID",
    )
    assert await lobby.store.stream_version(stream) == before


async def test_development_sign_ins_are_throttled_per_name_and_per_peer(lobby: Lobby) -> None:
    """30.6: nothing bounded how fast a client could sign in (or guess a name's secret)."""
    for _ in range(10):
        await _sign_in(lobby, "busy30")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _sign_in(lobby, "BUSY30")  # any case of the name counts
    info = error_info(caught.value)
    assert caught.value.code() == Code.RESOURCE_EXHAUSTED and info is not None
    assert info.reason == "SIGN_IN_THROTTLED" and 1 <= int(info.metadata["retry_after_seconds"]) <= 60
    assert "sign-ins" in (caught.value.details() or "")
    # a guessed secret costs a try as well
    await refused(
        lobby.identity.DevSignIn(lobby_pb2.DevSignInRequest(name="busy30", client_secret="a-guessed-client-secret")),
        Code.RESOURCE_EXHAUSTED,
        "SIGN_IN_THROTTLED",
    )
    # one peer: 60 sign-ins a minute whatever the names (12 so far)
    for n in range(60 - 12):
        await _sign_in(lobby, f"peer30-{n}")
    await refused(_sign_in(lobby, "peer30-last"), Code.RESOURCE_EXHAUSTED, "SIGN_IN_THROTTLED")
