"""Issue 30: inputs that still answered INTERNAL or were taken as they came. Plain text that
looks like an escape is accepted; real NULs, huge numbers, invisible characters are refused
with a reason; look-alike names are one user; nothing is written for a refused request."""

from __future__ import annotations

import grpc
from support.lobbykit import Lobby, race_table, refused, rid

from tablehall.lobby.v1 import lobby_pb2
from tablehall_lobby.events import table_stream

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
