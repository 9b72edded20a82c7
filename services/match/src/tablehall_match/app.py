"""The match application: load a table, decide, append, evolve, answer.

Thin by design: every rule is the game's; this module only orchestrates
(authorization, one command at a time per table, optimistic appends,
snapshots, seed commitment and reveal).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from tablehall_eventstore import ConcurrencyConflict, EventStore, GroupCommitter, NewEvent
from tablehall_match.fact_reads import FactReads
from tablehall_match.idempotency import command_digest, require_same, reused
from tablehall_match.leases import Leases
from tablehall_match.live_table import SNAPSHOT_TYPE, LiveTable
from tablehall_match.seeds import SeedVault
from tablehall_match.spectator import SpectatorCopies, spectator_version
from tablehall_platform import metrics
from tablehall_platform.auth import Principal
from tablehall_platform.errors import (
    AlreadyExists,
    BadRequest,
    Conflict,
    NotFound,
    PermissionDenied,
    Refused,
    ServiceError,
    Unavailable,
)
from tablehall_platform.table_options import split as table_options_split
from tablehall_rules import (
    DecideContext,
    DrawSource,
    LegalMove,
    PendingDecision,
    RuleError,
    SeatInfo,
    StructCodec,
    TableControl,
    Viewer,
    commitment,
    new_seed,
)
from tablehall_rules.disclosure import visible_decisions
from tablehall_rules.errors import InvalidOptions
from tablehall_rules.registry import get_game
from tablehall_stream.codecs import command_codec, event_codec
from tablehall_stream.events import MatchStarted
from tablehall_stream.names import BOT_SERVICE, ENDED, STARTED, game_event_type, stream_id

log = structlog.get_logger("match")

RECENT_LIMIT = 256


def _with_meta(event: NewEvent, extra: Mapping[str, Any]) -> NewEvent:
    return NewEvent(event.type, event.schema_version, event.payload, {**event.metadata, **extra})


class HeldElsewhere(Exception):
    """Another live match instance is the writer of this table."""

    def __init__(self, address: str) -> None:
        super().__init__(address)
        self.address = address


@dataclass(frozen=True)
class ViewResult:
    table_id: str
    game: str
    version: int
    role: str
    seat: int | None
    view: dict[str, Any]
    legal: list[LegalMove]
    decisions: list[PendingDecision]
    finished: bool
    outcome: dict[str, Any] | None
    teams: list[list[int]]


@dataclass(frozen=True)
class SubmitResult:
    version: int
    duplicate: bool
    # None when the caller asked for the version only
    view: ViewResult | None
    finished: bool = False


@dataclass(frozen=True)
class CheckResult:
    version: int
    refusal: RuleError | ServiceError | None


def _control_command(game: object, action: str, seat: int, flag: bool, reason: str) -> msgspec.Struct | None:
    """The game's own system command for a generic table action (None: the game has no rule for it)."""
    if not isinstance(game, TableControl):
        return None
    if action == "presence":
        return game.presence_command(seat, flag)
    if action == "controller":
        return game.controller_command(seat, flag)
    if action == "remove":
        return game.remove_command(seat)
    if action == "host_propose_end":
        return game.host_end_command(seat if seat >= 0 else None)
    if action == "close":
        return game.close_command(reason)
    return None


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
        # concurrent commands of many tables share transactions (one WAL flush)
        self.appender = GroupCommitter(store, workers=commit_workers)
        # the views' reads of the lobby's newest facts, many tables a query
        self.fact_reads = FactReads(store.read_facts_many)
        self.vault = vault
        self.leases = leases
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}
        self.spectators = SpectatorCopies(store)
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        # set by drain(): no new leases; callers are sent to the table's next writer
        self.draining = False

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ---- loading ---------------------------------------------------------

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
        events = await self.store.read_facts(sid, from_version=live.version + 1)
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
                await self._reveal(live, "recovery")
        return live

    def evict(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self.spectators.forget(table_id)
        metrics.TABLES_IN_MEMORY.set(len(self.tables))

    # ---- start -----------------------------------------------------------

    async def start_match(
        self,
        principal: Principal,
        table_id: str,
        game_id: str,
        raw_options: Mapping[str, Any],
        seats: Sequence[SeatInfo],
        request_id: str,
    ) -> tuple[int, str]:
        if not (principal.is_service or principal.is_operator):
            raise PermissionDenied(
                "NOT_ALLOWED",
                "Matches are started by the lobby or an operator.",
                ru="Матч запускает лобби или оператор.",
            )
        if not request_id:
            raise BadRequest("REQUEST_ID_REQUIRED", "request_id is required.", ru="Нужен request_id.")
        game = get_game(game_id)
        table_options, game_raw = table_options_split(raw_options)
        options = dict(game.parse_options(game_raw))
        if sorted(s.seat for s in seats) != list(range(len(seats))):
            raise BadRequest("INVALID_SEATS", "Seats must be numbered 0..n-1.", ru="Места нумеруются с 0.")
        if not game.min_seats <= len(seats) <= game.max_seats:
            raise InvalidOptions(
                "SEAT_COUNT",
                f"{game_id} takes {game.min_seats}-{game.max_seats} seats.",
                f"В игре {game.min_seats}-{game.max_seats} мест.",
            )
        sid = stream_id(table_id)
        command_id = f"start:{table_id}:{request_id}"
        earlier = await self.store.command_result(command_id)
        if earlier is not None:
            seed = await self.vault.get(sid)
            assert seed is not None
            return earlier.last_version, commitment(seed)
        version = await self.store.stream_version(sid)
        for event in await self.store.read_facts(sid):
            if event.type == STARTED:
                raise AlreadyExists(
                    "MATCH_ALREADY_STARTED",
                    "This table's match has started.",
                    ru="Матч этого стола уже идёт.",
                )
        seed = await self.vault.put(sid, new_seed())
        now = self.now_ms()
        rng = DrawSource(seed, 0)
        ctx = DecideContext(seat=None, now_ms=now, rng=rng)
        game_events = game.start(options, list(seats), ctx)
        started = MatchStarted(
            game_id,
            game.rules_version,
            options,
            list(seats),
            commitment(seed),
            now,
            table_options=table_options,
            teams=game.teams(options, len(seats)),
        )
        first = NewEvent(
            STARTED,
            1,
            msgspec.json.encode(started),
            {"command_id": command_id, "actor": principal.user_id, "now_ms": now},
        )
        codec = event_codec(game_id)
        rest = self._game_events(
            game_id,
            codec,
            game_events,
            command_id,
            {"draws": msgspec.to_builtins(rng.draws), "draw_start": 0},
        )
        state = self._evolve_all(game, None, game_events)
        batch = [first, *rest]
        batch[-1] = _with_meta(batch[-1], {"pending": msgspec.to_builtins(game.pending(state))})
        try:
            result = await self.store.append(sid, version, batch, command_id=command_id)
        except ConcurrencyConflict as exc:
            raise AlreadyExists(
                "MATCH_ALREADY_STARTED",
                "The table changed while starting; retry.",
                ru="Стол изменился; повторите.",
            ) from exc
        metrics.events_appended(game_id).inc(1 + len(rest))
        log.info("match started", table=table_id, game=game_id, seats=len(seats), version=result.last_version)
        return result.last_version, commitment(seed)

    @staticmethod
    def _game_events(
        game_id: str,
        codec: StructCodec[Any],
        events: Sequence[msgspec.Struct],
        command_id: str,
        first_meta: Mapping[str, Any],
    ) -> list[NewEvent]:
        out = []
        for i, event in enumerate(events):
            meta: dict[str, Any] = {"command_id": command_id}
            if i == 0:
                meta.update(first_meta)
            out.append(
                NewEvent(
                    game_event_type(game_id, codec.name(event)),
                    codec.version(event),
                    codec.encode(event),
                    meta,
                )
            )
        return out

    # ---- submit ----------------------------------------------------------

    def _authorize(self, principal: Principal, live: LiveTable, seat: int | None, decision_key: str) -> None:
        if decision_key and not principal.is_service:
            raise PermissionDenied(
                "NOT_ALLOWED", "Only the timer answers for a clock.", ru="За часы отвечает только таймер."
            )
        if principal.user_id == BOT_SERVICE and seat is not None and not live.played_by_bot(seat):
            raise PermissionDenied(
                "NOT_A_BOT_SEAT",
                "No bot plays this seat (its player has it).",
                ru="За это место не играет бот (оно у игрока).",
            )
        if principal.is_service:
            return
        if seat is None:
            if not principal.is_operator:
                raise PermissionDenied(
                    "NOT_ALLOWED",
                    "Only the table's services or an operator act for the table.",
                    ru="От имени стола действуют только службы и оператор.",
                )
            return
        seats = live.seats
        if not any(s.user_id == principal.user_id for s in seats):
            raise PermissionDenied(
                "NOT_A_MEMBER", "You have no seat at this table.", ru="У вас нет места за этим столом."
            )
        if seats[seat].user_id != principal.user_id:
            raise PermissionDenied(
                "NOT_YOUR_SEAT",
                "You may act only for your own seat.",
                ru="Ходить можно только за своё место.",
            )

    async def submit(
        self,
        principal: Principal,
        table_id: str,
        seat: int | None,
        command: msgspec.Struct,
        request_id: str,
        decision_key: str = "",
        facts: Mapping[str, Any] | None = None,
        with_view: bool = True,
        for_decisions: Sequence[str] = (),
    ) -> SubmitResult:
        if not request_id:
            raise BadRequest("REQUEST_ID_REQUIRED", "request_id is required.", ru="Нужен request_id.")
        started = time.perf_counter()
        live = await self.table(table_id)
        game_id = live.started.game if live.started else "?"
        outcome = "ok"
        try:
            if seat is not None and not 0 <= seat < len(live.seats):
                raise BadRequest("NO_SUCH_SEAT", f"Seat {seat} does not exist.", ru="Такого места нет.")
            self._authorize(principal, live, seat, decision_key)
            command_id = f"{table_id}:{principal.user_id}:{request_id}"
            async with live.lock:
                live = self.tables.get(table_id) or await self.table(table_id)
                live, version, duplicate = await self._submit_locked(
                    live, principal, seat, command, command_id, decision_key, facts, for_decisions
                )
            log.debug("command", table=table_id, command_id=command_id, seat=seat, version=version, duplicate=duplicate)
            return self._answer(live, principal, seat, version, duplicate, with_view)
        except (RuleError, ServiceError) as exc:
            outcome = "refused"
            log.info("command refused", table=table_id, request_id=request_id, seat=seat, reason=exc.reason)
            raise
        except HeldElsewhere:  # the lease moved before anything was decided: the caller forwards
            outcome = "moved"
            raise
        except Exception:
            outcome = "error"
            log.exception("command failed", table=table_id, request_id=request_id, seat=seat)
            raise
        finally:
            metrics.command_latency(game_id, outcome).observe(time.perf_counter() - started)

    def _answer(
        self, live: LiveTable, principal: Principal, seat: int | None, version: int, duplicate: bool, with_view: bool
    ) -> SubmitResult:
        view = self.render(live, principal, seat) if with_view else None
        return SubmitResult(version, duplicate, view, finished=live.ended)

    async def submit_default(
        self, principal: Principal, table_id: str, decision_key: str, request_id: str, with_view: bool = True
    ) -> SubmitResult:
        """The game's default move for an open decision whose clock ran out."""
        if not principal.is_service:
            raise PermissionDenied(
                "NOT_ALLOWED", "Only the timer answers for a clock.", ru="За часы отвечает только таймер."
            )
        if not request_id or not decision_key:
            raise BadRequest(
                "REQUEST_ID_REQUIRED",
                "request_id and decision_key are required.",
                ru="Нужны request_id и decision_key.",
            )
        live = await self.table(table_id)
        command_id = f"{table_id}:{principal.user_id}:{request_id}"
        async with live.lock:
            live = self.tables.get(table_id) or await self.table(table_id)
            if command_id in live.recent:
                return self._answer(live, principal, None, live.recent[command_id][0], True, with_view)
            decision = next((d for d in live.game.pending(live.state) if d.key == decision_key), None)
            if decision is not None and not decision.has_clock:
                raise Refused("NO_CLOCK", "That decision has no clock to run out.", ru="У этого решения нет часов.")
            if decision is None:
                earlier = await self.store.command_result(command_id)
                if earlier is not None:
                    return self._answer(live, principal, None, earlier.last_version, True, with_view)
                raise Refused(
                    "DECISION_ALREADY_TAKEN", "That decision has been taken already.", ru="Это решение уже принято."
                )
            if self.now_ms() < decision.deadline_ms:
                # whatever the game checks itself: no default move before the deadline
                raise Refused("CLOCK_NOT_EXPIRED", "The clock has not run out yet.", ru="Время ещё не вышло.")
            command = live.game.default_command(live.state, decision)
            seat = decision.seat
            live, version, duplicate = await self._submit_locked(
                live, principal, seat, command, command_id, decision_key
            )
        return self._answer(live, principal, seat, version, duplicate, with_view)

    async def control(
        self,
        principal: Principal,
        table_id: str,
        action: str,
        request_id: str,
        seat: int = -1,
        flag: bool = False,
        reason: str = "",
    ) -> tuple[int, bool, bool]:
        """A generic table action (presence, controller, remove, host_propose_end, close);
        (version, duplicate, applied). For host_propose_end, `seat` is the host's seat or -1."""
        allowed = principal.is_service or (action == "close" and principal.is_operator)
        if not allowed:
            raise PermissionDenied(
                "NOT_ALLOWED",
                "Only the table's services (or an operator, to close) may do this.",
                ru="Это могут только службы стола (закрыть — оператор).",
            )
        live = await self.table(table_id)
        game = live.game
        seatless = action == "close" or (action == "host_propose_end" and seat == -1)
        if not seatless and not 0 <= seat < len(live.seats):
            raise BadRequest("NO_SUCH_SEAT", f"Seat {seat} does not exist.", ru="Такого места нет.")
        command = _control_command(game, action, seat, flag, reason)
        if command is None:
            return live.version, False, False
        # who plays a seat is the platform's fact too: the bot service may act only there
        facts = {"controller": {"seat": seat, "by_bot": flag}} if action == "controller" else None
        try:
            result = await self.submit(principal, table_id, None, command, request_id, facts=facts)
        except Refused as refusal:
            if refusal.reason != "NOTHING_HAPPENED":
                raise
            # the seat is already so (a bot's own seat taken by a person, a presence told twice)
            return live.version, False, False
        return result.version, result.duplicate, True

    async def check(
        self, principal: Principal, table_id: str, seat: int | None, command: msgspec.Struct
    ) -> CheckResult:
        """Whether `command` would be accepted now, deciding it on the live state
        without keeping anything: the draws come from a throwaway seed, so a check
        reveals nothing of the table's own."""
        live = await self.table(table_id)
        async with live.lock:
            live = self.tables.get(table_id) or await self.table(table_id)
            try:
                if seat is not None and not 0 <= seat < len(live.seats):
                    raise BadRequest("NO_SUCH_SEAT", f"Seat {seat} does not exist.", ru="Такого места нет.")
                self._authorize(principal, live, seat, "")
                if live.ended:
                    raise Refused("GAME_OVER", "The game is over.", ru="Игра окончена.")
                ctx = DecideContext(seat=seat, now_ms=self.now_ms(), rng=DrawSource(new_seed()))
                if not live.game.decide(live.state, command, ctx):
                    raise Refused("NOTHING_HAPPENED", "The command changes nothing.", ru="Команда ничего не меняет.")
            except (RuleError, Refused, BadRequest) as refusal:
                return CheckResult(live.version, refusal)
            return CheckResult(live.version, None)

    async def _submit_locked(
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
        builtins = command_codec(live.game.id).to_builtins(command)
        digest = command_digest(seat, decision_key, builtins)
        if command_id in live.recent:
            version, recorded = live.recent[command_id]
            if recorded != digest:
                raise reused()
            return live, version, True
        for attempt in (1, 2):
            try:
                events, ctx = self._decide(live, seat, command, decision_key, for_decisions)
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
                    live = await self._reload(live)
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
            try:
                # Evolve before appending, so the events can carry what follows from
                # them (open decisions, the end); a failed append discards this copy.
                live.state = state = self._evolve_all(game, live.state, events)
                new = self._game_events(game.id, event_codec(game.id), events, command_id, meta)
                outcome = game.outcome(state)
                if outcome is not None and not live.ended:
                    new.append(self._ended_event(live, outcome, command_id, ctx.now_ms))
                pending = game.pending(state)
                new[-1] = _with_meta(new[-1], {"pending": msgspec.to_builtins(pending)})
                appended = await self.appender.append(live.stream_id, live.version, new, command_id=command_id)
            except ConcurrencyConflict as exc:
                live = await self._reload(live)
                if attempt == 2:
                    raise Conflict(
                        "VERSION_CONFLICT",
                        "The table changed under this command twice; retry it.",
                        ru="Стол изменился во время хода; повторите.",
                    ) from exc
                continue
            except BaseException:
                self.evict(live.table_id)  # never serve a half-applied state
                raise
            if appended.duplicate:
                live = await self._reload(live)
                await require_same(self.store, appended, digest)
                return live, appended.last_version, True
            live.version = appended.last_version
            live.pending_at = (live.version, pending)
            live.draw_counter = ctx.rng.counter
            live.note_facts(facts)
            live.ended = live.ended or outcome is not None
            metrics.events_appended(game.id).inc(len(new))
            self._remember(live, command_id, appended.last_version, digest)
            self._maybe_snapshot(live)
            return live, live.version, False
        raise AssertionError("unreachable")

    async def _reload(self, live: LiveTable) -> LiveTable:
        self.evict(live.table_id)
        return await self.table(live.table_id)

    @staticmethod
    def _evolve_all(game: Any, state: Any, events: Sequence[msgspec.Struct]) -> Any:
        for event in events:
            state = game.evolve(state, event)
        return state

    def _ended_event(self, live: LiveTable, outcome: Any, command_id: str, now_ms: int) -> NewEvent:
        ended = live.ended_payload(outcome, now_ms)
        return NewEvent(ENDED, 1, msgspec.json.encode(ended), {"command_id": command_id, "causation": command_id})

    def _decide(
        self,
        live: LiveTable,
        seat: int | None,
        command: msgspec.Struct,
        decision_key: str,
        for_decisions: Sequence[str] = (),
    ) -> tuple[list[msgspec.Struct], DecideContext]:
        if live.seed is None:
            raise Refused("NO_SEED", "The table's seed is missing.", ru="Нет зерна стола.")
        game = live.game
        if live.ended:
            raise Refused("GAME_OVER", "The game is over.", ru="Игра окончена.")
        timed_out = None
        if decision_key:
            timed_out = next((d for d in game.pending(live.state) if d.key == decision_key and d.seat == seat), None)
            if timed_out is None:
                raise Refused(
                    "DECISION_ALREADY_TAKEN",
                    "That decision has been taken already.",
                    ru="Это решение уже принято.",
                )
        if for_decisions:
            self._require_open(live, seat, for_decisions)
        ctx = DecideContext(
            seat=seat,
            now_ms=self.now_ms(),
            rng=DrawSource(live.seed, live.draw_counter),
            timed_out=timed_out,
        )
        events = game.decide(live.state, command, ctx)
        if not events:
            raise Refused("NOTHING_HAPPENED", "The command changes nothing.", ru="Команда ничего не меняет.")
        return events, ctx

    def _require_open(self, live: LiveTable, seat: int | None, keys: Sequence[str]) -> None:
        """The decisions a command was chosen for are all still open, their clocks running."""
        open_now = {d.key: d for d in live.pending() if d.seat == seat}
        if any(key not in open_now for key in keys):
            raise Refused(
                "DECISION_ALREADY_TAKEN",
                "That decision has been taken already.",
                ru="Это решение уже принято.",
            )
        now = self.now_ms()
        if any(open_now[key].has_clock and now >= open_now[key].deadline_ms for key in keys):
            raise Refused(
                "CLOCK_RAN_OUT",
                "The decision's clock has run out: the timer makes its move.",
                ru="Время на решение вышло: ход сделает таймер.",
            )

    def _remember(self, live: LiveTable, command_id: str, version: int, digest: str) -> None:
        live.recent[command_id] = (version, digest)
        if len(live.recent) > RECENT_LIMIT:
            live.recent.pop(next(iter(live.recent)))

    async def _reveal(self, live: LiveTable, command_id: str) -> None:
        """Append the seed reveal of a match whose end was committed without it."""
        outcome = live.game.outcome(live.state)
        event = self._ended_event(live, outcome, command_id, self.now_ms())
        appended = await self.store.append(live.stream_id, live.version, [event])
        live.version = appended.last_version
        live.ended = True
        log.info("match ended", table=live.table_id, version=live.version)

    def _maybe_snapshot(self, live: LiveTable) -> None:
        if live.version - live.last_snapshot_version < self.snapshot_every:
            return
        payload = live.snapshot()
        live.last_snapshot_version = live.version
        task = asyncio.create_task(
            self.store.save_snapshot(live.stream_id, live.version, payload, state_type=SNAPSHOT_TYPE)
        )
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ---- views -----------------------------------------------------------

    def render(self, live: LiveTable, principal: Principal, seat: int | None, role: str = "") -> ViewResult:
        game = live.game
        if not role:
            own = live.access.own_seats(principal, live.seats)
            if seat is None and own:
                seat = own[0]
            role = "seat" if seat is not None else "spectator"
        if role == "auditor":
            if not live.ended:
                raise Refused(
                    "MATCH_NOT_FINISHED",
                    "Auditors see finished matches only.",
                    ru="Аудитор видит только оконченные матчи.",
                )
            viewer = Viewer.auditor()
            seat = None
        elif role == "seat" and seat is not None:
            viewer = Viewer.of_seat(seat)
        else:
            viewer, seat, role = Viewer.spectator(), None, "spectator"
        outcome = game.outcome(live.state)
        return ViewResult(
            table_id=live.table_id,
            game=game.id,
            version=live.version,
            role=role,
            seat=seat,
            view=game.view(live.state, viewer),
            legal=game.legal(live.state, seat, self.now_ms()) if seat is not None and not live.ended else [],
            decisions=visible_decisions(live.pending(), viewer),
            finished=live.ended,
            outcome=msgspec.to_builtins(outcome) if outcome is not None else None,
            teams=live.started.teams if live.started else [],
        )

    async def view(self, principal: Principal, table_id: str, role: str = "", as_seat: int | None = None) -> ViewResult:
        live = await self.table(table_id)
        if not principal.is_service:  # the lobby's latest facts (removals, privacy)
            live = await self._latest_facts(live)
        if as_seat is not None:
            return self._seat_view(live, principal, as_seat)
        seat = None
        own = live.access.own_seats(principal, live.seats)
        if role == "seat":
            if not own:
                raise PermissionDenied(
                    "NOT_A_MEMBER", "You have no seat at this table.", ru="У вас нет места за этим столом."
                )
            seat = own[0]
        if role == "auditor" and not (principal.is_operator or principal.is_service):
            raise PermissionDenied(
                "NOT_ALLOWED", "The auditor view is for operators.", ru="Вид аудитора — для операторов."
            )
        if role == "spectator" or (role == "" and not own):
            if not own:
                live.access.require_spectator(principal)
            if not principal.is_operator:  # spectators (and the lobby for them) trail by the delay
                shown = await self.spectators.at(live, spectator_version(live))
                return self.render(shown, principal, None, "spectator")
        return self.render(live, principal, seat, role)

    async def _latest_facts(self, live: LiveTable) -> LiveTable:
        """`live` with what others (the lobby) appended to the stream before this call.

        The read runs outside the table's command lock (a view no longer waits for the commands
        queued on the table) and in one query with the other views asking at the same time
        (`FactReads`); the lock is taken only when there is something to apply, which is rare.
        """
        try:
            facts = await self.fact_reads.after(live.stream_id, live.version)
        except Exception:
            async with live.lock:
                return await self._reload(live)
        if not facts or facts[-1].version <= live.version:  # nothing, or only our own appends since
            return live
        async with live.lock:
            current = self.tables.get(live.table_id)
            if current is not live:  # reloaded meanwhile: it holds the stream as it was then
                return current or await self.table(live.table_id)
            try:
                for fact in facts:
                    if fact.version == live.version + 1:  # our own appends since the read are in already
                        live.apply_recorded(fact)
            except Exception:
                return await self._reload(live)
        return live

    def _seat_view(self, live: LiveTable, principal: Principal, seat: int) -> ViewResult:
        """One named seat's view: any seat for services, only their own for others."""
        if not principal.is_service and seat not in live.access.own_seats(principal, live.seats):
            raise PermissionDenied("NOT_YOUR_SEAT", "That seat is not yours.", ru="Это место не ваше.")
        if not any(s.seat == seat for s in live.seats):
            raise BadRequest("NO_SUCH_SEAT", f"The table has no seat {seat}.", ru=f"За столом нет места {seat}.")
        return self.render(live, principal, seat, "seat")

    # ---- housekeeping ----------------------------------------------------

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

    async def close(self) -> None:
        await self.appender.close()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        await self.leases.release_all()
