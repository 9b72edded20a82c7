"""Committing one command: decide it on the live table, evolve, and append its events with
what follows from them (the open decisions, the end); idempotent by command id, and retried once
on a stale copy or a concurrent append."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from tablehall_eventstore import ConcurrencyConflict, EventStore, GroupCommitter
from tablehall_match.deciding import decide
from tablehall_match.hosting import TableHost
from tablehall_match.idempotency import command_digest, require_same, reused
from tablehall_match.live_table import LiveTable
from tablehall_match.records import ended_event, evolve_all, game_events, with_meta
from tablehall_platform import metrics
from tablehall_platform.auth import Principal
from tablehall_platform.errors import Conflict, Refused
from tablehall_rules import RuleError
from tablehall_stream.codecs import command_codec, event_codec

# command ids a table remembers answering (older retries are found in the store)
RECENT_LIMIT = 256


def remember(live: LiveTable, command_id: str, version: int, digest: str) -> None:
    live.recent[command_id] = (version, digest)
    if len(live.recent) > RECENT_LIMIT:
        live.recent.pop(next(iter(live.recent)))


class Committer:
    def __init__(self, host: TableHost, appender: GroupCommitter, store: EventStore, now_ms: Callable[[], int]) -> None:
        self.host = host
        # concurrent commands of many tables share transactions (one WAL flush)
        self.appender = appender
        self.store = store
        self.now_ms = now_ms

    async def commit(
        self,
        live: LiveTable,
        principal: Principal,
        seat: int | None,
        command: msgspec.Struct,
        command_id: str,
        decision_key: str,
        facts: Mapping[str, Any] | None = None,
        for_decisions: Sequence[str] = (),
    ) -> tuple[LiveTable, int, bool]:
        """Decide and append one command on a locked table; (the table as it is now, its
        version, whether the command was a retry of one that went through)."""
        builtins = command_codec(live.game.id).to_builtins(command)
        digest = command_digest(seat, decision_key, builtins)
        if command_id in live.recent:
            version, recorded = live.recent[command_id]
            if recorded != digest:
                raise reused()
            return live, version, True
        for attempt in (1, 2):
            try:
                events, ctx = decide(live, seat, command, decision_key, for_decisions, self.now_ms)
            except (RuleError, Refused):
                # a retry whose first attempt went through is refused by the state it made
                # (the game over, the decision taken, nothing left to change) once this copy no
                # longer remembers it (reloaded since): the store's record of it is the answer
                earlier = await self.store.command_result(command_id)
                if earlier is not None:  # a retry of a command that went through
                    await require_same(self.store, earlier, digest)
                    return live, earlier.last_version, True
                if attempt == 1 and await self.store.stream_version(live.stream_id) != live.version:
                    # refused by a stale copy (another writer got in): reload, decide once more
                    live = await self.host.reload(live)
                    continue
                raise
            meta = {
                "actor": principal.user_id,
                "seat": seat,
                "now_ms": ctx.now_ms,
                "timeout": ctx.timeout,
                "decision_key": decision_key or None,
                "command": builtins,
                "command_digest": digest,
                "draws": msgspec.to_builtins(ctx.rng.draws),
                "draw_start": live.draw_counter,
                **(facts or {}),
            }
            game = live.game
            live.settled.clear()  # views wait: the state runs ahead of the version until the append
            try:
                # Evolve before appending, so the events can carry what follows from
                # them (open decisions, the end); a failed append discards this copy.
                live.state = state = evolve_all(game, live.state, events)
                new = game_events(game.id, event_codec(game.id), events, command_id, meta)
                outcome = game.outcome(state)
                if outcome is not None and not live.ended:
                    new.append(ended_event(live, outcome, command_id, ctx.now_ms))
                pending = game.pending(state)
                new[-1] = with_meta(new[-1], {"pending": msgspec.to_builtins(pending)})
                appended = await self.appender.append(live.stream_id, live.version, new, command_id=command_id)
            except ConcurrencyConflict as exc:
                live.settled.set()  # this copy is dropped: a waiting view takes the reloaded one
                live = await self.host.reload(live)
                if attempt == 2:
                    raise Conflict(
                        "VERSION_CONFLICT",
                        "The table changed under this command twice; retry it.",
                        ru="Стол изменился во время хода; повторите.",
                    ) from exc
                continue
            except BaseException:
                self.host.evict(live.table_id)  # never serve a half-applied state
                live.settled.set()
                raise
            if appended.duplicate:
                live.settled.set()
                live = await self.host.reload(live)
                await require_same(self.store, appended, digest)
                return live, appended.last_version, True
            live.version = appended.last_version
            live.settled.set()
            live.pending_at = (live.version, pending)
            live.draw_counter = ctx.rng.counter
            live.note_facts(facts)
            live.ended = live.ended or outcome is not None
            metrics.events_appended(game.id).inc(len(new))
            remember(live, command_id, appended.last_version, digest)
            self.host.maybe_snapshot(live)
            return live, live.version, False
        raise AssertionError("unreachable")
