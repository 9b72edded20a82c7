"""EventStore: optimistic appends (single and group commit), stream and global reads."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import asyncpg
import msgspec

from . import snapshots as _snapshots
from ._db import (
    BARE_FACT_COLUMNS,
    EVENT_COLUMNS,
    FACT_COLUMNS,
    Pool,
    decode_metadata,
    picked_columns,
    to_events,
    to_facts,
    to_picked_facts,
)
from .errors import ConcurrencyConflict, EventStoreError, InvalidAppend
from .models import AppendRequest, AppendResult, MetadataPaths, NewEvent, RecordedEvent, Snapshot, StoredFact
from .recent import RecentOrder

# One statement, one round trip: the plpgsql function does the version check,
# the idempotency check, the hash chain and the inserts (see 0001_eventstore.sql).
_APPEND_SQL = (
    "SELECT idx, stream_id, status, first_version, last_version, first_position, last_position,"
    " actual_version FROM tablehall_append($1::text[], $2::int[], $3::text[], $4::int[],"
    " $5::text[], $6::int[], $7::text[], $8::text[])"
)
_OK, _CONFLICT, _DUPLICATE = 0, 1, 2

# Gap safety: a row is returned only once every transaction of this database
# that could still commit a lower position has finished (positions are drawn in
# xid order; the horizon is per database: 0003_read_horizon_per_database.sql).
READ_HORIZON = "(SELECT tablehall_read_horizon())"
# the same horizon, without the backend scan when it cannot change the rows read (0004)
_READ_ALL_SQL = (
    f"SELECT {EVENT_COLUMNS} FROM events WHERE position > $1"
    " AND tx_id < (SELECT tablehall_read_horizon_after($1, $2)) ORDER BY position LIMIT $2"
)
_READ_STREAM_SQL = (
    f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND version >= $2 AND version <= $3 ORDER BY version"
)
_FACTS_WHERE = " FROM events WHERE stream_id = $1 AND version >= $2 AND version <= $3 ORDER BY version"
_READ_FACTS_SQL = f"SELECT {FACT_COLUMNS}{_FACTS_WHERE}"
# Many streams' newest facts in one statement (a batch of views: tablehall_match.fact_reads).
_FACTS_MANY_FROM = (
    " FROM unnest($1::text[], $2::int[]) AS w(stream_id, from_version)"
    " JOIN events ON events.stream_id = w.stream_id AND events.version >= w.from_version"
    " ORDER BY events.stream_id, events.version"
)
_READ_FACTS_MANY_SQL = f"SELECT events.stream_id, {FACT_COLUMNS}{_FACTS_MANY_FROM}"
_MAX_VERSION = 2**31 - 1
# A concurrent duplicate of a command id on another stream aborts the batch on
# the commands primary key; a retry then sees it as a duplicate.
_RETRIES = 3

_encode_json = msgspec.json.encode


def _metadata_text(event: NewEvent) -> str | None:
    if not event.metadata:
        return None
    meta = event.metadata if isinstance(event.metadata, dict) else dict(event.metadata)
    return _encode_json(meta).decode()


# Longer command ids would not fit the commands primary key's index entry.
MAX_COMMAND_ID_BYTES = 1024


def check_append(req: AppendRequest) -> None:
    """Refuse (InvalidAppend) what PostgreSQL would refuse mid-transaction: a NUL in
    a text (also as a JSON escape, which jsonb refuses) or an oversized command id."""
    if len((req.command_id or "").encode()) > MAX_COMMAND_ID_BYTES:
        raise InvalidAppend(f"command id longer than {MAX_COMMAND_ID_BYTES} bytes")
    plain = [req.stream_id, req.command_id or "", *(e.type for e in req.events)]
    json_texts = [text for e in req.events for text in (e.payload.decode(errors="replace"), _metadata_text(e) or "")]
    _refuse_nul(plain, json_texts)


# A JSON escape of NUL: `\u0000` after an even number of backslashes (`\\u0000` is the
# six plain characters `\u0000`, an escaped backslash and then text, which jsonb stores).
_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def _refuse_nul(plain: Sequence[str], json_texts: Sequence[str]) -> None:
    if any("\x00" in text for text in (*plain, *json_texts)) or any(
        "\\u0000" in text and _JSON_NUL.search(text) for text in json_texts
    ):
        raise InvalidAppend("a NUL character in a stream id, command id, event type, payload or metadata")


Texts = list[tuple[str, str | None]]


def checked_texts(req: AppendRequest) -> Texts:
    """Each event's payload and metadata as the statement sends them, checked as `check_append`
    checks them: the metadata encoded once, not once for the check and again for the statement
    (a group commit checks each request before it joins a batch and hands these on)."""
    try:
        texts = [(e.payload.decode(), _metadata_text(e)) for e in req.events]
    except UnicodeDecodeError:
        check_append(req)  # a NUL as well is refused as such
        raise
    if len((req.command_id or "").encode()) > MAX_COMMAND_ID_BYTES:
        raise InvalidAppend(f"command id longer than {MAX_COMMAND_ID_BYTES} bytes")
    plain = [req.stream_id, req.command_id or "", *(e.type for e in req.events)]
    _refuse_nul(plain, [text for pair in texts for text in pair if text])
    return texts


def _arguments(requests: Sequence[AppendRequest], checked: Sequence[Texts] | None = None) -> tuple[list[Any], ...]:
    streams: list[Any] = []
    expected: list[Any] = []
    commands: list[Any] = []
    counts: list[Any] = []
    types: list[Any] = []
    versions: list[Any] = []
    payloads: list[Any] = []
    metadata: list[Any] = []
    for i, req in enumerate(requests):
        texts = checked_texts(req) if checked is None else checked[i]
        if req.expected_version < 0:
            raise ValueError(f"expected_version must be >= 0, got {req.expected_version}")
        if not req.events:
            raise ValueError(f"append to {req.stream_id!r} has no events")
        streams.append(req.stream_id)
        expected.append(req.expected_version)
        commands.append(req.command_id)
        counts.append(len(req.events))
        for e, (payload, meta) in zip(req.events, texts, strict=True):
            types.append(e.type)
            versions.append(e.schema_version)
            payloads.append(payload)
            metadata.append(meta)
    return streams, expected, commands, counts, types, versions, payloads, metadata


async def _keep_session(connection: asyncpg.Connection) -> None:
    """Pool release without asyncpg's default reset (RESET ALL, UNLISTEN, unlock).

    The store never changes session state (no SET, LISTEN or session-level
    advisory lock outlives a call), so the reset round trip on every release
    would only cost time: it was a tenth of the match service's CPU.
    """


class EventStore:
    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self._owns_pool = False
        # Woken after each local commit so an in-process Tail need not wait a poll.
        self._appended = asyncio.Event()
        self._appends = 0  # appends made here or noticed: what `recent` knows it may not have read
        self.recent = RecentOrder()  # the followers of this process share their reads of the global order
        # called after each successful append (`AppendHints` tells the other processes)
        self.append_listeners: list[Callable[[], None]] = []

    @classmethod
    async def connect(cls, dsn: str, *, min_size: int = 2, max_size: int = 16) -> EventStore:
        pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size, reset=_keep_session)
        store = cls(pool)
        store._owns_pool = True
        return store

    async def close(self) -> None:
        if self._owns_pool:
            await self.pool.close()

    # -- appending ---------------------------------------------------------------

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
    ) -> AppendResult:
        """Append to one stream at `expected_version` (0 = must not exist yet).

        Raises ConcurrencyConflict when the stream is elsewhere. A command id
        already recorded returns the original result with duplicate=True.
        """
        [result] = await self._append([AppendRequest(stream_id, expected_version, events, command_id)])
        if isinstance(result, ConcurrencyConflict):
            raise result
        return result

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendResult | ConcurrencyConflict]:
        """Group commit: all requests in one transaction and one round trip.

        Versions are checked per request under the stream's row lock inside the
        transaction, so a conflicting request is reported (and writes nothing)
        without failing the others. Results are in request order.
        """
        if not requests:
            return []
        return await self._append(requests)

    async def append_checked(
        self, requests: Sequence[AppendRequest], checked: Sequence[Texts]
    ) -> list[AppendResult | ConcurrencyConflict]:
        """`append_batch` of requests already checked, with their `checked_texts`."""
        return await self._append(requests, checked)

    async def _append(
        self, requests: Sequence[AppendRequest], checked: Sequence[Texts] | None = None
    ) -> list[AppendResult | ConcurrencyConflict]:
        args = _arguments(requests, checked)
        for attempt in range(_RETRIES):
            try:
                rows = await self.pool.fetch(_APPEND_SQL, *args)
                break
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == "commands_pkey" and attempt < _RETRIES - 1:
                    continue
                if exc.constraint_name == "events_stream_version" and len(requests) == 1:
                    req = requests[0]
                    actual = await self.stream_version(req.stream_id)
                    return [ConcurrencyConflict(req.stream_id, req.expected_version, actual)]
                raise EventStoreError(str(exc)) from exc
        out: list[AppendResult | ConcurrencyConflict | None] = [None] * len(requests)
        appended = False
        for r in rows:
            i = r[0]
            if r[2] == _CONFLICT:
                out[i] = ConcurrencyConflict(requests[i].stream_id, requests[i].expected_version, r[7])
            else:
                appended = appended or r[2] == _OK
                out[i] = AppendResult(r[1], r[3], r[4], r[5], r[6], r[2] == _DUPLICATE)
        if appended:
            self._appends += 1
            self._wake()
            for listener in self.append_listeners:
                listener()
        return [x for x in out if x is not None]

    def _wake(self) -> None:
        self._appended.set()
        self._appended = asyncio.Event()

    def notice_appended(self) -> None:
        """Wake this store's `wait_appended` waiters for an append another process made (an
        `AppendHints` message): its followers read now instead of at their next poll. Counted
        as an append, so no read that began before it answers for what follows it (`recent`)."""
        self._appends += 1
        self._wake()

    # -- reading -----------------------------------------------------------------

    async def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        hi = _MAX_VERSION if to_version is None else to_version
        return to_events(await self.pool.fetch(_READ_STREAM_SQL, stream_id, from_version, hi))

    async def read_facts(
        self,
        stream_id: str,
        from_version: int = 1,
        to_version: int | None = None,
        *,
        metadata: MetadataPaths | None = None,
    ) -> list[StoredFact]:
        """`read_stream` with only what rebuilding a state reads (version, type, payload, metadata).

        `metadata` names the parts of each event's metadata to read: each fact's metadata then
        holds those names whose path leads somewhere, and nothing else (its whole text costs
        more than the rest of the row). None reads all of it.
        """
        hi = _MAX_VERSION if to_version is None else to_version
        if metadata is None:
            return to_facts(await self.pool.fetch(_READ_FACTS_SQL, stream_id, from_version, hi))
        sql = f"SELECT {BARE_FACT_COLUMNS}{picked_columns(4, len(metadata))}{_FACTS_WHERE}"
        rows = await self.pool.fetch(sql, stream_id, from_version, hi, *map(list, metadata.values()))
        return to_picked_facts(rows, list(metadata))

    async def read_facts_many(
        self, from_versions: Mapping[str, int], *, metadata: MetadataPaths | None = None
    ) -> dict[str, list[StoredFact]]:
        """`read_facts` of several streams at once, each from its own version: one round trip."""
        streams = list(from_versions)
        starts = [from_versions[s] for s in streams]
        found: dict[str, list[StoredFact]] = {s: [] for s in streams}
        if metadata is None:
            for r in await self.pool.fetch(_READ_FACTS_MANY_SQL, streams, starts):
                found[r[0]].append(StoredFact(r[1], r[2], r[3], r[4].encode(), decode_metadata(r[5])))
            return found
        names = list(metadata)
        sql = f"SELECT events.stream_id, {BARE_FACT_COLUMNS}{picked_columns(3, len(names))}{_FACTS_MANY_FROM}"
        rows = await self.pool.fetch(sql, streams, starts, *map(list, metadata.values()))
        for r, fact in zip(rows, to_picked_facts(rows, names, skip=1), strict=True):
            found[r[0]].append(fact)
        return found

    async def stream_version(self, stream_id: str) -> int:
        v = await self.pool.fetchval("SELECT version FROM streams WHERE stream_id = $1", stream_id)
        return 0 if v is None else int(v)

    async def command_result(self, command_id: str) -> AppendResult | None:
        r = await self.pool.fetchrow(
            "SELECT stream_id, first_version, last_version, first_position, last_position"
            " FROM commands WHERE command_id = $1",
            command_id,
        )
        return None if r is None else AppendResult(r[0], r[1], r[2], r[3], r[4], True)

    async def read_all(self, after_position: int, limit: int = 1000) -> list[RecordedEvent]:
        """Events after `after_position` in global order, never past a possible gap (shared with
        this process's other followers: `recent`)."""
        return await self.recent.read_all(after_position, limit, self._appends_made, self._read_all)

    def _appends_made(self) -> int:
        return self._appends

    async def _read_all(self, after_position: int, limit: int) -> list[RecordedEvent]:
        return to_events(await self.pool.fetch(_READ_ALL_SQL, after_position, limit))

    async def wait_appended(self, max_wait: float) -> None:
        """Return after this store's next successful append, or after `max_wait` seconds."""
        event = self._appended
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), max_wait)

    # -- snapshots ---------------------------------------------------------------

    async def save_snapshot(
        self, stream_id: str, version: int, payload: bytes, *, state_type: str, schema_version: int = 1
    ) -> None:
        await _snapshots.save_snapshot(
            self.pool, stream_id, version, payload, state_type=state_type, schema_version=schema_version
        )

    async def load_snapshot(self, stream_id: str) -> Snapshot | None:
        return await _snapshots.load_snapshot(self.pool, stream_id)

    async def delete_snapshots(self, stream_id: str | None = None) -> int:
        return await _snapshots.delete_snapshots(self.pool, stream_id)
