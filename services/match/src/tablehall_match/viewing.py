"""Views and legal moves: what a seat, a spectator (delayed) or an auditor sees of a table, with
the lobby's newest facts (removals, privacy) applied first."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from tablehall_match.fact_reads import FactReads
from tablehall_match.hosting import TableHost
from tablehall_match.live_table import LiveTable
from tablehall_match.results import ViewResult
from tablehall_match.spectator import spectator_version
from tablehall_platform.auth import Principal
from tablehall_platform.errors import BadRequest, PermissionDenied, Refused
from tablehall_rules import Viewer
from tablehall_rules.disclosure import visible_decisions


class Views:
    def __init__(self, host: TableHost, fact_reads: FactReads, now_ms: Callable[[], int]) -> None:
        self.host = host
        # the views' reads of the lobby's newest facts, many tables a query
        self.fact_reads = fact_reads
        self.now_ms = now_ms

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
        live = await self.host.table(table_id)
        if not principal.is_service:  # the lobby's latest facts (removals, privacy)
            live = await self._latest_facts(live)
        live = await self._settled(live)  # nothing below awaits before rendering the seat's view
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
                shown = await self.host.spectators.at(live, spectator_version(live))
                return self.render(shown, principal, None, "spectator")
        return self.render(live, principal, seat, role)

    async def _settled(self, live: LiveTable) -> LiveTable:
        """`live` once no command's events are half way between its state and its version
        (applied to the state, not yet appended): the table this instance holds then."""
        while not live.settled.is_set():
            await live.settled.wait()
            current = self.host.tables.get(live.table_id)
            if current is not live:  # the command failed and the copy was dropped
                live = current or await self.host.table(live.table_id)
        return live

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
                return await self.host.reload(live)
        if not facts or facts[-1].version <= live.version:  # nothing, or only our own appends since
            return live
        async with live.lock:
            current = self.host.tables.get(live.table_id)
            if current is not live:  # reloaded meanwhile: it holds the stream as it was then
                return current or await self.host.table(live.table_id)
            try:
                for fact in facts:
                    if fact.version == live.version + 1:  # our own appends since the read are in already
                        live.apply_recorded(fact)
            except Exception:
                return await self.host.reload(live)
        return live

    def _seat_view(self, live: LiveTable, principal: Principal, seat: int) -> ViewResult:
        """One named seat's view: any seat for services, only their own for others."""
        if not principal.is_service and seat not in live.access.own_seats(principal, live.seats):
            raise PermissionDenied("NOT_YOUR_SEAT", "That seat is not yours.", ru="Это место не ваше.")
        if not any(s.seat == seat for s in live.seats):
            raise BadRequest("NO_SUCH_SEAT", f"The table has no seat {seat}.", ru=f"За столом нет места {seat}.")
        return self.render(live, principal, seat, "seat")
