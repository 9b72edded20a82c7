"""`tablehall verify`, `replay` and `export`: the audit of finished tables.

`verify TABLE` reads the table's stream from the database; `verify --file F`
checks an export file with no database and no server: its signature (against
`--key` or the key pinned with `trust-key`, never the file's own) and its content.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import grpc

from tablehall.projection.v1 import projection_pb2, projection_pb2_grpc
from tablehall_audit.events import StreamCopy, load_stream
from tablehall_audit.export import ExportError, check_signature, export_stream, read_export_file
from tablehall_audit.replay import seat_view, steps
from tablehall_audit.signing import Signer, key_file
from tablehall_audit.verify import verify_stream
from tablehall_cli.trusted_key import PinError, pin, pinned_key, trusted_key_file
from tablehall_eventstore import EventStore
from tablehall_platform.config import Settings
from tablehall_platform.infra import find_servers
from tablehall_stream.names import ENDED, stream_id, table_of

# the shortest start of a table id taken for the whole (the screen shows ids whole; people type less)
SHORT_ID_MIN = 4


async def resolve_table(store: EventStore, table: str) -> str:
    """The table id `table` names: the id itself, or the one table whose id starts with it."""
    table_id = table.removeprefix("tables/")
    if len(table_id) < SHORT_ID_MIN or await store.pool.fetchval(
        "SELECT 1 FROM streams WHERE stream_id = $1", stream_id(table_id)
    ):
        return table_id
    pattern = stream_id(table_id.replace("\\", "").replace("%", "").replace("_", "\\_")) + "%"
    rows = await store.pool.fetch("SELECT stream_id FROM streams WHERE stream_id LIKE $1 ORDER BY 1 LIMIT 3", pattern)
    found = [t for (sid,) in rows if (t := table_of(sid)) is not None]
    if len(found) > 1:
        raise SystemExit(
            f"tables/{table_id}: more than one table starts so ({', '.join(found[:2])}, …); give more of it"
        )
    return found[0] if found else table_id


async def _load(settings: Settings, table: str) -> StreamCopy:
    servers = await find_servers(settings.data_dir, settings.db_name, settings.database_url, settings.nats_url)
    store = await EventStore.connect(servers.database_url, min_size=1, max_size=2)
    try:
        return await load_stream(store, await resolve_table(store, table))
    finally:
        await store.close()
        servers.stop()


def _report(copy: StreamCopy) -> int:
    verdict = verify_stream(copy)
    print(
        f"tables/{copy.table_id}: {verdict.message} ({verdict.events_checked} events,"
        f" {verdict.commands_checked} commands re-decided, {verdict.draws_checked} draws recomputed)"
    )
    return 0 if verdict.ok else 1


async def verify_table(settings: Settings, table: str) -> int:
    copy = await _load(settings, table)
    if not copy.events:
        print(f"tables/{copy.table_id}: no such table")
        return 2
    return _report(copy)


def verify_file(path: Path, trusted_key: Path | None = None) -> int:
    """An export file against `trusted_key`, else the pinned key; never against the file's own key.

    Exit 0 only when the signature is the trusted key's and the content holds; a file whose
    origin is not proven ends with a REJECTED line (exit 1), whatever its content.
    """
    try:
        found = read_export_file(path.read_bytes())
        trusted = trusted_key.read_text() if trusted_key is not None else pinned_key()
    except (OSError, ExportError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    if trusted is None:
        print(
            f"{path}: no trusted key: pin the server's published key once with"
            f" `tablehall trust-key --key KEY.pem` (or `--server ADDRESS`), or pass --key KEY.pem",
            file=sys.stderr,
        )
        return 2
    signed, what = check_signature(found.document, trusted)
    print(f"{path}: {what}")
    content = _report(found.copy)
    if not signed:
        print(f"{path}: REJECTED: the file's origin is not proven ({what})")
        return 1
    return content


def trust_key(key: Path | None, server: str | None, token: str | None, replace: bool) -> int:
    """Pin the server's public key: from a PEM file, or fetched once from the projection."""
    try:
        pem = key.read_text() if key is not None else asyncio.run(_fetch_signing_key(server or "", token))
        pinned = pin(pem, replace=replace)
    except (OSError, PinError, grpc.RpcError) as exc:
        print(f"tablehall trust-key: {exc}", file=sys.stderr)
        return 1
    print(f"trusting key {pinned} for export files ({trusted_key_file()})")
    return 0


async def _fetch_signing_key(server: str, token: str | None) -> str:
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    async with grpc.aio.insecure_channel(server) as channel:
        stub = projection_pb2_grpc.ProjectionServiceStub(channel)
        reply = await stub.GetSigningKey(projection_pb2.GetSigningKeyRequest(), metadata=metadata, timeout=30)
    return str(reply.public_key_pem)


def print_signing_key(settings: Settings) -> int:
    signer = Signer.load(key_file(settings.data_dir))
    print(f"# key id {signer.key_id} (ed25519)")
    print(signer.public_pem, end="")
    return 0


async def export_table(settings: Settings, table: str, out: Path) -> int:
    copy = await _load(settings, table)
    if not copy.events:
        print(f"tables/{copy.table_id}: no such table", file=sys.stderr)
        return 2
    try:
        signer = Signer.load(key_file(settings.data_dir))
        await asyncio.to_thread(out.write_bytes, export_stream(copy, signer))
    except ExportError as exc:
        print(f"tables/{copy.table_id}: {exc}", file=sys.stderr)
        return 1
    print(f"tables/{copy.table_id}: {len(copy.events)} events written to {out}")
    return 0


async def replay_table(settings: Settings, table: str, seat: int | None, version: int | None) -> int:
    copy = await _load(settings, table)
    if not copy.events:
        print(f"tables/{copy.table_id}: no such table", file=sys.stderr)
        return 2
    if not any(e.type == ENDED for e in copy.events):
        print(f"tables/{copy.table_id}: not finished; only finished tables are replayed", file=sys.stderr)
        return 1
    if seat is not None or version is not None:
        if seat is None or version is None:
            print("--seat and --version go together", file=sys.stderr)
            return 2
        try:
            view = seat_view(copy.table_id, copy.events, seat, version)
        except ValueError as exc:
            print(f"tables/{copy.table_id}: {exc}", file=sys.stderr)
            return 2
        print(json.dumps({"version": version, "seat": seat, "view": view}, ensure_ascii=False))
        return 0
    for step in steps(copy.table_id, copy.events):
        line = {"version": step.version, "type": step.type, "event": step.payload, "state": step.state}
        print(json.dumps(line, ensure_ascii=False))
    return 0
