"""Submitting commands: a seat's (or the table's) command, a run-out clock's default move, and a
dry run that says whether a command would be accepted now. Each runs one at a time per table
(the table's lock) and answers with the version and, when asked, the sender's view."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec
import structlog

from tablehall_match.authorization import authorize
from tablehall_match.committing import Committer
from tablehall_match.hosting import HeldElsewhere, TableHost
from tablehall_match.live_table import LiveTable
from tablehall_match.results import CheckResult, SubmitResult, ViewResult
from tablehall_platform import metrics
from tablehall_platform.auth import Principal
from tablehall_platform.errors import BadRequest, PermissionDenied, Refused, ServiceError
from tablehall_rules import DecideContext, DrawSource, RuleError, new_seed

log = structlog.get_logger("match")

Render = Callable[[LiveTable, Principal, int | None], ViewResult]


class Submitter:
    def __init__(self, host: TableHost, committer: Committer, render: Render, now_ms: Callable[[], int]) -> None:
        self.host = host
        self.committer = committer
        self.render = render
        self.now_ms = now_ms

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
        live = await self.host.table(table_id)
        game_id = live.started.game if live.started else "?"
        outcome = "ok"
        try:
            if seat is not None and not 0 <= seat < len(live.seats):
                raise BadRequest("NO_SUCH_SEAT", f"Seat {seat} does not exist.", ru="Такого места нет.")
            authorize(principal, live, seat, decision_key)
            command_id = f"{table_id}:{principal.user_id}:{request_id}"
            async with live.lock:
                live = self.host.tables.get(table_id) or await self.host.table(table_id)
                live, version, duplicate = await self.committer.commit(
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
        live = await self.host.table(table_id)
        command_id = f"{table_id}:{principal.user_id}:{request_id}"
        async with live.lock:
            live = self.host.tables.get(table_id) or await self.host.table(table_id)
            if command_id in live.recent:
                return self._answer(live, principal, None, live.recent[command_id][0], True, with_view)
            decision = next((d for d in live.game.pending(live.state) if d.key == decision_key), None)
            if decision is not None and not decision.has_clock:
                raise Refused("NO_CLOCK", "That decision has no clock to run out.", ru="У этого решения нет часов.")
            if decision is None:
                earlier = await self.committer.store.command_result(command_id)
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
            live, version, duplicate = await self.committer.commit(
                live, principal, seat, command, command_id, decision_key
            )
        return self._answer(live, principal, seat, version, duplicate, with_view)

    async def check(
        self, principal: Principal, table_id: str, seat: int | None, command: msgspec.Struct
    ) -> CheckResult:
        """Whether `command` would be accepted now, deciding it on the live state
        without keeping anything: the draws come from a throwaway seed, so a check
        reveals nothing of the table's own."""
        live = await self.host.table(table_id)
        async with live.lock:
            live = self.host.tables.get(table_id) or await self.host.table(table_id)
            try:
                if seat is not None and not 0 <= seat < len(live.seats):
                    raise BadRequest("NO_SUCH_SEAT", f"Seat {seat} does not exist.", ru="Такого места нет.")
                authorize(principal, live, seat, "")
                if live.ended:
                    raise Refused("GAME_OVER", "The game is over.", ru="Игра окончена.")
                ctx = DecideContext(seat=seat, now_ms=self.now_ms(), rng=DrawSource(new_seed()))
                if not live.game.decide(live.state, command, ctx):
                    raise Refused("NOTHING_HAPPENED", "The command changes nothing.", ru="Команда ничего не меняет.")
            except (RuleError, Refused, BadRequest) as refusal:
                return CheckResult(live.version, refusal)
            return CheckResult(live.version, None)
