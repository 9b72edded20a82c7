"""The gRPC face of the match service: protos in, app calls, protos out."""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import AsyncIterator
from typing import Any

import grpc
import msgspec
import structlog
from google.protobuf.message import Message
from google.rpc import code_pb2, status_pb2

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_match.app import HeldElsewhere, MatchApp, SubmitResult, ViewResult
from tablehall_platform.auth import Principal, current_principal
from tablehall_platform.errors import (
    BadRequest,
    Conflict,
    Relayed,
    ServiceError,
    Unauthenticated,
    Unavailable,
    as_refusal,
    status_proto,
)
from tablehall_platform.input_policy import InputLimits, check_request
from tablehall_platform.names import options_from_json, parse_table
from tablehall_rules import SeatInfo, encode_view
from tablehall_rules.errors import RuleError
from tablehall_rules.legal import expand_all
from tablehall_stream.codecs import command_codec
from tablehall_stream.proto_games import command_from_proto, command_to_proto, decision_to_proto, legal_moves_to_proto

log = structlog.get_logger("match")

ROLE_NAMES = {
    match_pb2.VIEWER_ROLE_UNSPECIFIED: "",
    match_pb2.VIEWER_ROLE_SEAT: "seat",
    match_pb2.VIEWER_ROLE_SPECTATOR: "spectator",
    match_pb2.VIEWER_ROLE_AUDITOR: "auditor",
}
ROLE_VALUES = {v: k for k, v in ROLE_NAMES.items() if v}
FORWARDED = "x-tablehall-forwarded"
# set while a call whose holder did not answer is handled here once more
_came_back: contextvars.ContextVar[bool] = contextvars.ContextVar("came_back", default=False)
# Commands in flight (or answered, not yet handed to gRPC) per SubmitCommands
# stream; beyond it the stream stops reading.
STREAM_IN_FLIGHT = 256
# How long a stopping server waits for its command streams to answer what they hold.
DRAIN_SECONDS = 5.0
# ListLegalCommands: the default and largest page, and the most commands one list spells out
LEGAL_PAGE_DEFAULT = 100
LEGAL_PAGE_MAX = 1000
LEGAL_LIST_MAX = 100_000


def _stopping() -> Unavailable:
    return Unavailable(
        "SERVER_STOPPING",
        "This server is stopping; open a new stream.",
        ru="Сервер останавливается; откройте новый поток.",
    )


def _principal() -> Principal:
    principal = current_principal.get()
    if principal is None:
        raise Unauthenticated("TOKEN_MISSING", "Not signed in.", ru="Вход не выполнен.")
    return principal


def view_to_proto(view: ViewResult) -> match_pb2.TableView:
    out = match_pb2.TableView()
    fill_view(out, view)
    return out


def fill_view(out: match_pb2.TableView, view: ViewResult) -> None:
    """`view` written into `out` (an empty TableView, e.g. a field of the answer: no copy)."""
    out.table = f"tables/{view.table_id}"
    out.game = view.game
    out.version = view.version
    out.role = ROLE_VALUES.get(view.role, match_pb2.VIEWER_ROLE_UNSPECIFIED)
    out.seat = view.seat if view.seat is not None else -1
    out.view_json = encode_view(view.view).decode()
    if view.legal:
        out.legal_moves.extend(legal_moves_to_proto(view.game, view.legal))
    if view.decisions:
        out.decisions.extend([decision_to_proto(d) for d in view.decisions])
    out.finished = view.finished
    if view.outcome is not None:
        out.outcome_json = msgspec.json.encode(view.outcome).decode()
    for seats in view.teams:
        out.teams.add(seats=seats)


def answer_to_proto(
    table: str, game: str, outcome: SubmitResult, into: match_pb2.SubmitCommandResponse | None = None
) -> match_pb2.SubmitCommandResponse:
    """The answer to a command: the whole view, or only the version when the caller chose so;
    written into `into` (an empty answer) when given."""
    out = match_pb2.SubmitCommandResponse() if into is None else into
    out.view.SetInParent()  # the answer always carries a view (and `into` is set in its parent)
    out.version = outcome.version
    out.duplicate = outcome.duplicate
    if outcome.view is not None:
        fill_view(out.view, outcome.view)
    else:
        view = out.view
        view.table = table
        view.game = game
        view.version = outcome.version
        view.finished = outcome.finished
        view.seat = -1
    return out


