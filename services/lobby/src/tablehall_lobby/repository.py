"""Loading a table's lobby state and appending lobby events to its stream.

Load: the read model's row (state folded to version v), then the stream's
events after v. Append: at the version just read (optimistic); on a
conflict the table is re-read and the decision made again. The read model is
updated right after each append. A retried request (same command id) is
answered from the stream, never applied twice.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from tablehall_eventstore import AppendResult, ConcurrencyConflict, EventStore, NewEvent
from tablehall_lobby import events as ev
from tablehall_lobby import refusals as no
from tablehall_lobby.readmodel import ReadModel
from tablehall_lobby.state import LobbyTable, apply_recorded, evolve, new_table
from tablehall_platform.errors import Conflict, ServiceError
from tablehall_platform.request_digest import request_digest, request_id_reused
from tablehall_rules import RuleError

log = structlog.get_logger("lobby")

# The match appends to the same stream while a game runs: a lobby command may
# lose the race a few times, so it retries with a short random back-off.
ATTEMPTS = 20
BACKOFF_SECONDS = 0.002

Decide = Callable[[LobbyTable | None], Sequence[msgspec.Struct]]
Hook = Callable[[LobbyTable | None, Sequence[msgspec.Struct]], Awaitable[None]]


@dataclass(frozen=True)
class Outcome:
    table: LobbyTable
    events: list[msgspec.Struct]
    duplicate: bool = False


class Tables:
    def __init__(self, store: EventStore, readmodel: ReadModel) -> None:
        self.store = store
        self.readmodel = readmodel

    async def load(self, table_id: str) -> LobbyTable | None:
        """The table's state as of its stream's latest version (None: no table)."""
        state = await self.readmodel.get(table_id)
        start = state.version + 1 if state is not None else 1
        events = await self.store.read_stream(ev.table_stream(table_id), from_version=start)
        for event in events:
            state = apply_recorded(state, event.type, event.payload, event.version)
        if state is not None and events:
            await self.readmodel.save(state)
        return state

    async def get(self, table_id: str) -> LobbyTable:
        table = await self.load(table_id)
        if table is None:
            raise no.table_not_found(table_id)
        return table

    async def execute(
        self,
        table_id: str,
        command_id: str,
        decide: Decide,
        before: Hook | None = None,
        sender: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """Decide on the current table and append; re-decide on a conflict.

        `sender` (who asked: `actor`, and `operator` when an operator did) is
        recorded in each event's metadata, so an auditor can check that the
        lobby's rules allowed the event from them (docs/security.md).

        `decide` gets None when no table exists (only creation accepts that)
        and returns the events (empty: nothing changes). `before` runs after
        deciding and before appending (PIN checks, idempotent match calls).
        """
        stream = ev.table_stream(table_id)
        digest = request_digest()  # of the gRPC request this command comes from
        for attempt in range(ATTEMPTS):
            if attempt:
                await asyncio.sleep(random.uniform(0, BACKOFF_SECONDS * attempt))
            table = await self.load(table_id)
            try:
                events = list(decide(table))
            except (ServiceError, RuleError):
                earlier = await self.store.command_result(command_id)
                if earlier is not None:
                    await self._require_same(earlier, digest)
                    return Outcome(await self.get(table_id), [], duplicate=True)
                raise
            if not events:
                if table is None:
                    raise no.table_not_found(table_id)
                return Outcome(table, [])
            if before is not None:
                await before(table, events)
            meta = {"command_id": command_id, **(sender or {}), **({"request_digest": digest} if digest else {})}
            batch = [NewEvent(ev.CODEC.type_of(e), 1, ev.CODEC.encode(e), meta) for e in events]
            try:
                result = await self.store.append(stream, table.version if table else 0, batch, command_id=command_id)
            except ConcurrencyConflict:
                continue
            if result.duplicate:
                await self._require_same(result, digest)
                return Outcome(await self.get(table_id), [], duplicate=True)
            state = table
            for event in events:
                state = new_table(event) if isinstance(event, ev.TableCreated) else evolve(_known(state), event)
            final = _known(state)
            final.version = result.last_version
            await self.readmodel.save(final)
            log.info("lobby events", table=table_id, types=[b.type for b in batch], version=final.version)
            return Outcome(final, events)
        raise Conflict(
            "VERSION_CONFLICT",
            "The table kept changing under this request; retry it.",
            ru="Стол всё время меняется; повторите.",
        )

    async def _require_same(self, earlier: AppendResult, digest: str | None) -> None:
        """REQUEST_ID_REUSED unless the recorded command came from the same request."""
        if digest is None:
            return
        [first] = await self.store.read_stream(earlier.stream_id, earlier.first_version, earlier.first_version)
        recorded = first.metadata.get("request_digest")
        if recorded is not None and recorded != digest:
            raise request_id_reused()


def _known(state: LobbyTable | None) -> LobbyTable:
    assert state is not None, "the first lobby event of a table is TableCreated"
    return state
