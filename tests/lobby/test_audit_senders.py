"""The audit proves who acted: metadata under the hash chain, each lobby event
allowed from its recorded sender, match.Started seating the lobby's roster, a
seat's command from its player, and export files signed with the server's key."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
from support.auditkit import rechain
from support.lobbykit import Lobby, start_lobby, stop_lobby
from support.matchkit import Tokens, race_command

from tablehall.lobby.v1 import lobby_pb2
from tablehall.match.v1 import match_pb2
from tablehall_audit.events import AuditEvent, StreamCopy, load_stream
from tablehall_audit.export import check_signature, export_stream, read_export_file
from tablehall_audit.signing import Signer
from tablehall_audit.verify import verify_stream
from tablehall_cli.main import main
from tablehall_eventstore import migrate
from tablehall_lobby import service as lobby_service
from tablehall_match import service as match_service


@pytest.fixture
async def lobby(database_url: str) -> AsyncIterator[Lobby]:
    await migrate(database_url, extra=[match_service.MIGRATIONS, lobby_service.MIGRATIONS])
    running = await start_lobby(database_url)
    yield running
    await stop_lobby(running)


def rid() -> str:
    return uuid.uuid4().hex[:10]


async def _finished_table(lobby: Lobby, tokens: Tokens) -> str:
    stub = lobby.stub
    made = await stub.CreateTable(
        lobby_pb2.CreateTableRequest(game="testgame", options_json='{"target": 10}', seat_count=2, request_id=rid()),
        metadata=tokens("hana"),
    )
    table = made.table.name
    await stub.JoinTable(lobby_pb2.JoinTableRequest(table=table, request_id=rid()), metadata=tokens("gus"))
    await stub.StartTable(lobby_pb2.StartTableRequest(table=table, request_id=rid()), metadata=tokens("hana"))
    for i in range(400):
        view = await lobby.match_stub.GetTableView(
            match_pb2.GetTableViewRequest(table=table), metadata=tokens("op", ("operator",))
        )
        if view.view.finished:
            return str(table)
        seat = view.view.decisions[0].seat
        await lobby.match_stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(table=table, seat=seat, command=race_command("roll"), request_id=f"r{i}"),
            metadata=tokens(("hana", "gus")[seat]),
        )
    raise AssertionError("the race did not end")


def _with(event: AuditEvent, *, payload: dict[str, object] | None = None, **meta: object) -> AuditEvent:
    """The event edited in place (its metadata text as the database would hold it), chain untouched."""
    new_payload = msgspec.json.encode(payload) if payload is not None else event.payload
    metadata = {**event.metadata, **meta}
    return dataclasses.replace(
        event, payload=new_payload, metadata=metadata, metadata_text=msgspec.json.encode(metadata).decode()
    )


def _gus_removed_by(sender: str) -> AuditEvent:
    """A forged lobby.PlayerRemoved of seat 1 (gus), sent by `sender`, to insert into a stream."""
    payload = {"seat": 1, "user_id": "gus", "by": sender, "by_operator": False, "was_present": False, "at_ms": 1}
    meta = {"command_id": f"lobby:x:{sender}:1", "actor": sender}
    return AuditEvent(0, "lobby.PlayerRemoved", 1, msgspec.json.encode(payload), meta, None, None)


def _payload(event: AuditEvent) -> dict[str, object]:
    data: dict[str, object] = msgspec.json.decode(event.payload)
    return data


async def test_who_acted_is_proven(lobby: Lobby, tokens: Tokens) -> None:
    table = await _finished_table(lobby, tokens)
    copy = await load_stream(lobby.store, table.split("/")[1])
    assert verify_stream(copy).message == "verified"
    assert all(e.hash_scheme == 2 for e in copy.events)
    assert verify_stream(rechain(copy, list(copy.events))).ok  # the forger's tool itself is faithful
    events = list(copy.events)

    # a changed actor in the metadata: the chain breaks at the first edited event
    human = [i for i, e in enumerate(events) if e.metadata.get("actor") in ("hana", "gus") and "command" in e.metadata]
    renamed = list(events)
    for i in human:
        renamed[i] = _with(events[i], actor="mallory")
    verdict = verify_stream(StreamCopy(copy.table_id, renamed, copy.head_version, copy.head_hash))
    assert not verdict.ok and verdict.version == events[human[0]].version and "metadata" in verdict.message
    # ... and with the chain rebuilt, the seats' players did not send those commands
    verdict = verify_stream(rechain(copy, renamed))
    assert not verdict.ok and verdict.version == events[human[0]].version and "mallory" in verdict.message

    # seat user ids changed in match.Started, chain rebuilt
    s = next(i for i, e in enumerate(events) if e.type == "match.Started")
    started = _payload(events[s])
    started["seats"][1]["user_id"] = "mallory"  # type: ignore[index]
    verdict = verify_stream(rechain(copy, [*events[:s], _with(events[s], payload=started), *events[s + 1 :]]))
    assert not verdict.ok and verdict.version == events[s].version and "roster" in verdict.message

    # ... and in lobby.SeatTaken, chain rebuilt
    t = next(i for i, e in enumerate(events) if e.type == "lobby.SeatTaken")
    taken = {**_payload(events[t]), "user_id": "mallory"}
    verdict = verify_stream(rechain(copy, [*events[:t], _with(events[t], payload=taken), *events[t + 1 :]]))
    assert not verdict.ok and verdict.version == events[t].version and "SeatTaken" in verdict.message

    # an inserted fake lobby.PlayerRemoved, from someone who is not the host
    fake = _gus_removed_by("mallory")
    verdict = verify_stream(rechain(copy, [*events[: s + 3], fake, *events[s + 3 :]]))
    assert not verdict.ok and verdict.version == s + 4 and "PlayerRemoved" in verdict.message
    # ... or one that claims no sender at all
    anonymous = dataclasses.replace(fake, metadata={"command_id": "lobby:x:hana:1"})
    verdict = verify_stream(rechain(copy, [*events[: s + 3], anonymous, *events[s + 3 :]]))
    assert not verdict.ok and verdict.version == s + 4 and "no sender" in verdict.message


async def _exported(
    lobby: Lobby, tokens: Tokens, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, StreamCopy, Signer, Path]:
    """A finished table exported to `good.json` with the server's key (public half in
    `server.pub`), for the command line with no database at all."""
    table = await _finished_table(lobby, tokens)
    copy = await load_stream(lobby.store, table.split("/")[1])
    server = Signer.load(tmp_path / "server.pem")
    (tmp_path / "server.pub").write_text(server.public_pem)
    monkeypatch.setattr("tablehall_cli.main.configure_logging", lambda *args, **kwargs: None)
    monkeypatch.setenv("TABLEHALL_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    good = tmp_path / "good.json"
    good.write_bytes(export_stream(copy, server))
    return table, copy, server, good


async def test_exports_are_signed_and_a_re_chained_file_is_refused(
    lobby: Lobby, tokens: Tokens, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, server, good = await _exported(lobby, tokens, tmp_path, monkeypatch)
    key = ["--key", str(tmp_path / "server.pub")]
    assert await asyncio.to_thread(main, ["verify", "--file", str(good), *key]) == 0
    assert f"signed by key {server.key_id}" in capsys.readouterr().out

    # a forger renames the actors, rebuilds the chain and keeps the server's signature
    document = json.loads(good.read_text())
    for e in document["events"]:
        meta = json.loads(e["metadata_text"])
        if meta.get("actor") == "gus":
            meta["actor"] = "hana"
            e["metadata_text"] = json.dumps(meta)
    forged = read_export_file(json.dumps(document).encode())
    rebuilt = rechain(forged.copy, list(forged.copy.events))
    for exported, event in zip(document["events"], rebuilt.events, strict=True):
        exported.update(metadata_text=event.metadata_text, prev_hash=event.prev_hash, hash=event.hash)
    document["head_hash"] = rebuilt.head_hash
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    assert await asyncio.to_thread(main, ["verify", "--file", str(bad), *key]) == 1
    assert "does not match the file" in capsys.readouterr().out
    # ... or signs it again with a key of their own
    resigned = tmp_path / "resigned.json"
    resigned.write_bytes(export_stream(read_export_file(bad.read_bytes()).copy, Signer.load(tmp_path / "mine.pem")))
    assert await asyncio.to_thread(main, ["verify", "--file", str(resigned), *key]) == 1
    assert "not by the trusted key" in capsys.readouterr().out
    holds, _ = check_signature(read_export_file(resigned.read_bytes()).document)
    assert holds  # the signature is sound: only the trusted key tells the forgery


async def test_an_actor_edited_in_the_database_fails_verify_table(
    lobby: Lobby, tokens: Tokens, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    table = await _finished_table(lobby, tokens)
    stream = "table-" + table.split("/")[1]
    version = await lobby.store.pool.fetchval(
        "SELECT min(version) FROM events WHERE stream_id = $1 AND metadata->>'actor' = 'gus' AND metadata ? 'command'",
        stream,
    )
    await lobby.store.pool.execute(
        "UPDATE events SET metadata = jsonb_set(metadata, '{actor}', '\"mallory\"')"
        " WHERE stream_id = $1 AND version = $2",
        stream,
        version,
    )
    monkeypatch.setattr("tablehall_cli.main.configure_logging", lambda *args, **kwargs: None)
    url = await lobby.store.pool.fetchval("SELECT current_database()")
    monkeypatch.setenv("TABLEHALL_DATABASE_URL", f"postgresql://postgres@127.0.0.1:5432/{url}")
    assert await asyncio.to_thread(main, ["verify", table]) == 1
    out = capsys.readouterr().out
    assert f"version {version}:" in out and "metadata" in out


async def test_without_key_only_the_pinned_key_is_trusted(
    lobby: Lobby, tokens: Tokens, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """issue 30.1: a file re-signed by another key never reads "verified", --key or not."""
    table, copy, server, good = await _exported(lobby, tokens, tmp_path, monkeypatch)
    monkeypatch.setenv("TABLEHALL_TRUSTED_KEY_FILE", str(tmp_path / "auditor" / "trusted.pem"))

    # a forger inserts a "host removed player" event sent by the host, re-chains and re-signs
    events = list(copy.events)
    s = next(i for i, e in enumerate(events) if e.type == "match.Started")
    removal = _gus_removed_by("hana")
    mallory = Signer.load(tmp_path / "mallory.pem")
    inserted = tmp_path / "inserted.json"
    inserted.write_bytes(export_stream(rechain(copy, [*events[: s + 3], removal, *events[s + 3 :]]), mallory))
    # ... or swaps a player's identity in the whole file, re-chained and re-signed
    swapped = tmp_path / "swapped.json"
    renamed = [_with(e, actor="mallory") if e.metadata.get("actor") == "gus" else e for e in events]
    swapped.write_bytes(export_stream(rechain(copy, renamed), mallory))
    # ... or only re-signs the honest content with his own key
    resigned = tmp_path / "resigned.json"
    resigned.write_bytes(export_stream(copy, mallory))

    async def verify(path: Path) -> tuple[int, list[str]]:
        capsys.readouterr()  # the servers' logs so far
        code = await asyncio.to_thread(main, ["verify", "--file", str(path)])
        out = capsys.readouterr()
        said = [x for x in (out.out + out.err).splitlines() if x.startswith((str(path), table))]
        return code, said  # the verifier's lines

    # nothing pinned yet: no file is trusted, not even the good one
    code, lines = await verify(good)
    assert code == 2 and len(lines) == 1 and "no trusted key" in lines[0] and "trust-key" in lines[0]

    assert await asyncio.to_thread(main, ["trust-key", "--key", str(tmp_path / "server.pub")]) == 0
    assert server.key_id in capsys.readouterr().out
    code, lines = await verify(good)
    assert code == 0 and f"signed by key {server.key_id}" in lines[0] and ": verified (" in lines[-1]
    for forged in (inserted, swapped, resigned):
        code, lines = await verify(forged)
        assert code != 0, forged.name
        assert "verified" not in lines[-1], lines
        assert lines[-1].startswith(f"{forged}: REJECTED") and mallory.key_id in lines[-1]

    # another key is not pinned over the first by mistake
    (tmp_path / "mallory.pub").write_text(mallory.public_pem)
    assert await asyncio.to_thread(main, ["trust-key", "--key", str(tmp_path / "mallory.pub")]) == 1
    assert "--replace" in capsys.readouterr().err
    code, _ = await verify(resigned)
    assert code == 1