def _page_offset(token: str, version: int) -> int:
    if not token:
        return 0
    at, _, offset = token.partition(":")
    if not (at.isdigit() and offset.isdigit()):
        raise BadRequest(
            "INVALID_PAGE_TOKEN", "The page token is not one this service gave.", ru="Неверный page_token."
        )
    if int(at) != version:
        raise Conflict(
            "TABLE_CHANGED",
            "The table changed since the first page; list again from the start.",
            ru="Стол изменился; начните список заново.",
        )
    return int(offset)


class MatchServicer(match_pb2_grpc.MatchServiceServicer):  # type: ignore[misc]
    def __init__(self, app: MatchApp) -> None:
        self.app = app
        self.limits = InputLimits()
        self._channels: dict[str, grpc.aio.Channel] = {}
        self._readers: set[asyncio.Task[None]] = set()  # of the open SubmitCommands streams
        self._draining = False

    async def drain(self) -> None:
        """The process is stopping: open command streams stop reading, answer what
        they hold, then end with UNAVAILABLE (SERVER_STOPPING) so their clients
        reconnect elsewhere; new ones are refused the same way."""
        self._draining = True
        readers = set(self._readers)
        for reader in readers:
            reader.cancel()
        if readers:
            await asyncio.wait(readers, timeout=DRAIN_SECONDS)

    async def _forward(self, address: str, method: str, request: Any, context: grpc.aio.ServicerContext) -> Any:
        metadata = dict(context.invocation_metadata() or ())
        if metadata.get(FORWARDED):
            raise Unavailable(
                "TABLE_WRITER_UNREACHABLE",
                "The table's writer moved; retry shortly.",
                ru="Стол переезжает; повторите.",
            )
        channel = self._channels.get(address)
        if channel is None:
            channel = grpc.aio.insecure_channel(address)
            self._channels[address] = channel
        stub = match_pb2_grpc.MatchServiceStub(channel)
        call_metadata = [(FORWARDED, "1")]
        if "authorization" in metadata:
            call_metadata.append(("authorization", str(metadata["authorization"])))
        try:
            return await getattr(stub, method)(request, metadata=call_metadata, timeout=10)
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.UNAVAILABLE and not _came_back.get():
                # the holder is stopping (a drain releases its leases) or gone: the lease may be
                # free now, so handle the call here once more (take the table, or forward anew)
                token = _came_back.set(True)
                try:
                    return await getattr(self, method)(request, context)
                finally:
                    _came_back.reset(token)
            if exc.code() == grpc.StatusCode.UNAVAILABLE:
                raise Unavailable(
                    "TABLE_WRITER_UNREACHABLE",
                    "The table's writer does not answer; retry shortly.",
                    ru="Стол не отвечает; повторите.",
                ) from exc
            raise Relayed.from_call(exc) from exc

    async def StartMatch(
        self, request: match_pb2.StartMatchRequest, context: grpc.aio.ServicerContext
    ) -> match_pb2.StartMatchResponse:
        table_id = parse_table(request.table)
        options = options_from_json(request.options_json)
        seats = [SeatInfo(s.seat, s.user_id, s.name or s.user_id, s.is_bot) for s in request.seats]
        version, seed_hash = await self.app.start_match(
            _principal(), table_id, request.game, options, seats, request.request_id
        )
        return match_pb2.StartMatchResponse(table=request.table, version=version, seed_sha256=seed_hash)

    def _check_input(self, inner: Message) -> None:
        check_request(inner, self.limits)

    async def SubmitCommand(
        self, request: match_pb2.SubmitCommandRequest, context: grpc.aio.ServicerContext
    ) -> match_pb2.SubmitCommandResponse:
        return await self._submit(_principal(), request, context)

    async def _submit(
        self,
        principal: Principal,
        request: match_pb2.SubmitCommandRequest,
        context: grpc.aio.ServicerContext,
        into: match_pb2.SubmitCommandResponse | None = None,
    ) -> match_pb2.SubmitCommandResponse:
        """The answer to one command, written into `into` (an empty answer) when given."""
        table_id = parse_table(request.table)
        try:
            live = await self.app.table(table_id)
            command = command_from_proto(live.game.id, request.command, self._check_input)
            seat = None if request.as_table else request.seat
            with_view = request.response_view != match_pb2.RESPONSE_VIEW_MINIMAL
            outcome = await self.app.submit(
                principal,
                table_id,
                seat,
                command,
                request.request_id,
                request.decision_key,
                with_view=with_view,
                for_decisions=list(request.for_decisions),
            )
        except HeldElsewhere as moved:  # not ours, or it moved (a drain, a lost lease) before deciding
            result: match_pb2.SubmitCommandResponse = await self._forward(
                moved.address, "SubmitCommand", request, context
            )
            if into is not None:
                into.CopyFrom(result)
                return into
            return result
        return answer_to_proto(request.table, live.game.id, outcome, into=into)

    async def SubmitCommands(
        self, requests: AsyncIterator[match_pb2.SubmitCommandsRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[match_pb2.SubmitCommandsResponse]:
        """Many SubmitCommand on one stream (see the proto for the contract)."""
        principal = _principal()
        answers: asyncio.Queue[match_pb2.SubmitCommandsResponse | ServiceError | None] = asyncio.Queue()
        slots = asyncio.Semaphore(STREAM_IN_FLIGHT)
        previous: dict[str, asyncio.Task[None]] = {}  # per table: its last command, to keep their order
        running: set[asyncio.Task[None]] = set()

        async def answer(request: match_pb2.SubmitCommandRequest, before: asyncio.Task[None] | None) -> None:
            try:
                if before is not None and not before.done():  # a done one needs no wait's machinery
                    await asyncio.wait([before])
                reply = match_pb2.SubmitCommandsResponse(table=request.table, request_id=request.request_id)
                try:
                    check_request(request, self.limits)  # the input policy, per streamed command
                    await self._submit(principal, request, context, into=reply.committed)
                except (RuleError, ServiceError) as exc:
                    reply.error.CopyFrom(status_proto(as_refusal(exc)))
                except Exception:
                    log.exception("streamed command failed", table=request.table, request_id=request.request_id)
                    reply.error.CopyFrom(status_pb2.Status(code=code_pb2.INTERNAL, message="Internal error."))
                answers.put_nowait(reply)  # its slot is freed once it is sent
            finally:
                if previous.get(request.table) is asyncio.current_task():
                    del previous[request.table]

        async def read() -> None:
            ending: ServiceError | None = None  # how the stream ends once every answer is out
            try:
                async for message in requests:
                    await slots.acquire()
                    if principal.expires_at <= time.time():
                        slots.release()
                        ending = Unauthenticated("TOKEN_EXPIRED", "The token has expired.", ru="Срок токена истёк.")
                        break
                    request = message.command
                    task = asyncio.create_task(answer(request, previous.get(request.table)))
                    previous[request.table] = task
                    running.add(task)
                    task.add_done_callback(running.discard)
            except asyncio.CancelledError:
                if not self._draining:
                    raise  # the stream is gone: nobody to answer
                ending = _stopping()
            except ServiceError as exc:  # a message the input policy refused: answered once the rest is
                ending = exc
            except Exception as exc:  # the client went away mid-read: nobody to answer
                log.info("command stream ended", error=repr(exc))
                return
            try:
                while running:
                    try:
                        await asyncio.wait(set(running))
                    except asyncio.CancelledError:
                        if not self._draining:
                            raise
                        # a stopping server still sends what it owes
            finally:
                answers.put_nowait(ending)

        if self._draining:
            raise _stopping()
        reader = asyncio.create_task(read())
        self._readers.add(reader)
        reader.add_done_callback(self._readers.discard)
        try:
            while True:
                reply = await answers.get()
                if reply is None:
                    return
                if isinstance(reply, ServiceError):
                    raise reply
                yield reply
                # an answer holds its slot until gRPC has taken it, so this queue
                # never holds more than the limit
                slots.release()
        finally:
            # commands in flight finish (they may be committing); only reading stops
            reader.cancel()

    async def GetTableView(
        self, request: match_pb2.GetTableViewRequest, context: grpc.aio.ServicerContext
    ) -> match_pb2.GetTableViewResponse:
        table_id = parse_table(request.table)
        try:
            seat = request.seat if request.HasField("seat") else None
            view = await self.app.view(_principal(), table_id, ROLE_NAMES.get(request.role, ""), seat)
        except HeldElsewhere as moved:
            result: match_pb2.GetTableViewResponse = await self._forward(
                moved.address, "GetTableView", request, context
            )
            return result
        return match_pb2.GetTableViewResponse(view=view_to_proto(view))

    async def CheckCommand(
        self, request: match_pb2.CheckCommandRequest, context: grpc.aio.ServicerContext
    ) -> match_pb2.CheckCommandResponse:
        table_id = parse_table(request.table)
        try:
            live = await self.app.table(table_id)
            command = command_from_proto(live.game.id, request.command, self._check_input)
            checked = await self.app.check(_principal(), table_id, request.seat, command)
        except HeldElsewhere as moved:
            result: match_pb2.CheckCommandResponse = await self._forward(
                moved.address, "CheckCommand", request, context
            )
            return result
        answer = match_pb2.CheckCommandResponse(version=checked.version, accepted=checked.refusal is None)
        if checked.refusal is not None:
            answer.refusal.CopyFrom(status_proto(as_refusal(checked.refusal)))
        return answer

    async def ListLegalCommands(
        self, request: match_pb2.ListLegalCommandsRequest, context: grpc.aio.ServicerContext
    ) -> match_pb2.ListLegalCommandsResponse:
        table_id = parse_table(request.table)
        if request.page_size < 0:
            raise BadRequest("INVALID_PAGE_SIZE", "page_size must not be negative.", ru="page_size не может быть < 0.")
        size = min(request.page_size or LEGAL_PAGE_DEFAULT, LEGAL_PAGE_MAX)
        try:
            seat = request.seat if request.HasField("seat") else None
            view = await self.app.view(_principal(), table_id, "seat" if seat is None else "", seat)
        except HeldElsewhere as moved:
            result: match_pb2.ListLegalCommandsResponse = await self._forward(
                moved.address, "ListLegalCommands", request, context
            )
            return result
        start = _page_offset(request.page_token, view.version)
        commands = expand_all(view.legal, command_codec(view.game), limit=LEGAL_LIST_MAX)
        page = commands[start : start + size]
        following = start + len(page)
        return match_pb2.ListLegalCommandsResponse(
            version=view.version,
            commands=[command_to_proto(view.game, c) for c in page],
            next_page_token=f"{view.version}:{following}" if following < len(commands) else "",
            total_size=len(commands),
        )

    async def SubmitDefaultCommand(
        self, request: match_pb2.SubmitDefaultCommandRequest, context: grpc.aio.ServicerContext
    ) -> match_pb2.SubmitCommandResponse:
        table_id = parse_table(request.table)
        try:
            with_view = request.response_view != match_pb2.RESPONSE_VIEW_MINIMAL
            outcome = await self.app.submit_default(
                _principal(), table_id, request.decision_key, request.request_id, with_view=with_view
            )
        except HeldElsewhere as moved:
            result: match_pb2.SubmitCommandResponse = await self._forward(
                moved.address, "SubmitDefaultCommand", request, context
            )
            return result
        return answer_to_proto(request.table, "", outcome)

    async def ControlTable(
        self, request: match_pb2.ControlTableRequest, context: grpc.aio.ServicerContext
    ) -> match_pb2.ControlTableResponse:
        table_id = parse_table(request.table)
        action = request.WhichOneof("action")
        if action is None:
            raise BadRequest(
                "EMPTY_ACTION",
                "Name an action: presence, controller, remove, host_propose_end or close.",
                ru="Нет действия.",
            )
        if action == "close" and request.close.reason == match_pb2.CLOSE_REASON_UNSPECIFIED:
            raise BadRequest("CLOSE_REASON_REQUIRED", "Say why the table closes.", ru="Укажите причину закрытия.")
        reason = {match_pb2.CLOSE_REASON_OPERATOR: "operator", match_pb2.CLOSE_REASON_IDLE: "idle"}.get(
            request.close.reason, ""
        )
        seat = {
            "presence": request.presence.seat,
            "controller": request.controller.seat,
            "remove": request.remove.seat,
            "host_propose_end": request.host_propose_end.seat if request.host_propose_end.HasField("seat") else -1,
        }.get(action, -1)
        flag = {"presence": request.presence.present, "controller": request.controller.by_bot}.get(action, False)
        try:
            version, duplicate, applied = await self.app.control(
                _principal(), table_id, action, request.request_id, seat=seat, flag=flag, reason=reason
            )
        except HeldElsewhere as moved:
            forwarded: match_pb2.ControlTableResponse = await self._forward(
                moved.address, "ControlTable", request, context
            )
            return forwarded
        return match_pb2.ControlTableResponse(version=version, duplicate=duplicate, applied=applied)

    async def close(self) -> None:
        for channel in self._channels.values():
            await channel.close()


def register(servicer: MatchServicer) -> Any:
    def add(server: grpc.aio.Server) -> str:
        match_pb2_grpc.add_MatchServiceServicer_to_server(servicer, server)
        return str(match_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name)

    return add
