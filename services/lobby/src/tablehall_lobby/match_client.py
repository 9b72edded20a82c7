"""The lobby's adapter to the match service (gRPC, with the lobby's service token).

A refusal by the match keeps its status and reason; a match service that
does not answer is MATCH_UNAVAILABLE.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import grpc

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_lobby import refusals as no
from tablehall_platform import channels
from tablehall_platform.errors import (
    AlreadyExists,
    BadRequest,
    Conflict,
    NotFound,
    PermissionDenied,
    Refused,
    ServiceError,
    error_info,
)
from tablehall_rules import SeatInfo

_KINDS: dict[grpc.StatusCode, type[ServiceError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: BadRequest,
    grpc.StatusCode.FAILED_PRECONDITION: Refused,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.ABORTED: Conflict,
    grpc.StatusCode.ALREADY_EXISTS: AlreadyExists,
}
TIMEOUT = 10.0


def _translate(exc: grpc.aio.AioRpcError) -> ServiceError:
    kind = _KINDS.get(exc.code())
    info = error_info(exc)
    if kind is None or info is None:
        return no.match_unavailable(f"{exc.code().name} {exc.details() or ''}".strip())
    return kind(info.reason, exc.details() or info.reason, metadata=dict(info.metadata))


class MatchClient:
    def __init__(self, address: str, metadata: Sequence[tuple[str, str]]) -> None:
        self.address = address
        self.metadata = list(metadata)
        self._channel: grpc.aio.Channel | None = None

    @property
    def stub(self) -> match_pb2_grpc.MatchServiceStub:
        if self._channel is None:
            self._channel = channels.insecure_channel(self.address)
        return match_pb2_grpc.MatchServiceStub(self._channel)

    async def _call(self, method: str, request: Any) -> Any:
        try:
            return await getattr(self.stub, method)(request, metadata=self.metadata, timeout=TIMEOUT)
        except grpc.aio.AioRpcError as exc:
            raise _translate(exc) from exc

    async def start(
        self, table_id: str, game: str, options: dict[str, Any], seats: Sequence[SeatInfo], request_id: str
    ) -> tuple[int, str]:
        reply = await self._call(
            "StartMatch",
            match_pb2.StartMatchRequest(
                table=f"tables/{table_id}",
                game=game,
                options_json=json.dumps(options),
                seats=[match_pb2.Seat(seat=s.seat, user_id=s.user_id, name=s.name, is_bot=s.is_bot) for s in seats],
                request_id=request_id,
            ),
        )
        return int(reply.version), str(reply.seed_sha256)

    async def presence(self, table_id: str, seat: int, present: bool, request_id: str) -> bool:
        reply = await self._call(
            "ControlTable",
            match_pb2.ControlTableRequest(
                table=f"tables/{table_id}",
                request_id=request_id,
                presence=match_pb2.SetPresence(seat=seat, present=present),
            ),
        )
        return bool(reply.applied)

    async def controller(self, table_id: str, seat: int, by_bot: bool, request_id: str) -> bool:
        reply = await self._call(
            "ControlTable",
            match_pb2.ControlTableRequest(
                table=f"tables/{table_id}",
                request_id=request_id,
                controller=match_pb2.SetController(seat=seat, by_bot=by_bot),
            ),
        )
        return bool(reply.applied)

    async def remove(self, table_id: str, seat: int, request_id: str) -> bool:
        reply = await self._call(
            "ControlTable",
            match_pb2.ControlTableRequest(
                table=f"tables/{table_id}", request_id=request_id, remove=match_pb2.RemovePlayer(seat=seat)
            ),
        )
        return bool(reply.applied)

    async def host_propose_end(self, table_id: str, seat: int | None, request_id: str) -> tuple[int, bool, bool]:
        """The host's ■; (version, duplicate, applied)."""
        end = match_pb2.HostProposeEnd() if seat is None else match_pb2.HostProposeEnd(seat=seat)
        reply = await self._call(
            "ControlTable",
            match_pb2.ControlTableRequest(table=f"tables/{table_id}", request_id=request_id, host_propose_end=end),
        )
        return int(reply.version), bool(reply.duplicate), bool(reply.applied)

    async def close_by_operator(self, table_id: str, request_id: str) -> bool:
        reply = await self._call(
            "ControlTable",
            match_pb2.ControlTableRequest(
                table=f"tables/{table_id}",
                request_id=request_id,
                close=match_pb2.CloseTable(reason=match_pb2.CLOSE_REASON_OPERATOR),
            ),
        )
        return bool(reply.applied)

    async def submit(
        self, table_id: str, seat: int, command: match_pb2.GameCommand, request_id: str
    ) -> match_pb2.SubmitCommandResponse:
        reply: match_pb2.SubmitCommandResponse = await self._call(
            "SubmitCommand",
            match_pb2.SubmitCommandRequest(
                table=f"tables/{table_id}", seat=seat, command=command, request_id=request_id
            ),
        )
        return reply

    async def spectator_view(self, table_id: str) -> match_pb2.GetTableViewResponse:
        reply: match_pb2.GetTableViewResponse = await self._call(
            "GetTableView",
            match_pb2.GetTableViewRequest(table=f"tables/{table_id}", role=match_pb2.VIEWER_ROLE_SPECTATOR),
        )
        return reply

    async def seat_view(self, table_id: str, seat: int) -> match_pb2.GetTableViewResponse:
        reply: match_pb2.GetTableViewResponse = await self._call(
            "GetTableView", match_pb2.GetTableViewRequest(table=f"tables/{table_id}", seat=seat)
        )
        return reply

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close()
            self._channel = None
