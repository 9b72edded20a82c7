"""WatchTable: the viewer's redacted view, then every change; resumable by version."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import grpc
import pytest
from support.matchkit import Tokens
from support.projectionkit import Stack, finish, new_race, play

from tablehall.match.v1 import match_pb2
from tablehall.projection.v1 import projection_pb2 as pb
from tablehall_platform.errors import error_info


async def collect(call: Any, until_version: int, wait: float = 10.0, keep: bool = False) -> list[pb.WatchTableResponse]:
    """Messages of a watch call up to (and including) `until_version`, then cancel the call
    (`keep`: leave it open, to be collected from again)."""
    out: list[pb.WatchTableResponse] = []

    async def read() -> None:
        while (message := await call.read()) is not grpc.aio.EOF:
            out.append(message)
            if message.version >= until_version:
                return

    try:
        await asyncio.wait_for(read(), wait)
    finally:
        if not keep:
            call.cancel()
    return out


def watch(stack: Stack, tokens: Tokens, table: str, user: str, **request: Any) -> Any:
    roles = ("operator",) if user == "op" else ("player",)
    return stack.proj.WatchTable(pb.WatchTableRequest(table=table, **request), metadata=tokens(user, roles))


async def head(stack: Stack, table: str) -> int:
    return int(await stack.store.stream_version("table-" + table.split("/")[1]))


async def test_each_viewer_gets_a_snapshot_then_every_version_redacted_by_the_game(
    stack: Stack, tokens: Tokens
) -> None:
    table = await new_race(stack, tokens)
    start = await head(stack, table)
    alice = watch(stack, tokens, table, "alice")
    bob = watch(stack, tokens, table, "bob")
    carol = watch(stack, tokens, table, "carol")
    first = await collect(alice, start)
    assert first[0].kind == pb.UPDATE_KIND_SNAPSHOT and first[0].version == start
    assert first[0].role == match_pb2.VIEWER_ROLE_SEAT and first[0].seat == 0
    # bob and carol have their snapshots before the play: a busy server may take a call after
    # some moves, and its snapshot is then of a later version
    snapshots = {"bob": await collect(bob, start, keep=True), "carol": await collect(carol, start, keep=True)}
    final = await finish(stack, tokens, table)
    alice = watch(stack, tokens, table, "alice", from_version=start)
    got = {
        name: [*snapshots.get(name, []), *await collect(call, final)]
        for name, call in (("alice", alice), ("bob", bob), ("carol", carol))
    }
    versions = [m.version for m in got["alice"]]
    assert versions == list(range(start + 1, final + 1))  # every change once, in order
    assert [m.version for m in got["bob"]] == [start, *versions]
    for name, messages in got.items():
        for message in messages:
            view = json.loads(message.view_json)
            secrets = view["secrets"]
            if view["places"] is not None:
                assert None not in secrets  # the race reveals everything at the end
                continue
            seat = {"alice": 0, "bob": 1}.get(name)
            for i, value in enumerate(secrets):
                assert (value is not None) == (i == seat), (name, message.version, secrets)
            for line in message.journal:
                params = json.loads(line.params_json)
                if line.code == "testgame.secret_dealt":
                    assert params["seat"] == seat
    assert got["carol"][0].role == match_pb2.VIEWER_ROLE_SPECTATOR and got["carol"][0].seat == -1
    assert got["carol"][-1].finished and json.loads(got["carol"][-1].outcome_json)["places"]
    rolled = [line for m in got["bob"] for line in m.journal if line.code == "testgame.rolled"]
    assert rolled and "rolls" in rolled[0].en and "выбрасывает" in rolled[0].ru


async def test_resume_from_a_version_gets_exactly_the_missing_changes(stack: Stack, tokens: Tokens) -> None:
    table = await new_race(stack, tokens, options='{"target": 60}')
    await play(stack, tokens, table, 6)
    mid = await head(stack, table)
    steady = watch(stack, tokens, table, "bob", from_version=2)
    before = await collect(watch(stack, tokens, table, "bob"), mid)
    await play(stack, tokens, table, 8)
    end = await head(stack, table)
    resumed = await collect(watch(stack, tokens, table, "bob", from_version=before[-1].version), end)
    reference = await collect(steady, end)
    assert [m.version for m in resumed] == list(range(mid + 1, end + 1))
    assert all(m.kind == pb.UPDATE_KIND_CHANGE for m in resumed)
    by_version = {m.version: m for m in reference}
    for m in resumed:
        assert m.view_json == by_version[m.version].view_json
        assert list(m.journal) == list(by_version[m.version].journal)


async def test_spectators_trail_by_the_delay_until_the_end(stack: Stack, tokens: Tokens) -> None:
    table = await new_race(stack, tokens, options='{"target": 25, "spectator_delay": 3}')
    await play(stack, tokens, table, 6)
    now = await head(stack, table)
    carol = await collect(watch(stack, tokens, table, "carol"), now - 3, wait=5)
    assert carol[0].kind == pb.UPDATE_KIND_SNAPSHOT and carol[-1].version == now - 3
    late = watch(stack, tokens, table, "carol", from_version=now - 3)
    with pytest.raises(TimeoutError):
        await collect(late, now - 2, wait=0.5)
    alice = await collect(watch(stack, tokens, table, "alice"), now)
    assert alice[0].version == now  # players are not delayed
    final = await finish(stack, tokens, table)
    ended = await collect(watch(stack, tokens, table, "carol", from_version=now - 3), final)
    assert ended[-1].version == final and ended[-1].finished


async def _refused(call: Any, code: grpc.StatusCode, reason: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        messages = [message async for message in call]
        raise AssertionError(f"the call ended without an error after {len(messages)} messages")
    assert caught.value.code() == code, caught.value.details()
    info = error_info(caught.value)
    assert info is not None and info.reason == reason


async def test_roles_follow_the_match_rules(stack: Stack, tokens: Tokens) -> None:
    table = await new_race(stack, tokens)
    await _refused(
        watch(stack, tokens, table, "op", role=match_pb2.VIEWER_ROLE_AUDITOR),
        grpc.StatusCode.FAILED_PRECONDITION,
        "MATCH_NOT_FINISHED",
    )
    await _refused(
        watch(stack, tokens, table, "carol", role=match_pb2.VIEWER_ROLE_SEAT),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_A_MEMBER",
    )
    final = await finish(stack, tokens, table)
    await _refused(
        watch(stack, tokens, table, "alice", role=match_pb2.VIEWER_ROLE_AUDITOR),
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_ALLOWED",
    )
    audit = await collect(watch(stack, tokens, table, "op", role=match_pb2.VIEWER_ROLE_AUDITOR, from_version=1), final)
    assert audit[0].role == match_pb2.VIEWER_ROLE_AUDITOR and None not in json.loads(audit[0].view_json)["secrets"]
    assert len([line for m in audit for line in m.journal if line.code == "testgame.secret_dealt"]) == 2
    await _refused(
        watch(stack, tokens, table, "alice", from_version=final + 1),
        grpc.StatusCode.INVALID_ARGUMENT,
        "FROM_VERSION_AHEAD",
    )
    await _refused(watch(stack, tokens, "tables/nope-404", "alice"), grpc.StatusCode.NOT_FOUND, "TABLE_NOT_FOUND")
    await _refused(
        watch(stack, tokens, "tables/Bad Name", "alice"), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_TABLE_NAME"
    )
    no_token = stack.proj.WatchTable(pb.WatchTableRequest(table=table))
    await _refused(no_token, grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")


async def test_a_private_table_is_watched_only_by_those_the_lobby_let_in(stack: Stack, tokens: Tokens) -> None:
    import msgspec

    from tablehall_eventstore import NewEvent

    table_id = f"p-{__import__('uuid').uuid4().hex[:10]}"
    table = f"tables/{table_id}"

    def lobby_event(kind: str, **payload: Any) -> NewEvent:
        return NewEvent(f"lobby.{kind}", 1, msgspec.json.encode(payload), {})

    # what the lobby writes for a private table, before the match starts in the same stream
    await stack.store.append(
        f"table-{table_id}",
        0,
        [lobby_event("TableCreated", private=True, spectators_allowed=True, at_ms=1)],
    )
    await stack.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="testgame",
            options_json='{"target": 30}',
            seats=[match_pb2.Seat(seat=0, user_id="ann"), match_pb2.Seat(seat=1, user_id="ben")],
            request_id="start",
        ),
        metadata=tokens("lobby", ("service",)),
    )
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await collect(watch(stack, tokens, table, "eve"), 1)
    info = error_info(caught.value)
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED and info and info.reason == "TABLE_PRIVATE"
    version = await head(stack, table)
    await stack.store.append(
        f"table-{table_id}",
        version,
        [lobby_event("SpectatorEntered", user_id="eve", name="Eve", with_pin=True, at_ms=2)],
    )
    seen = await collect(watch(stack, tokens, table, "eve"), version + 1)
    assert seen and seen[0].seat == -1 and json.loads(seen[0].view_json)["secrets"] == [None, None]


async def test_a_watch_of_whole_commands_gets_a_change_per_command(stack: Stack, tokens: Tokens) -> None:
    table = await new_race(stack, tokens, options='{"target": 40}')
    start = await head(stack, table)
    every = watch(stack, tokens, table, "bob", from_version=start)
    whole = watch(stack, tokens, table, "bob", from_version=start, grain=pb.UPDATE_GRAIN_COMMAND)
    final = await finish(stack, tokens, table)
    by_version, by_command = await collect(every, final), await collect(whole, final)
    stored = await stack.store.read_stream("table-" + table.split("/")[1], start + 1)
    closing = [e.version for e in stored if "pending" in e.metadata or "command_id" not in e.metadata]
    assert [m.version for m in by_command] == closing and len(closing) < len(by_version)
    assert [m.version for m in by_version] == list(range(start + 1, final + 1))
    views = {m.version: m.view_json for m in by_version}
    assert all(m.view_json == views[m.version] for m in by_command)
    assert [line for m in by_command for line in m.journal] == [line for m in by_version for line in m.journal]
