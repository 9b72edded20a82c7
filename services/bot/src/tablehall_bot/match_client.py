"""The match service as the bot uses it (the only module importing match_pb2).

- `seat_view(table, seat)`: exactly that seat's redacted view, its legal
  commands and the open decisions (GetTableView with `seat`, role service);
- `submit(table, seat, command, request_id, for_decisions)`: the move, answered
  as a plain `Answer`. The request id makes a retry harmless: the match answers
  it without acting twice; `for_decisions` (the seat's open decisions the move
  was chosen for) makes a late one harmless: the match refuses it once any of
  them is closed or its clock has run out.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import grpc
import msgspec

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_bot.search.hooks import LEGAL_LIMIT
from tablehall_platform import channels
from tablehall_platform.errors import error_info
from tablehall_rules import PendingDecision
from tablehall_stream.proto_games import command_to_proto, decision_from_proto, legal_commands_of

CALL_TIMEOUT_S = 10.0
# the state moved on while we thought: re-read and decide again if still ours
STALE_REASONS = frozenset({"DECISION_ALREADY_TAKEN", "NOT_YOUR_TURN", "GAME_OVER"})
RETRY_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


class Answer(enum.Enum):
    MADE = "made"
    DUPLICATE = "duplicate"
    STALE = "stale"  # decided meanwhile, not our turn any more, version conflict (ABORTED)
    REFUSED = "refused"  # the rules refused the move in the state the match holds
    RETRY = "retry"  # the match did not answer
    NOT_MINE = "not_mine"  # the seat's player took it back (the match says so before the lobby does)
    LATE = "late"  # the decision's clock ran out while we thought: the timer answers it
    FAILED = "failed"


@dataclass(frozen=True)
class SeatView:
    table: str
    game: str
    version: int
    seat: int
    view: dict[str, Any]
    legal: list[msgspec.Struct]
    decisions: list[PendingDecision]
    finished: bool


class MatchClient:
    def __init__(self, address: str, metadata: Sequence[tuple[str, str]]) -> None:
        self.metadata = list(metadata)
        self._channel = channels.insecure_channel(address)
        self._stub = match_pb2_grpc.MatchServiceStub(self._channel)
        self.last_error = ""

    async def seat_view(self, table: str, seat: int) -> SeatView:
        request = match_pb2.GetTableViewRequest(table=f"tables/{table}", seat=seat)
        reply = await self._stub.GetTableView(request, metadata=self.metadata, timeout=CALL_TIMEOUT_S)
        v = reply.view
        return SeatView(
            table=table,
            game=v.game,
            version=v.version,
            seat=v.seat,
            view=msgspec.json.decode(v.view_json) if v.view_json else {},
            legal=legal_commands_of(v, limit=LEGAL_LIMIT),
            decisions=[decision_from_proto(d) for d in v.decisions],
            finished=v.finished,
        )

    async def submit(
        self,
        table: str,
        game: str,
        seat: int,
        command: msgspec.Struct,
        request_id: str,
        for_decisions: Sequence[str] = (),
    ) -> Answer:
        request = match_pb2.SubmitCommandRequest(
            table=f"tables/{table}",
            seat=seat,
            command=command_to_proto(game, command),
            request_id=request_id,
            response_view=match_pb2.RESPONSE_VIEW_MINIMAL,
            for_decisions=list(for_decisions),
        )
        try:
            reply = await self._stub.SubmitCommand(request, metadata=self.metadata, timeout=CALL_TIMEOUT_S)
        except grpc.aio.AioRpcError as exc:
            return self._refusal(exc)
        return Answer.DUPLICATE if reply.duplicate else Answer.MADE

    def _refusal(self, exc: grpc.aio.AioRpcError) -> Answer:
        info = error_info(exc)
        reason = info.reason if info is not None else ""
        self.last_error = f"{exc.code().name} {reason}: {exc.details()}"
        if reason == "NOT_A_BOT_SEAT":
            return Answer.NOT_MINE
        if reason == "CLOCK_RAN_OUT":
            return Answer.LATE
        if reason in STALE_REASONS or exc.code() == grpc.StatusCode.ABORTED:
            return Answer.STALE
        if exc.code() in RETRY_CODES:
            return Answer.RETRY
        if exc.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT):
            return Answer.REFUSED
        return Answer.FAILED

    async def close(self) -> None:
        await self._channel.close()
