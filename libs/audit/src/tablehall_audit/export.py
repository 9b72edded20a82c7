"""Export files: a finished table in one self-contained JSON document (its
events with their hashes and metadata exactly as stored, the rules version,
the revealed seed), signed with the server's key, which `verify_stream` and
`check_signature` check with no database and no server.

Format `tablehall-table/2`: each event carries `metadata_text` (the stored
text its scheme-2 hash covers) and `hash_scheme`; `signature` is Ed25519 over
the document's canonical encoding: the same document with `signature` null,
encoded compactly with the fields in the order below (`signed_bytes`).
Format `tablehall-table/1` files (unsigned, metadata as an object) are still
read, and reported as unsigned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from tablehall_audit.events import AuditEvent, StreamCopy
from tablehall_audit.signing import ALGORITHM, Signer, key_id, load_public, signature_holds
from tablehall_stream.events import MatchEnded, MatchStarted
from tablehall_stream.names import ENDED, STARTED

FORMAT = "tablehall-table/2"
FORMAT_UNSIGNED = "tablehall-table/1"


class Signature(msgspec.Struct):
    algorithm: str
    key_id: str
    public_key: str
    value: str


class ExportedEvent(msgspec.Struct):
    version: int
    type: str
    schema_version: int
    # the payload's exact JSON text: the hash chain covers these bytes
    payload: str
    prev_hash: str | None
    hash: str | None
    # the metadata's stored text (covered by scheme-2 hashes) and the scheme
    metadata_text: str = "{}"
    hash_scheme: int = 1
    # format 1 only
    metadata: dict[str, Any] | None = None


class ExportFile(msgspec.Struct):
    format: str
    table: str
    game: str
    rules_version: str
    seed_hex: str
    head_version: int
    head_hash: str | None
    events: list[ExportedEvent]
    signature: Signature | None = None


class ExportError(ValueError):
    """The file is not a readable export of a finished table."""


@dataclass(frozen=True)
class ReadExport:
    copy: StreamCopy
    document: ExportFile


def signed_bytes(document: ExportFile) -> bytes:
    """What the signature covers: the document without its signature, canonically encoded."""
    unsigned = msgspec.structs.replace(document, signature=None)
    return msgspec.json.encode(unsigned)


def export_stream(copy: StreamCopy, signer: Signer) -> bytes:
    started = next((e for e in copy.events if e.type == STARTED), None)
    ended = next((e for e in copy.events if e.type == ENDED), None)
    if started is None or ended is None:
        raise ExportError("only finished tables are exported")
    head = msgspec.json.decode(started.payload, type=MatchStarted)
    seed_hex = msgspec.json.decode(ended.payload, type=MatchEnded).seed_hex
    document = ExportFile(
        FORMAT,
        f"tables/{copy.table_id}",
        head.game,
        head.rules_version,
        seed_hex,
        copy.head_version,
        copy.head_hash,
        [
            ExportedEvent(
                e.version,
                e.type,
                e.schema_version,
                e.payload.decode(),
                e.prev_hash,
                e.hash,
                e.metadata_text,
                e.hash_scheme,
            )
            for e in copy.events
        ],
    )
    document.signature = Signature(ALGORITHM, signer.key_id, signer.public_pem, signer.sign(signed_bytes(document)))
    return msgspec.json.format(msgspec.json.encode(document), indent=1)


def _event(e: ExportedEvent, version_of_file: str) -> AuditEvent:
    if version_of_file == FORMAT_UNSIGNED:
        metadata = e.metadata or {}
        return AuditEvent(e.version, e.type, e.schema_version, e.payload.encode(), metadata, e.prev_hash, e.hash)
    try:
        metadata = msgspec.json.decode(e.metadata_text)  # the text is what the chain covers
    except msgspec.DecodeError as exc:
        raise ExportError(f"version {e.version}: unreadable metadata: {exc}") from exc
    if not isinstance(metadata, dict):
        raise ExportError(f"version {e.version}: metadata is not an object")
    return AuditEvent(
        e.version,
        e.type,
        e.schema_version,
        e.payload.encode(),
        metadata,
        e.prev_hash,
        e.hash,
        e.metadata_text,
        e.hash_scheme,
    )


def read_export_file(data: bytes) -> ReadExport:
    try:
        document = msgspec.json.decode(data, type=ExportFile)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ExportError(f"not a Tablehall export file: {exc}") from exc
    if document.format not in (FORMAT, FORMAT_UNSIGNED):
        raise ExportError(f"unknown export format {document.format!r} (expected {FORMAT})")
    events = [_event(e, document.format) for e in document.events]
    started = next((e for e in events if e.type == STARTED), None)
    if started is not None:
        head = msgspec.json.decode(started.payload, type=MatchStarted)
        if (head.game, head.rules_version) != (document.game, document.rules_version):
            raise ExportError("the file's game and rules version differ from its match.Started")
    copy = StreamCopy(document.table.removeprefix("tables/"), events, document.head_version, document.head_hash)
    return ReadExport(copy, document)


def read_export(data: bytes) -> StreamCopy:
    return read_export_file(data).copy


def check_signature(document: ExportFile, trusted_pem: str | None = None) -> tuple[bool, str]:
    """(holds, what): the signature against its embedded key, and that key against `trusted_pem`."""
    signature = document.signature
    if signature is None:
        return False, "the file is not signed: nothing proves which server wrote it"
    if signature.algorithm != ALGORITHM:
        return False, f"unknown signature algorithm {signature.algorithm!r}"
    try:
        embedded = load_public(signature.public_key)
    except ValueError as exc:
        return False, f"unreadable signing key: {exc}"
    if key_id(embedded) != signature.key_id:
        return False, "the signature's key id does not match its key"
    if trusted_pem is not None:
        try:
            trusted = load_public(trusted_pem)
        except ValueError as exc:
            return False, f"unreadable trusted key: {exc}"
        if key_id(trusted) != key_id(embedded):
            return False, f"signed by key {signature.key_id}, not by the trusted key {key_id(trusted)}"
    if not signature_holds(embedded, signed_bytes(document), signature.value):
        return False, f"the signature of key {signature.key_id} does not match the file (it was altered)"
    trust = "the trusted key" if trusted_pem is not None else "compare it with the server's published key"
    return True, f"signed by key {signature.key_id} ({trust})"
