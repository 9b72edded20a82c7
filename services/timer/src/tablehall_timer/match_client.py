"""The match service as the timer uses it (the only module importing match_pb2).

Two calls, each answered with a plain `Answer`:
- `submit_default(table, key)`: the game's default move for a decision whose
  clock ran out, with `request_id` = the decision key, so a repeat is answered
  by the match, never applied twice;
- `close_idle(table, request_id)`: close the table as it stands (CLOSE_REASON_IDLE).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import grpc

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_platform import channels
from tablehall_platform.errors import error_info

CALL_TIMEOUT_S = 10.0
RETRY_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED, grpc.StatusCode.DEADLINE_EXCEEDED})
# The decision is no longer open (someone decided, or the game ended): nothing to do.
SETTLED_REASONS = frozenset({"DECISION_ALREADY_TAKEN", "GAME_OVER"})


class Answer(enum.Enum):
    MADE = "made"
    DUPLICATE = "duplicate"
    TAKEN = "taken"  # decided meanwhile, or the game is over
    EARLY = "early"  # CLOCK_NOT_EXPIRED: the match's clock is behind ours
    RETRY = "retry"  # unavailable, aborted, timed out
    GONE = "gone"  # no such table at the match
    NOT_APPLIED = "not_applied"  # the game has no rule for the action
    FAILED = "failed"  # anything else (logged; retried later)


class MatchClient:
    def __init__(self, address: str, metadata: Sequence[tuple[str, str]]) -> None:
        self.address = address
        self.metadata = list(metadata)
        self._channel = channels.insecure_channel(address)
        self._stub = match_pb2_grpc.MatchServiceStub(self._channel)
        self.last_error = ""

    async def submit_default(self, table_id: str, decision_key: str) -> Answer:
        request = match_pb2.SubmitDefaultCommandRequest(
            table=f"tables/{table_id}",
            decision_key=decision_key,
            request_id=decision_key,
            response_view=match_pb2.RESPONSE_VIEW_MINIMAL,
        )
        try:
            reply = await self._stub.SubmitDefaultCommand(request, metadata=self.metadata, timeout=CALL_TIMEOUT_S)
        except grpc.aio.AioRpcError as exc:
            return self._refusal(exc)
        return Answer.DUPLICATE if reply.duplicate else Answer.MADE

    async def close_idle(self, table_id: str, request_id: str) -> Answer:
        request = match_pb2.ControlTableRequest(
            table=f"tables/{table_id}",
            request_id=request_id,
            close=match_pb2.CloseTable(reason=match_pb2.CLOSE_REASON_IDLE),
        )
        try:
            reply = await self._stub.ControlTable(request, metadata=self.metadata, timeout=CALL_TIMEOUT_S)
        except grpc.aio.AioRpcError as exc:
            return self._refusal(exc)
        if not reply.applied:
            return Answer.NOT_APPLIED
        return Answer.DUPLICATE if reply.duplicate else Answer.MADE

    def _refusal(self, exc: grpc.aio.AioRpcError) -> Answer:
        info = error_info(exc)
        reason = info.reason if info is not None else ""
        self.last_error = f"{exc.code().name} {reason}: {exc.details()}"
        if reason in SETTLED_REASONS:
            return Answer.TAKEN
        if reason == "CLOCK_NOT_EXPIRED":
            return Answer.EARLY
        if exc.code() in RETRY_CODES:
            return Answer.RETRY
        if exc.code() == grpc.StatusCode.NOT_FOUND:
            return Answer.GONE
        return Answer.FAILED

    async def close(self) -> None:
        await self._channel.close()
