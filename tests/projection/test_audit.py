"""verify / replay / export: real games verify; edits, deletions, reordering and forged dice are caught."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import asyncpg
import grpc
import msgspec
import pytest
from support.auditkit import rechain
from support.matchkit import Tokens
from support.projectionkit import Stack, finish, new_race, play, start_stack, stop_stack

from tablehall.match.v1 import match_pb2
from tablehall.projection.v1 import projection_pb2 as pb
from tablehall_audit.chain import event_hash
from tablehall_audit.events import AuditEvent, load_stream
from tablehall_audit.export import read_export
from tablehall_audit.verify import verify_stream
from tablehall_cli.main import main
from tablehall_eventstore import EventStore

OP = ("operator",)


def sid(table: str) -> str:
    return "table-" + table.split("/")[1]


async def verify(stack: Stack, tokens: Tokens, table: str, user: str = "op") -> pb.VerifyTableResponse:
    roles = OP if user == "op" else ("player",)
    reply: pb.VerifyTableResponse = await stack.proj.VerifyTable(
        pb.VerifyTableRequest(table=table), metadata=tokens(user, roles)
    )
    return reply


async def _head_version(stack: Stack, table: str) -> int:
    conn = await asyncpg.connect(stack.database_url)
    try:
        version: int = await conn.fetchval(
            "SELECT version FROM streams WHERE stream_id = $1", "table-" + table.removeprefix("tables/")
        )
        return version
    finally:
        await conn.close()


async def test_real_games_verify_over_grpc_the_cli_and_an_export_file(
    stack: Stack, tokens: Tokens, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = [await new_race(stack, tokens, players=n) for n in (1, 2, 3, 4)]
    for table in tables[:3]:
        await finish(stack, tokens, table, timeouts=True)
    await play(stack, tokens, tables[3], 7, timeouts=True)
    await stack.stub.ControlTable(  # the table closes the race: a system command (no seat)
        match_pb2.ControlTableRequest(
            table=tables[3], request_id="close", close=match_pb2.CloseTable(reason=match_pb2.CLOSE_REASON_OPERATOR)
        ),
        metadata=tokens("op", OP),
    )
    for table in tables:
        reply = await verify(stack, tokens, table)
        assert reply.verified and reply.message == "verified", reply.message
        assert reply.commands_checked > 3 and reply.draws_checked > 3
        # a verified table says up to which version: its stream's head
        assert reply.version == await _head_version(stack, table) == reply.events_checked
    assert (await verify(stack, tokens, tables[1], "alice")).verified  # players verify their own tables
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await verify(stack, tokens, tables[1], "dave")
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    running = await new_race(stack, tokens)
    unfinished = await verify(stack, tokens, running)
    assert not unfinished.verified and "not ended" in unfinished.message
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stack.proj.ExportTable(pb.ExportTableRequest(table=running), metadata=tokens("op", OP))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stack.proj.ExportTable(pb.ExportTableRequest(table=tables[1]), metadata=tokens("alice"))
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED

    # the command line, against the database (its logging set-up would capture pytest's stream)
    monkeypatch.setattr("tablehall_cli.main.configure_logging", lambda *args, **kwargs: None)
    monkeypatch.setenv("TABLEHALL_DATABASE_URL", stack.database_url)
    assert await asyncio.to_thread(main, ["verify", tables[2]]) == 0
    assert "verified" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["replay", tables[2]]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert [x["version"] for x in lines] == list(range(1, len(lines) + 1))
    assert lines[-1]["type"] == "match.Ended" and lines[-1]["state"]["places"]
    assert await asyncio.to_thread(main, ["replay", tables[2], "--seat", "1", "--version", "3"]) == 0
    (printed,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    seat_view = json.loads(printed)["view"]
    assert seat_view["secrets"][1] is not None and seat_view["secrets"][0] is None
    out = tmp_path / "race.json"
    assert await asyncio.to_thread(main, ["export", tables[2], "--out", str(out)]) == 0

    # the auditor pins the server's published key once
    assert await asyncio.to_thread(main, ["signing-key"]) == 0
    (tmp_path / "server.pub").write_text(capsys.readouterr().out)
    monkeypatch.setenv("TABLEHALL_TRUSTED_KEY_FILE", str(tmp_path / "auditor" / "trusted.pem"))
    assert await asyncio.to_thread(main, ["trust-key", "--key", str(tmp_path / "server.pub")]) == 0

    # the export file, with no database at all
    monkeypatch.setenv("TABLEHALL_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    assert await asyncio.to_thread(main, ["verify", "--file", str(out)]) == 0
    assert "verified" in capsys.readouterr().out
    rpc_export = await stack.proj.ExportTable(pb.ExportTableRequest(table=tables[0]), metadata=tokens("op", OP))
    assert verify_stream(read_export(rpc_export.content)).ok
    document = json.loads(out.read_text())
    assert document["rules_version"] == "1" and len(document["seed_hex"]) == 64
    rolled = next(e for e in document["events"] if e["type"] == "testgame.Rolled")
    rolled["payload"] = rolled["payload"].replace('"value":', '"value":1', 1)
    out.write_text(json.dumps(document))
    assert await asyncio.to_thread(main, ["verify", "--file", str(out)]) == 1
    assert f"version {rolled['version']}" in capsys.readouterr().out


async def _rehash(store: EventStore, stream: str) -> None:
    """Recompute the whole hash chain and head of a stream, as a careful forger would."""
    rows = await store.pool.fetch(
        "SELECT version, type, payload::text, hash_scheme, metadata::text FROM events WHERE stream_id = $1"
        " ORDER BY version",
        stream,
    )
    prev = None
    for version, event_type, payload, scheme, metadata in rows:
        digest = event_hash(prev, event_type, payload.encode(), scheme, metadata)
        await store.pool.execute(
            "UPDATE events SET prev_hash = $3, hash = $4 WHERE stream_id = $1 AND version = $2",
            stream,
            version,
            prev,
            digest,
        )
        prev = digest
    await store.pool.execute(
        "UPDATE streams SET last_hash = $2, version = $3 WHERE stream_id = $1", stream, prev, len(rows)
    )


async def _rolled(store: EventStore, stream: str) -> tuple[int, dict[str, object], dict[str, object]]:
    row = await store.pool.fetchrow(
        "SELECT version, payload::text, metadata::text FROM events WHERE stream_id = $1 AND type = 'testgame.Rolled'"
        " ORDER BY version LIMIT 1",
        stream,
    )
    assert row is not None
    return row[0], json.loads(row[1]), json.loads(row[2])


async def test_verify_catches_edits_deletions_reordering_and_forged_dice(empty_db: str, tokens: Tokens) -> None:
    stack = await start_stack(empty_db)
    try:
        tables = [await new_race(stack, tokens, players=2) for _ in range(5)]
        for table in tables:
            await finish(stack, tokens, table)
        for table in tables:
            assert (await verify(stack, tokens, table)).verified
        store = stack.store
        edited, deleted, reordered, forged, forged_rehashed = (sid(t) for t in tables)

        # an edited amount: a die's value changed in place
        version, payload, _ = await _rolled(store, edited)
        payload["value"] = 7 - int(payload["value"])  # type: ignore[call-overload]
        await store.pool.execute(
            "UPDATE events SET payload = $3::json WHERE stream_id = $1 AND version = $2",
            edited,
            version,
            json.dumps(payload),
        )
        reply = await verify(stack, tokens, tables[0])
        assert not reply.verified and reply.version == version and "edited" in reply.message

        # a deleted event
        await store.pool.execute("DELETE FROM events WHERE stream_id = $1 AND version = 5", deleted)
        reply = await verify(stack, tokens, tables[1])
        assert not reply.verified and reply.version == 6 and "missing" in reply.message

        # a reordered event: versions 4 and 5 swapped
        await store.pool.execute("UPDATE events SET version = 100000 WHERE stream_id = $1 AND version = 4", reordered)
        await store.pool.execute("UPDATE events SET version = 4 WHERE stream_id = $1 AND version = 5", reordered)
        await store.pool.execute("UPDATE events SET version = 5 WHERE stream_id = $1 AND version = 100000", reordered)
        reply = await verify(stack, tokens, tables[2])
        assert not reply.verified and reply.version == 4

        # a forged die roll: payload and recorded draw agree, and the whole chain is recomputed
        for stream, table in ((forged, tables[3]), (forged_rehashed, tables[4])):
            version, payload, metadata = await _rolled(store, stream)
            better = 6 if payload["value"] != 6 else 5
            payload["value"] = better
            metadata["draws"][0]["value"] = better  # type: ignore[index]
            await store.pool.execute(
                "UPDATE events SET payload = $3::json, metadata = $4::jsonb WHERE stream_id = $1 AND version = $2",
                stream,
                version,
                json.dumps(payload),
                json.dumps(metadata),
            )
            if stream == forged_rehashed:
                await _rehash(store, stream)
            reply = await verify(stack, tokens, table)
            assert not reply.verified and reply.version == version, reply.message
        assert "rules produce" in reply.message  # with the chain intact, the rules catch the forged die
    finally:
        await stop_stack(stack)


async def test_forgeries_that_keep_the_hash_chain_are_caught_by_the_rules(stack: Stack, tokens: Tokens) -> None:
    table = await new_race(stack, tokens)
    await finish(stack, tokens, table)
    copy = await load_stream(stack.store, table.split("/")[1])
    assert verify_stream(copy).ok and verify_stream(rechain(copy, list(copy.events))).ok
    events = list(copy.events)
    i = next(i for i, e in enumerate(events) if e.type == "testgame.Rolled")
    rolled = events[i]

    # a forged die, payload and recorded draw in agreement
    payload = msgspec.json.decode(rolled.payload)
    payload["value"] = 6 if payload["value"] != 6 else 5
    draws = [{**rolled.metadata["draws"][0], "value": payload["value"]}]
    forged = AuditEvent(
        rolled.version, rolled.type, 1, msgspec.json.encode(payload), {**rolled.metadata, "draws": draws}, None, None
    )
    verdict = verify_stream(rechain(copy, [*events[:i], forged, *events[i + 1 :]]))
    assert not verdict.ok and verdict.version == rolled.version and "rules produce" in verdict.message

    # a whole command deleted, the rest renumbered: the next command's draws no longer follow
    verdict = verify_stream(rechain(copy, [*events[:i], *events[i + 1 :]]))
    assert not verdict.ok and verdict.version == rolled.version, verdict.message

    # two commands' events swapped and renumbered
    j = next(j for j in range(i + 1, len(events)) if events[j].type == "testgame.Rolled")
    swapped = list(events)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    verdict = verify_stream(rechain(copy, swapped))
    assert not verdict.ok and verdict.version == rolled.version, verdict.message
