"""The lobby application: each command loads the table, decides by the
lobby's rules, appends to the table's stream, and tells the match service
what the game must know (start, presence, controller, close).

Order with the match service: effects on the game that are idempotent by
request id (controller, close) go first, then the lobby's event; presence is
the lobby's event first (the timer reads it), then the game's hook.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec
import structlog

from tablehall_lobby import events as ev
from tablehall_lobby import refusals as no
from tablehall_lobby import rules
from tablehall_lobby.chat import Chat, Message, RateLimiter
from tablehall_lobby.identity import Actor
from tablehall_lobby.match_client import MatchClient
from tablehall_lobby.pins import PinNotice, Pins, WrongPin, valid_pin
from tablehall_lobby.readmodel import Page, ReadModel
from tablehall_lobby.repository import Outcome, Tables
from tablehall_lobby.state import LobbyTable
from tablehall_platform import table_options
from tablehall_platform.errors import AlreadyExists, BadRequest, NotFound, PermissionDenied, Refused
from tablehall_platform.logs import describe
from tablehall_rules.registry import get_game

log = structlog.get_logger("lobby")

MATCH_START_ATTEMPTS = 3
# the recorded sender of presence changes (the lobby itself, from a stream opening or dropping)
PRESENCE_SENDER = "system:presence"
# the recorded sender of PIN-guessing notices (the lobby's own PIN guard)
PINS_SENDER = "system:pins"


def sender_of(actor: Actor) -> dict[str, Any]:
    """Who asked, as recorded in the metadata of the events it caused."""
    return {"actor": actor.user_id, "operator": True} if actor.is_operator else {"actor": actor.user_id}


def load_game(game_id: str) -> Any:
    """The game's rules library; UNKNOWN_GAME or GAME_NOT_INSTALLED."""
    if not game_id:
        raise BadRequest("UNKNOWN_GAME", "Name a game.", ru="Укажите игру.")
    try:
        return get_game(game_id)
    except ImportError as exc:
        raise Refused(
            "GAME_NOT_INSTALLED", f"The game {game_id!r} is not installed here.", ru="Эта игра здесь не установлена."
        ) from exc


def _known(table: LobbyTable | None, table_id: str) -> LobbyTable:
    if table is None:
        raise no.table_not_found(table_id)
    return table


