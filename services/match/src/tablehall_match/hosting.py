"""Which tables this instance holds, and how it holds them: a lease per table (one writer), the
table rebuilt from snapshot + events on first use, snapshots every so many events, eviction when
the lease is lost, and the hand-over of every table when the instance drains."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

import structlog

from tablehall_eventstore import EventStore, Fact
from tablehall_match.leases import Leases
from tablehall_match.live_table import REBUILD_METADATA, SNAPSHOT_TYPE, LiveTable
from tablehall_match.records import reveal
from tablehall_match.seeds import SeedVault
from tablehall_match.spectator import SpectatorCopies
from tablehall_platform import metrics
from tablehall_platform.errors import NotFound, Unavailable
from tablehall_stream.names import stream_id

log = structlog.get_logger("match")


class HeldElsewhere(Exception):
    """Another live match instance is the writer of this table."""

    def __init__(self, address: str) -> None:
        super().__init__(address)
        self.address = address


class TableHost:
    def __init__(
        self,
        store: EventStore,
        vault: SeedVault,
        leases: Leases,
        snapshot_every: int,
        now_ms: Callable[[], int],
    ) -> None:
        self.store = store
        self.vault = vault
        self.leases = leases
        self.snapshot_every = snapshot_every
        self.now_ms = now_ms
        self.tables: dict[str, LiveTable] = {}
        # the delayed copies spectators see, of the tables held here
        self.spectators = SpectatorCopies(store)
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        # set by drain(): no new leases; callers are sent to the table's next writer
        self.draining = False

    async def table(self, table_id: str) -> LiveTable:
        """The live table, rebuilt on first use; HeldElsewhere if not ours."""
        live = self.tables.get(table_id)
        if live is not None:
            if self.leases.holds(live.stream_id):
                return live
            self.evict(table_id)  # our lease may have lapsed: never serve it from memory
        if self.draining:
            raise await self._moved(table_id)
        return await self._table_loaded(table_id)

    async def reload(self, live: LiveTable) -> LiveTable:
        self.evict(live.table_id)
        return await self.table(live.table_id)

    def evict(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self.spectators.forget(table_id)
        metrics.TABLES_IN_MEMORY.set(len(self.tables))

    async def _moved(self, table_id: str) -> HeldElsewhere:
        """A draining instance takes no lease: the table's next writer, or retry later."""
        address = await self.leases.successor(stream_id(table_id))
        if address is None:
            raise Unavailable(
                "SERVER_STOPPING",
                "This server is stopping and knows no other; retry shortly.",
                ru="Сервер останавливается; повторите чуть позже.",
            )
        return HeldElsewhere(address)

    async def _table_loaded(self, table_id: str) -> LiveTable:
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            live = await self._load(table_id)
            future.set_result(live)
            return live
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters re-raise it themselves
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str) -> LiveTable:
        sid = stream_id(table_id)
        holder = await self.leases.acquire(sid)
        if holder.owner != self.leases.owner:
            raise HeldElsewhere(holder.address)
        started = time.perf_counter()
        live = LiveTable(table_id, sid)
        snapshot = await self.store.load_snapshot(sid)
        if snapshot is not None and snapshot.state_type == SNAPSHOT_TYPE:
            live.restore(snapshot.payload)
        events = await self.store.read_facts(sid, from_version=live.version + 1, metadata=REBUILD_METADATA)
        for event in events:
            live.apply_recorded(event)
        if live.started is None:
            await self.leases.release(sid)
            raise NotFound("TABLE_NOT_FOUND", f"No match at tables/{table_id}.", ru="Такого стола нет.")
        live.seed = await self.vault.get(sid)
        metrics.REBUILD_SECONDS.observe(time.perf_counter() - started)
        metrics.REBUILD_EVENTS.inc(len(events))
        self.tables[table_id] = live
        metrics.TABLES_IN_MEMORY.set(len(self.tables))
        if not live.ended and live.game.outcome(live.state) is not None:
            # the process died between the last game event and the reveal
            async with live.lock:
                await reveal(self.store, live, "recovery", self.now_ms())
        return live

    async def adopt(self, table_id: str, facts: Sequence[Fact], seed: bytes) -> bool:
        """Hold a table this instance has just started, built from the events it wrote (after the
        lobby's, all in `facts`), so that its first command does not load it again (a lease, a
        snapshot, its events and its seed: four statements a table). Only when its lease is ours
        and nothing loaded it meanwhile; otherwise its first use loads it as usual. Whether held."""
        if not self._may_adopt(table_id):
            return False
        sid = stream_id(table_id)
        holder = await self.leases.acquire(sid)
        # no await from here on: nothing can load the table between this check and the insert
        if holder.owner != self.leases.owner or not self._may_adopt(table_id):
            return False
        live = LiveTable(table_id, sid)
        for fact in facts:
            live.apply_recorded(fact)
        if live.started is None or live.game.outcome(live.state) is not None:
            return False  # nothing to hold, or a match over at once: the load's recovery reveals it
        live.seed = seed
        self.tables[table_id] = live
        metrics.TABLES_IN_MEMORY.set(len(self.tables))
        return True

    def _may_adopt(self, table_id: str) -> bool:
        """Not draining, and the table neither held nor being loaded."""
        return not self.draining and table_id not in self.tables and table_id not in self._loading

    def maybe_snapshot(self, live: LiveTable) -> None:
        """Save a snapshot in the background every `snapshot_every` events (a cache for loads)."""
        if live.version - live.last_snapshot_version < self.snapshot_every:
            return
        payload = live.snapshot()
        live.last_snapshot_version = live.version
        task = asyncio.create_task(
            self.store.save_snapshot(live.stream_id, live.version, payload, state_type=SNAPSHOT_TYPE)
        )
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def keep_leases(self, stop: asyncio.Event) -> None:
        """Renew our leases; drop tables whose lease we lost."""
        while not stop.is_set():
            try:
                # only tables loaded before the renewal can have lost their lease
                held = list(self.tables.items())
                ours = await self.leases.renew()
                for table_id, live in held:
                    if live.stream_id not in ours and self.tables.get(table_id) is live:
                        log.warning("lease lost", table=table_id)
                        self.evict(table_id)
            except Exception:
                log.exception("lease renewal failed")
            try:
                await asyncio.wait_for(stop.wait(), timeout=self.leases.seconds / 3)
            except TimeoutError:
                continue

    async def drain(self) -> None:
        """Hand every table to the other instances without failing a command: take
        no new lease, let each table's command in flight finish (it holds the
        table's lock through its append), then drop the table and release its
        lease, so the next call (forwarded from here, or sent to another instance)
        is taken by another instance at once. Commands that were waiting for the
        lock find the table gone and are forwarded (HeldElsewhere)."""
        self.draining = True
        while self._loading or self.tables:
            if self._loading:
                await asyncio.gather(*self._loading.values(), return_exceptions=True)
            for table_id, live in list(self.tables.items()):
                async with live.lock:
                    if self.tables.get(table_id) is live:
                        self.evict(table_id)
                    await self.leases.release(live.stream_id)
        await self.leases.release_all()
        log.info("drained: every lease released")

    async def snapshots_saved(self) -> None:
        """Wait for the snapshots being saved in the background."""
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    async def close(self) -> None:
        """Wait for the snapshots being saved; release every lease."""
        await self.snapshots_saved()
        await self.leases.release_all()
