"""The match application: load a table, decide, append, evolve, answer.

Thin by design: every rule is the game's; the match only orchestrates, one piece a module:

- `hosting`: which tables this instance holds (leases, loading, snapshots, eviction, draining);
- `starting`: starting a match (the seed committed, `match.Started` and the first events);
- `submitting`: a seat's or the table's command, a run-out clock's default, a dry run
  (`authorization` says who may; `committing` decides, evolves and appends; `deciding` holds
  the platform's checks around the game's `decide`);
- `viewing`: views and legal moves; `control`: the platform's table actions.

`MatchApp` wires them and is what the gRPC port calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from tablehall_eventstore import EventStore, GroupCommitter, StoredFact
from tablehall_match.committing import Committer
from tablehall_match.control import TableActions
from tablehall_match.fact_reads import FactReads
from tablehall_match.hosting import HeldElsewhere, TableHost
from tablehall_match.leases import Leases
from tablehall_match.live_table import REBUILD_METADATA, LiveTable
from tablehall_match.results import CheckResult, SubmitResult, ViewResult
from tablehall_match.seeds import SeedVault
from tablehall_match.starting import Starter
from tablehall_match.submitting import Submitter
from tablehall_match.viewing import Views

__all__ = ["CheckResult", "HeldElsewhere", "MatchApp", "SubmitResult", "ViewResult"]


class MatchApp:
    def __init__(
        self,
        store: EventStore,
        vault: SeedVault,
        leases: Leases,
        snapshot_every: int = 200,
        clock: Callable[[], float] = time.time,
        commit_workers: int = 1,
    ) -> None:
        self.store = store
        self.leases = leases
        # the service's clock (tests move it); every piece reads it through `now_ms`
        self.clock = clock
        # concurrent commands of many tables share transactions (one WAL flush)
        self.appender = GroupCommitter(store, workers=commit_workers)
        self.host = TableHost(store, vault, leases, snapshot_every, self.now_ms)
        self.views = Views(self.host, FactReads(self._read_facts_many), self.now_ms)
        committer = Committer(self.host, self.appender, store, self.now_ms)
        self.commands = Submitter(self.host, committer, self.views.render, self.now_ms)
        self.actions = TableActions(self.host, self.commands)
        self.start_match = Starter(store, vault, self.now_ms, self.host.adopt).start_match
        self.submit = self.commands.submit
        self.submit_default = self.commands.submit_default
        self.check = self.commands.check
        self.control = self.actions.control
        self.view = self.views.view
        self.table = self.host.table
        self.evict = self.host.evict
        self.keep_leases = self.host.keep_leases
        self.drain = self.host.drain

    async def _read_facts_many(self, from_versions: Mapping[str, int]) -> dict[str, list[StoredFact]]:
        """The views' batched reads of what they apply (`LiveTable.apply_recorded`)."""
        return await self.store.read_facts_many(from_versions, metadata=REBUILD_METADATA)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    @property
    def tables(self) -> dict[str, LiveTable]:
        """The tables this instance holds now."""
        return self.host.tables

    async def close(self) -> None:
        await self.appender.close()
        await self.host.close()
