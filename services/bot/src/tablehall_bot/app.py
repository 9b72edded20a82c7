"""The bot service's application: from a table's notification to a move.

For a table it is told about, it reads the table's stream (who plays which
seat, the open decisions, the game's state), and for every seat a bot plays
with a decision open it renders that seat's view and legal commands from the
state folded here, through the game's own `view` and `legal` as the match
would (after a refusal, and where the stream could not be folded here, it
asks the match for them instead), thinks
(a strong bot's search in a worker thread, bounded by the think time; the
easy and random players' heuristics on the event loop, as they take about a
millisecond) and submits the move with a
request id made of the decision key and the view's version, so a retry or a
second instance thinking about the same moment never acts twice. The move
names the seat's open decisions it was chosen for, so the match refuses it
when any of them closed while we thought (the timer played the default, the
decision was taken); such a move, and any the state outran (not our turn,
version conflict), is re-read and decided again while a decision is still
ours. A decision whose clock ran out is the timer's: the bot leaves it. A
seat whose player finds no move (only leaving is legal) makes none: a bot
never leaves a game on its own.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Sequence

import msgspec
import structlog

from tablehall_bot import metrics
from tablehall_bot.feed import Feed, Notification
from tablehall_bot.gate import DeadlineGate
from tablehall_bot.local_view import folded_view
from tablehall_bot.match_client import Answer, MatchClient, SeatView
from tablehall_bot.players import Difficulty, Player
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.search.ismcts import SearchSettings
from tablehall_bot.seats import SEAT_EVENTS, BotSeat, earliest_deadline_ms, open_decisions
from tablehall_bot.settings import BotSettings
from tablehall_bot.tables import Tables, table_id
from tablehall_rules import NoMove, PendingDecision
from tablehall_rules.registry import get_game

log = structlog.get_logger("bot")
ATTEMPTS = 4
RETRY_PAUSE_S = 0.2
# a table whose bot decisions' clocks are unknown here (a catch-up, a reaction window) waits its turn
# as a decision of this clock would
UNKNOWN_CLOCK_MS = 30_000
SEATS_GAUGE_EVERY_S = 1.0


def request_id(decision_key: str, version: int) -> str:
    return f"bot:{decision_key}:{version}"


def _version(note: Notification) -> int:
    env = note.envelope
    return env.version if env is not None else 0


def clock_ran_out(decisions: Sequence[PendingDecision], seat: int, now_ms: int) -> bool:
    """Whether a decision of `seat` has run out its clock (`PendingDecision.clock_ran_out`, the
    rule of the match's `require_open`)."""
    return any(d.seat == seat and d.clock_ran_out(now_ms) for d in decisions)


class BotApp:
    def __init__(self, tables: Tables, match: MatchClient, feed: Feed, settings: BotSettings) -> None:
        self.tables = tables
        self.match = match
        self.feed = feed
        self.settings = settings
        self.search = SearchSettings(think_ms=settings.think_ms)
        # a paced (demo) table is a showcase left running: its strong bots think briefly, so an idle
        # `make run` costs little (the search still plays; fewer samples overrule its heuristic less)
        self.paced_search = SearchSettings(think_ms=settings.demo_think_ms)
        self._slots = DeadlineGate(settings.concurrency)
        # per table, the newest notification not yet acted on (None: look without one, the catch-up)
        self._waiting: dict[str, Notification | None] = {}
        self._running: dict[str, asyncio.Task[None]] = {}
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._acks: set[asyncio.Task[None]] = set()  # acknowledgements of superseded notifications
        self.rng = random.Random(os.urandom(16))
        self._paced: dict[str, float] = {}  # table id -> seconds a bot waits before each move there
        self._seats_counted = float("-inf")

    # ---- life ---------------------------------------------------------------

    async def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._run()))
        self._tasks.append(asyncio.create_task(self._keep_waiting_notifications()))

    async def _run(self) -> None:
        if not await self.feed.connect(self._stop):
            return
        for unfinished in await self.tables.unfinished():  # catch up: tables that started before us
            metrics.notifications("catch_up").inc()
            self.notify(unfinished, None)
        async for note in self.feed.notifications(self._stop):
            env = note.envelope
            table = table_id(env.stream_id) if env is not None else None
            if env is None or table is None:
                await note.ack()
                continue
            for each in note.envelopes:  # one event, or the events of one command in order
                self.tables.observe(
                    table, each.version, each.type, bytes(each.payload), each.metadata, each.schema_version
                )
            if not any("pending" in e.metadata or e.type in SEAT_EVENTS for e in note.envelopes):
                await note.ack()
                continue
            metrics.notifications("nats").inc()
            self.notify(table, note)

    async def close(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._tasks, *self._running.values(), *self._acks, return_exceptions=True)
        await self.feed.close()
        await self.match.close()

    # ---- one table at a time per instance -------------------------------------

    def notify(self, table: str, note: Notification | None) -> None:
        """Look at `table` soon; its notification is acknowledged once it has been looked at.

        A table waiting to be looked at keeps only its newest notification: the look reads the
        table up to it, so an older one is acted on by that look and acknowledged at once. A
        redelivery of the one kept replaces it unacknowledged (it is the same message: the look
        acknowledges it once)."""
        held = self._waiting.get(table)
        if held is not None and note is not None and _version(note) < _version(held):
            held, note = note, held  # a late redelivery of an older one: keep the newest
        if held is not None and note is not None and _version(held) < _version(note):
            self._ack_soon(held)
        if note is not None or table not in self._waiting:
            self._waiting[table] = note
        if table not in self._running:
            self._running[table] = asyncio.create_task(self._work(table))

    def _ack_soon(self, note: Notification) -> None:
        task = asyncio.create_task(note.ack())
        self._acks.add(task)
        task.add_done_callback(self._acks.discard)

    async def _work(self, table: str) -> None:
        try:
            while table in self._waiting:
                # earliest clock first: the table's notification waits in `_waiting` until its slot
                async with self._slots.slot(self.deadline_ms(table)):
                    note = self._waiting.pop(table)
                    try:
                        # the newest event notified: the fold need not be read when it has come that far
                        await self.handle(table, _version(note) if note is not None else None)
                    except Exception:
                        log.exception("table handling failed", table=table)
                if note is not None:
                    await note.ack()
        finally:
            self._running.pop(table, None)

    def deadline_ms(self, table: str) -> int:
        """When the first clock of a bot seat's decision at `table` runs out, as far as this
        instance knows (the fold, else the notification's `pending`); a table without one waits
        as a decision of `UNKNOWN_CLOCK_MS` would."""
        seats = self.tables.folded(table)
        note = self._waiting.get(table)
        if seats is not None and (note is None or seats.version >= _version(note)):
            deadline = seats.bot_deadline_ms()
        else:
            pending = [e.metadata["pending"] or [] for e in (note.envelopes if note else []) if "pending" in e.metadata]
            bots = {s.seat for s in seats.bot_seats()} if seats is not None else None
            deadline = earliest_deadline_ms(open_decisions(pending[-1]), bots) if pending else None
        return deadline if deadline is not None else int(time.time() * 1000) + UNKNOWN_CLOCK_MS

    async def _keep_waiting_notifications(self) -> None:
        """Progress acks for the notifications waiting their turn: behind a backlog, JetStream would
        otherwise hand each out again every ack wait. One is sent when 60 % of the ack wait has
        passed since JetStream last heard of the notification (checked every fifth of it): late
        enough to send few (behind 5,000 tables, one a notification every 3-4 s), early enough to
        come before the redelivery."""
        wait = self.settings.ack_wait_seconds
        while not self._stop.is_set():
            await asyncio.sleep(wait / 5)
            now = time.monotonic()
            for note in [n for n in self._waiting.values() if n is not None and now - n.heard >= wait * 0.6]:
                await note.still_working()

    async def handle(self, table: str, at_least: int | None = None) -> None:
        """Play every bot seat of `table` with a decision open (`at_least`: the newest version
        notified, which the seats must have been folded to; None: read them up to the latest)."""
        seats = await self.tables.seats(table, at_least)
        for seat, _keys in seats.waiting_seats():
            if await self.play(table, seats.game, seat):
                # one move a pass: its events come back as a notification, and the other seats
                # decide on the state after it (decided on the fold before it, a simultaneous
                # decision the move changed, e.g. an auction's next bid, would be refused)
                break
        now = time.monotonic()
        if now - self._seats_counted >= SEATS_GAUGE_EVERY_S:  # a count over every table: not on each move
            self._seats_counted = now
            metrics.SEATS_PLAYED.set(self.tables.seats_played())
            metrics.TABLES_WAITING.set(self._slots.waiting)

    def pace(self, table: str, seconds: float) -> None:
        """Play `table` at a human pace: wait `seconds` before each move (0: full speed)."""
        if seconds > 0:
            self._paced[table] = seconds
        else:
            self._paced.pop(table, None)

    def search_for(self, table: str) -> SearchSettings:
        """A strong bot's search at `table`: brief at a paced (demo) table."""
        return self.paced_search if table in self._paced else self.search

    # ---- one seat's move ------------------------------------------------------

    async def play(self, table: str, game: str, seat: BotSeat) -> bool:
        """Move for `seat` if it has a decision; whether the match took a move of ours."""
        pause = self._paced.get(table)
        if pause:
            await asyncio.sleep(pause)  # before reading the view, so the move is made from the newest one
        if self._ran_out(table, seat, game):
            return False  # seen from the fold, before a view is rendered (behind a backlog, many are)
        for attempt in range(ATTEMPTS):
            # the first try from the state folded here; after a refusal, the match's own view
            view = (self.local_view(table, seat.seat) if attempt == 0 else None) or await self.match.seat_view(
                table, seat.seat
            )
            mine = sorted(d.key for d in view.decisions if d.seat == seat.seat)
            if view.finished or not mine or not view.any_legal:
                return False
            if clock_ran_out(view.decisions, seat.seat, int(time.time() * 1000)):
                # the match would refuse the move (CLOCK_RAN_OUT) and the timer plays the default:
                # not decided at all (behind a backlog, deciding them cost the server its capacity)
                metrics.decisions(view.game, seat.difficulty, Answer.LATE.value).inc()
                return False
            # the seat may have changed hands while we read: follow the stream
            current = {s.seat: s for s in (await self.tables.seats(table, view.version)).bot_seats()}
            if seat.seat not in current:
                return False
            answer = await self._move(view, current[seat.seat], request_id(mine[0], view.version), mine)
            if answer is not Answer.STALE and answer is not Answer.RETRY:
                return answer is Answer.MADE or answer is Answer.DUPLICATE
            await asyncio.sleep(RETRY_PAUSE_S if answer is Answer.RETRY else 0)
        return False

    def _ran_out(self, table: str, seat: BotSeat, game: str) -> bool:
        """Whether the fold shows a clock of `seat` has run out (then counted as late: the timer plays it)."""
        seats = self.tables.folded(table)
        if seats is None or not clock_ran_out(seats.decisions, seat.seat, int(time.time() * 1000)):
            return False
        metrics.decisions(game, seat.difficulty, Answer.LATE.value).inc()
        return True

    def local_view(self, table: str, seat: int) -> SeatView | None:
        seats = self.tables.folded(table) if self.settings.local_views else None
        view = folded_view(table, seats, seat, int(time.time() * 1000)) if seats is not None else None
        if view is not None:
            metrics.views("local").inc()
        return view

    async def _move(self, view: SeatView, seat: BotSeat, rid: str, decisions: list[str]) -> Answer:
        difficulty = Difficulty(seat.difficulty)
        player = Player(
            GameHooks(get_game(view.game)),
            difficulty,
            random.Random(self.rng.getrandbits(64)),
            self.search_for(view.table),
        )

        def legal() -> list[msgspec.Struct]:
            # spelled out only if the player reads them (not an easy bot deciding on descriptors)
            return view.legal

        started = time.perf_counter()
        try:
            if difficulty is Difficulty.STRONG or self.settings.heuristics_in_thread:  # off the event loop
                choice = await asyncio.to_thread(player.choose_on, view.view, view.seat, legal, view.moves)
            else:  # a heuristic answers in about a millisecond: a thread hop would cost more
                choice = player.choose_on(view.view, view.seat, legal, view.moves)
        except NoMove:  # nothing but leaving is legal: that is never a bot's choice
            log.info("no move for a bot", table=view.table, seat=view.seat, version=view.version)
            return Answer.REFUSED
        metrics.think_seconds(view.game, difficulty.value).observe(time.perf_counter() - started)
        answer = await self.match.submit(view.table, view.game, view.seat, choice.command, rid, decisions)
        if answer in (Answer.REFUSED, Answer.FAILED):
            log.warning("move not made", table=view.table, seat=view.seat, error=self.match.last_error)
        metrics.decisions(view.game, difficulty.value, answer.value).inc()
        return answer