class LobbyApp:
    def __init__(
        self,
        tables: Tables,
        readmodel: ReadModel,
        pins: Pins,
        chat: Chat,
        chat_limiter: RateLimiter,
        match: MatchClient,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.readmodel = readmodel
        self.pins = pins
        self.chat = chat
        self.chat_limiter = chat_limiter
        self.match = match
        self.clock = clock

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    @staticmethod
    def command_id(table_id: str, actor: Actor, request_id: str) -> str:
        if not request_id:
            raise no.request_id_required()
        return f"lobby:{table_id}:{actor.user_id}:{request_id}"

    async def _run(
        self,
        table_id: str,
        actor: Actor,
        request_id: str,
        decide: Callable[[LobbyTable], Sequence[msgspec.Struct]],
        before: Callable[[LobbyTable, Sequence[msgspec.Struct]], Any] | None = None,
    ) -> Outcome:
        async def hook(table: LobbyTable | None, events: Sequence[msgspec.Struct]) -> None:
            if before is not None:
                await before(_known(table, table_id), events)

        outcome = await self.tables.execute(
            table_id,
            self.command_id(table_id, actor, request_id),
            lambda table: decide(_known(table, table_id)),
            hook,
            sender_of(actor),
        )
        await self._tell_presence(outcome)
        return outcome

    async def _tell_presence(self, outcome: Outcome) -> None:
        """The game's AFK hook for each presence change once the match runs."""
        table = outcome.table
        if table.status != "playing":
            return
        for event in outcome.events:
            if isinstance(event, ev.PresenceChanged):
                request_id = f"presence:{event.seat}:{int(event.present)}:{table.version}"
                try:
                    await self.match.presence(table.table_id, event.seat, event.present, request_id)
                except Exception as exc:  # the event is recorded; the timer reads it from the stream
                    log.warning("presence not told to the match", table=table.table_id, error=describe(exc))

    # ---- creation and settings ----------------------------------------------

    async def create_table(
        self,
        actor: Actor,
        game_id: str,
        raw_options: Mapping[str, Any],
        seat_count: int,
        private: bool,
        pin: str,
        spectators_allowed: bool,
        request_id: str,
    ) -> LobbyTable:
        if not request_id:
            raise no.request_id_required()
        game = load_game(game_id)
        options = table_options.parse(game, raw_options)
        count = rules.check_seat_count(seat_count, game.min_seats, game.max_seats)
        if private and not valid_pin(pin):
            raise no.invalid_pin()
        # the id follows from who asked and the request id, so a retry finds the same table
        table_id = "t" + hashlib.sha256(f"{actor.user_id}\n{request_id}".encode()).hexdigest()[:15]
        created = ev.TableCreated(
            table_id, game_id, options, count, actor.user_id, actor.name, private, spectators_allowed, self.now_ms()
        )

        def decide(table: LobbyTable | None) -> list[msgspec.Struct]:
            if table is not None:
                raise AlreadyExists("TABLE_EXISTS", "That request made a table already.", ru="Стол уже создан.")
            return [created]

        if private:
            await self.pins.set(table_id, pin)
        outcome = await self.tables.execute(
            table_id, f"lobby:create:{actor.user_id}:{request_id}", decide, sender=sender_of(actor)
        )
        return outcome.table

    async def list_tables(self, game: str, include_started: bool, page_size: int, page_token: str) -> Page:
        if not 0 <= page_size <= 100:
            raise BadRequest("INVALID_PAGE_SIZE", "page_size is 1-100.", ru="page_size — от 1 до 100.")
        statuses = ["waiting", "starting", "playing"] if include_started else ["waiting"]
        return await self.readmodel.page(statuses, game, page_size or 20, page_token)

    async def get_table(self, table_id: str) -> LobbyTable:
        return await self.tables.get(table_id)

    async def update_options(self, actor: Actor, table_id: str, raw: Mapping[str, Any], request_id: str) -> LobbyTable:
        def decide(table: LobbyTable) -> list[msgspec.Struct]:
            rules.require_host(table, actor)
            options = table_options.parse(load_game(table.game), raw)
            return rules.change_options(table, actor, options, self.now_ms())

        return (await self._run(table_id, actor, request_id, decide)).table

    async def set_privacy(self, actor: Actor, table_id: str, private: bool, pin: str, request_id: str) -> LobbyTable:
        if private and not valid_pin(pin):
            raise no.invalid_pin()
        table = await self.tables.get(table_id)
        rules.change_privacy(table, actor, private, self.now_ms())  # refuse before touching the secret
        if private:
            await self.pins.set(table_id, pin)
        outcome = await self._run(
            table_id, actor, request_id, lambda t: rules.change_privacy(t, actor, private, self.now_ms())
        )
        return outcome.table

    async def set_spectator_policy(
        self,
        actor: Actor,
        table_id: str,
        allowed: bool | None,
        chat: bool | None,
        bot_seats: bool | None,
        request_id: str,
    ) -> LobbyTable:
        outcome = await self._run(
            table_id,
            actor,
            request_id,
            lambda t: rules.change_spectator_policy(t, actor, allowed, chat, bot_seats, self.now_ms()),
        )
        return outcome.table

    async def invite(self, actor: Actor, table_id: str, user_id: str, request_id: str) -> LobbyTable:
        outcome = await self._run(table_id, actor, request_id, lambda t: rules.invite(t, actor, user_id, self.now_ms()))
        return outcome.table

    # ---- people --------------------------------------------------------------

    async def _entry(
        self, actor: Actor, table_id: str, pin: str, request_id: str, decide: Callable[[LobbyTable], rules.Entry]
    ) -> LobbyTable:
        async def check_pin(table: LobbyTable, events: Sequence[msgspec.Struct]) -> None:
            if decide(table).needs_pin:
                await self.pins.check(table_id, actor.user_id, pin)

        try:
            outcome = await self._run(table_id, actor, request_id, lambda t: decide(t).events, check_pin)
        except WrongPin as wrong:
            if wrong.notice is not None:
                await self._tell_host_of_guesses(table_id, wrong.notice)
            raise wrong.refusal from None
        return outcome.table

    async def _tell_host_of_guesses(self, table_id: str, notice: PinNotice) -> None:
        """Record in the table's stream (the host reads it) that its PIN is being guessed."""
        log.warning(
            "PIN guesses limited", table=table_id, failures=notice.failures, locked_until_ms=notice.locked_until_ms
        )
        event = ev.PinGuessesLimited(notice.failures, notice.locked_until_ms, self.now_ms())
        await self.tables.execute(
            table_id, f"pins:{table_id}:{notice.failures}", lambda t: [event], sender={"actor": PINS_SENDER}
        )

    async def join(self, actor: Actor, table_id: str, pin: str, seat: int | None, request_id: str) -> LobbyTable:
        now = self.now_ms()
        return await self._entry(actor, table_id, pin, request_id, lambda t: rules.join(t, actor, seat, now))

    async def enter(self, actor: Actor, table_id: str, pin: str, request_id: str) -> LobbyTable:
        now = self.now_ms()
        return await self._entry(actor, table_id, pin, request_id, lambda t: rules.enter(t, actor, now))

    async def leave(self, actor: Actor, table_id: str, request_id: str) -> LobbyTable:
        return (await self._run(table_id, actor, request_id, lambda t: rules.leave(t, actor, self.now_ms()))).table

    async def add_bot(
        self, actor: Actor, table_id: str, seat: int | None, request_id: str, difficulty: str = "easy"
    ) -> tuple[LobbyTable, int]:
        outcome = await self._run(
            table_id, actor, request_id, lambda t: rules.add_bot(t, actor, seat, self.now_ms(), difficulty)
        )
        added = [e.seat for e in outcome.events if isinstance(e, ev.BotAdded)]
        if not added:  # a retried request: the bot it added is the latest one
            added = [
                i
                for i, s in enumerate(outcome.table.seats)
                if s is not None and s.user_id == rules.bot_id(table_id, outcome.table.bots_added)
            ]
        return outcome.table, added[0] if added else -1

    async def remove_seat(self, actor: Actor, table_id: str, seat: int, request_id: str) -> LobbyTable:
        told = False  # the match has taken the seat out: a game it ended is no reason to refuse

        async def tell_match(table: LobbyTable, events: Sequence[msgspec.Struct]) -> None:
            nonlocal told
            # once the game runs, a removed player or bot leaves it by the game's rule
            if table.started and any(isinstance(e, (ev.PlayerRemoved, ev.BotRemoved)) for e in events):
                await self.match.remove(table_id, seat, f"lobby:{actor.user_id}:{request_id}:remove")
                told = True

        outcome = await self._run(
            table_id,
            actor,
            request_id,
            lambda t: rules.remove_seat(t, actor, seat, self.now_ms(), match_told=told),
            tell_match,
        )
        return outcome.table

    async def remove_spectator(self, actor: Actor, table_id: str, user_id: str, request_id: str) -> LobbyTable:
        outcome = await self._run(
            table_id, actor, request_id, lambda t: rules.remove_spectator(t, actor, user_id, self.now_ms())
        )
        return outcome.table

    # ---- the match -----------------------------------------------------------

    async def start(self, actor: Actor, table_id: str, request_id: str) -> tuple[LobbyTable, str]:
        def decide(table: LobbyTable) -> list[msgspec.Struct]:
            game = load_game(table.game)
            options = table_options.parse(game, table.options)
            return rules.start(table, actor, options, game.min_seats, self.now_ms())

        outcome = await self._run(table_id, actor, request_id, decide)
        table = outcome.table
        if table.status not in ("starting", "playing"):
            raise no.already_started()
        # the match is started once per table: its request id is the table's, not the caller's
        for attempt in range(MATCH_START_ATTEMPTS):
            try:
                _, seed_sha256 = await self.match.start(
                    table_id, table.game, table.options, rules.roster(table), request_id="lobby"
                )
                break
            except AlreadyExists:  # the stream moved while the match appended (e.g. a presence change)
                if attempt == MATCH_START_ATTEMPTS - 1:
                    raise
            except (BadRequest, Refused, PermissionDenied) as refusal:
                # the game refused this roster: reopen the table, then say why
                await self._abort_start(actor, table_id, request_id, refusal.reason)
                raise
        table = await self.tables.get(table_id)
        log.info("table started", table=table_id, seats=len(table.seats), version=table.version)
        return table, seed_sha256

    async def _abort_start(self, actor: Actor, table_id: str, request_id: str, reason: str) -> None:
        def decide(table: LobbyTable) -> list[msgspec.Struct]:
            return [ev.StartAborted(reason, self.now_ms())] if table.status == "starting" else []

        await self._run(table_id, actor, f"{request_id}:aborted", decide)
        log.info("table start refused by the game", table=table_id, reason=reason)

    async def hand_to_bot(self, actor: Actor, table_id: str, seat: int, request_id: str) -> LobbyTable:
        async def tell_match(table: LobbyTable, events: Sequence[msgspec.Struct]) -> None:
            await self.match.controller(table_id, seat, True, f"lobby:{actor.user_id}:{request_id}:controller")

        outcome = await self._run(
            table_id, actor, request_id, lambda t: rules.hand_to_bot(t, actor, seat, self.now_ms()), tell_match
        )
        return outcome.table

    async def reclaim(self, actor: Actor, table_id: str, request_id: str) -> LobbyTable:
        async def tell_match(table: LobbyTable, events: Sequence[msgspec.Struct]) -> None:
            seat, _ = rules.reclaim(table, actor, self.now_ms())
            await self.match.controller(table_id, seat, False, f"lobby:{actor.user_id}:{request_id}:controller")

        outcome = await self._run(
            table_id, actor, request_id, lambda t: rules.reclaim(t, actor, self.now_ms())[1], tell_match
        )
        return outcome.table

    async def take_bot_seat(self, actor: Actor, table_id: str, seat: int, request_id: str) -> LobbyTable:
        async def tell_match(table: LobbyTable, events: Sequence[msgspec.Struct]) -> None:
            if table.status == "playing":
                await self.match.controller(table_id, seat, False, f"lobby:{actor.user_id}:{request_id}:controller")

        outcome = await self._run(
            table_id, actor, request_id, lambda t: rules.take_bot_seat(t, actor, seat, self.now_ms()), tell_match
        )
        return outcome.table

    async def close(self, actor: Actor, table_id: str, request_id: str) -> LobbyTable:
        async def tell_match(table: LobbyTable, events: Sequence[msgspec.Struct]) -> None:
            if table.status not in ("starting", "playing"):
                return
            try:
                await self.match.close_by_operator(table_id, f"lobby:{actor.user_id}:{request_id}:close")
            except NotFound:  # a start that never reached the match
                if table.status == "playing":
                    raise

        outcome = await self._run(
            table_id, actor, request_id, lambda t: rules.close(t, actor, self.now_ms()), tell_match
        )
        return outcome.table

    async def propose_end_for_all(self, actor: Actor, table_id: str, request_id: str) -> tuple[int, bool]:
        """The host's ■ through the match's ControlTable, with the host's seat if seated: the game
        decides whether that seat still plays (then it proposes as a player) or the host proposes."""
        command_id = self.command_id(table_id, actor, request_id)
        table = await self.tables.get(table_id)
        rules.require_host(table, actor, operator_too=False)
        rules.require_playing(table)
        version, duplicate, applied = await self.match.host_propose_end(
            table_id, table.seat_of(actor.user_id), f"{command_id}:end"
        )
        if not applied:
            raise Refused("NO_END_VOTE", "This game has no end for all.", ru="В этой игре нельзя закончить для всех.")
        return version, duplicate

    async def set_presence(self, table_id: str, user_id: str, present: bool) -> None:
        """Record that a seated user came (stream opened) or went (dropped)."""
        now = self.now_ms()

        def decide(table: LobbyTable) -> list[msgspec.Struct]:
            seat = table.seat_of(user_id)
            if seat is None or table.status == "starting":
                return []
            return rules.presence(table, seat, present, now)

        # presence has no client request id: each change is its own command
        command_id = f"presence:{table_id}:{user_id}:{int(present)}:{now}:{time.perf_counter_ns()}"
        outcome = await self.tables.execute(
            table_id, command_id, lambda t: decide(_known(t, table_id)), sender={"actor": PRESENCE_SENDER}
        )
        await self._tell_presence(outcome)

    # ---- viewing and playing -------------------------------------------------

    def require_view(self, table: LobbyTable, actor: Actor) -> None:
        if actor.is_operator or table.may_view(actor.user_id):
            return
        if actor.user_id in table.removed_spectators or actor.user_id in table.removed_players:
            raise no.spectator_removed()
        if not table.spectators_allowed:
            raise no.spectators_not_allowed()
        raise no.pin_required()

    async def seat_for_play(self, actor: Actor, table_id: str) -> int:
        table = await self.tables.get(table_id)
        rules.require_playing(table)
        seat = rules.own_seat(table, actor)
        occupant = table.seats[seat]
        if occupant is not None and occupant.by_bot:
            raise Refused(
                "SEAT_PLAYED_BY_BOT", "A bot plays your seat; reclaim it first.", ru="Ваше место у бота; заберите его."
            )
        return seat

    async def watchable(self, actor: Actor, table_id: str) -> LobbyTable:
        table = await self.tables.get(table_id)
        self.require_view(table, actor)
        if table.status not in ("playing", "finished", "closed"):
            raise no.not_started()
        return table

    # ---- chat ----------------------------------------------------------------

    async def post_chat(self, actor: Actor, table_id: str, text: str, request_id: str) -> Message:
        if not request_id:
            raise no.request_id_required()
        cleaned = rules.chat_text(text)
        table = await self.tables.get(table_id)
        seat = rules.chat_seat(table, actor)
        self.chat_limiter.hit((table_id, actor.user_id))
        posted = ev.MessagePosted(actor.user_id, actor.name, seat, cleaned, self.now_ms())
        return await self.chat.post(table_id, posted, f"chat:{table_id}:{actor.user_id}:{request_id}")

    async def chat_page(self, actor: Actor, table_id: str, after: str, size: int) -> tuple[list[Message], str]:
        if not 0 <= size <= 200:
            raise BadRequest("INVALID_PAGE_SIZE", "page_size is 1-200.", ru="page_size — от 1 до 200.")
        table = await self.tables.get(table_id)
        self.require_view(table, actor)
        return await self.chat.page(table_id, after, size or 50)

    async def catch_up_running(self) -> int:
        """Bring the listing rows of running tables up to their streams (a match
        that ended by itself)."""
        behind = await self.readmodel.behind()
        for table_id in behind:
            await self.tables.load(table_id)
        return len(behind)
