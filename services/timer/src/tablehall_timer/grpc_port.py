"""The gRPC face of the timer: its schedule, read-only (the only module importing timer_pb2)."""

from __future__ import annotations

import base64
import binascii
from typing import Any

import grpc

from tablehall.timer.v1 import timer_pb2, timer_pb2_grpc
from tablehall_platform.auth import Principal, current_principal
from tablehall_platform.errors import BadRequest, NotFound, PermissionDenied, Unauthenticated
from tablehall_platform.names import TABLE_NAME, parse_table
from tablehall_platform.table_access import read_access, require_live_facts
from tablehall_rules import Viewer
from tablehall_rules.disclosure import visible_decisions
from tablehall_timer.schedule import TableClock
from tablehall_timer.scheduler import Scheduler

DEFAULT_PAGE = 100
MAX_PAGE = 1000


def _principal() -> Principal:
    principal = current_principal.get()
    if principal is None:
        raise Unauthenticated("TOKEN_MISSING", "Not signed in.", ru="Вход не выполнен.")
    return principal


def encode_token(table_id: str) -> str:
    return base64.urlsafe_b64encode(f"after:{table_id}".encode()).decode()


def decode_token(token: str) -> str:
    """The table id a page token continues after ('' for the first page)."""
    if not token:
        return ""
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        text = ""
    if not text.startswith("after:") or not TABLE_NAME.fullmatch(f"tables/{text[6:]}"):
        raise BadRequest(
            "INVALID_PAGE_TOKEN", "The page token is not one this service gave.", ru="Неверный page_token."
        )
    return text[6:]


def viewer_of(principal: Principal, table: TableClock) -> Viewer:
    """Operators and services see every clock; a player, the clocks their seat may know of."""
    if principal.is_service or principal.is_operator:
        return Viewer.auditor()
    seats = [seat for seat, user in enumerate(table.seat_users) if user == principal.user_id]
    return Viewer.of_seat(seats[0]) if seats else Viewer.spectator()


def clocks_to_proto(table: TableClock, idle_ms: int, viewer: Viewer) -> timer_pb2.TableClocks:
    still = table.standing_still
    shown = [d for d in visible_decisions(table.decisions, viewer) if d.has_clock]
    return timer_pb2.TableClocks(
        table=f"tables/{table.table_id}",
        state=timer_pb2.TABLE_STATE_STANDING_STILL if still else timer_pb2.TABLE_STATE_RUNNING,
        clocks=[
            timer_pb2.Clock(
                decision_key=d.key,
                seat=d.seat,
                kind=d.kind,
                clock=d.clock,
                opened_at_unix_ms=d.opened_at_ms,
                clock_ms=d.clock_ms,
                deadline_unix_ms=d.deadline_ms,
                fires_at_unix_ms=0 if still else table.fires_at_ms(d),
            )
            for d in shown
        ],
        last_move_unix_ms=table.last_move_ms,
        idle_close_at_unix_ms=table.idle_close_at_ms(idle_ms),
    )


class TimerServicer(timer_pb2_grpc.TimerServiceServicer):  # type: ignore[misc]
    def __init__(self, scheduler: Scheduler, pool: Any) -> None:
        self.scheduler = scheduler
        self.pool = pool  # the event store's, for the table's access facts

    async def GetTableClocks(
        self, request: timer_pb2.GetTableClocksRequest, context: grpc.aio.ServicerContext
    ) -> timer_pb2.GetTableClocksResponse:
        principal = _principal()
        table_id = parse_table(request.table)
        require_live_facts(await read_access(self.pool, table_id), principal)
        table = self.scheduler.tables.get(table_id)
        if table is None or not table.started:
            raise NotFound(
                "TABLE_NOT_SCHEDULED",
                f"No unfinished match at tables/{table_id}.",
                ru="Нет идущего матча за этим столом.",
            )
        return timer_pb2.GetTableClocksResponse(
            clocks=clocks_to_proto(table, self.scheduler.idle_ms, viewer_of(principal, table))
        )

    async def ListTableClocks(
        self, request: timer_pb2.ListTableClocksRequest, context: grpc.aio.ServicerContext
    ) -> timer_pb2.ListTableClocksResponse:
        principal = _principal()
        if not (principal.is_operator or principal.is_service):
            raise PermissionDenied(
                "NOT_ALLOWED", "Listing every table's clocks is for operators.", ru="Список часов — для операторов."
            )
        if not 0 <= request.page_size <= MAX_PAGE:
            raise BadRequest(
                "INVALID_PAGE_SIZE", f"page_size must be 0..{MAX_PAGE}.", ru=f"page_size: от 0 до {MAX_PAGE}."
            )
        size = request.page_size or DEFAULT_PAGE
        after = decode_token(request.page_token)
        ids = sorted(t for t, clock in self.scheduler.tables.items() if clock.started and t > after)
        page = ids[:size]
        tables = [clocks_to_proto(self.scheduler.tables[t], self.scheduler.idle_ms, Viewer.auditor()) for t in page]
        token = encode_token(page[-1]) if len(ids) > size else ""
        return timer_pb2.ListTableClocksResponse(tables=tables, next_page_token=token)


def register(servicer: TimerServicer) -> Any:
    def add(server: grpc.aio.Server) -> str:
        timer_pb2_grpc.add_TimerServiceServicer_to_server(servicer, server)
        return str(timer_pb2.DESCRIPTOR.services_by_name["TimerService"].full_name)

    return add
