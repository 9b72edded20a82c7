"""The match service as the bot uses it (the only module importing match_pb2).

- `seat_view(table, seat)`: exactly that seat's redacted view, its legal
  commands and the open decisions (GetTableView with `seat`, role service);
- `submit(table, seat, command, request_id, for_decisions)`: the move, answered
  as a plain `Answer`. The request id makes a retry harmless: the match answers
  it without acting twice; `for_decisions` (the seat's open decisions the move
  was chosen for) makes a late one harmless: the match refuses it once any of
  them is closed or its clock has run out.

Moves go over one open SubmitCommands stream (a call of its own costs the
match and the bot several times a streamed message), opened again when it
breaks; a move on a broken stream is answered RETRY and sent again with the
same request id.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import grpc
import msgspec

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_bot import metrics
from tablehall_bot.search.hooks import LEGAL_LIMIT, spelled
from tablehall_platform import channels
from tablehall_platform.errors import status_error_info
from tablehall_rules import LegalMove, PendingDecision
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
    """A seat's view, its legal commands and open decisions: the match's answer (`commands`
    spelled out) or rendered in the bot (`local_view`: the game's descriptors, `moves`, spelled
    out only when `legal` is read)."""

    table: str
    game: str
    version: int
    seat: int
    view: dict[str, Any]
    decisions: list[PendingDecision]
    finished: bool
    commands: list[msgspec.Struct] | None = None
    moves: Sequence[LegalMove] | None = None

    @cached_property
    def legal(self) -> list[msgspec.Struct]:
        if self.commands is not None:
            return self.commands
        return spelled(self.game, self.moves or [])

    @property
    def any_legal(self) -> bool:
        """Whether `legal` is not empty (descriptors are read only until one spells out a command)."""
        if self.commands is not None or self.moves is None:
            return bool(self.legal)
        return any(lm.size() for lm in self.moves)


_CODES = {code.value[0]: code for code in grpc.StatusCode}


class _StreamEnded(Exception):
    """The command stream ended before the answer came."""


class _MoveStream:
    """One open SubmitCommands stream: each answer resolves the submit waiting for it (by table
    and request id, as the match answers). When the stream ends, every submit waiting fails
    with RETRY and `ended` is set."""

    def __init__(self, stub: match_pb2_grpc.MatchServiceStub, metadata: list[tuple[str, str]]) -> None:
        self._outbox: asyncio.Queue[match_pb2.SubmitCommandsRequest | None] = asyncio.Queue()
        self._waiting: dict[tuple[str, str], asyncio.Future[match_pb2.SubmitCommandsResponse]] = {}
        self._call = stub.SubmitCommands(self._requests(), metadata=metadata)
        self._reader = asyncio.create_task(self._read())
        self.ended = False
        self.end_reason = ""

    async def _requests(self) -> AsyncIterator[match_pb2.SubmitCommandsRequest]:
        while (item := await self._outbox.get()) is not None:
            yield item

    async def _read(self) -> None:
        try:
            async for answer in self._call:
                future = self._waiting.pop((answer.table, answer.request_id), None)
                if future is not None and not future.done():
                    future.set_result(answer)
            self.end_reason = "the command stream ended"
        except grpc.aio.AioRpcError as exc:
            self.end_reason = f"{exc.code().name}: {exc.details()}"
        except asyncio.CancelledError:
            self.end_reason = "closed"
        finally:
            self.ended = True
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(_StreamEnded(self.end_reason))
            self._waiting.clear()

    async def submit(self, request: match_pb2.SubmitCommandRequest) -> match_pb2.SubmitCommandsResponse | None:
        """The match's answer, or None when the stream ended or no answer came in time."""
        key = (request.table, request.request_id)
        future = self._waiting.get(key)
        if future is None:
            future = self._waiting[key] = asyncio.get_running_loop().create_future()
            self._outbox.put_nowait(match_pb2.SubmitCommandsRequest(command=request))
        if self.ended:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(future), CALL_TIMEOUT_S)
        except TimeoutError:
            if self._waiting.get(key) is future:
                del self._waiting[key]
            return None
        except _StreamEnded:
            return None

    async def close(self) -> None:
        self._outbox.put_nowait(None)
        self._call.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


class MatchClient:
    def __init__(self, address: str, metadata: Sequence[tuple[str, str]]) -> None:
        self.metadata = list(metadata)
        self._channel = channels.insecure_channel(address)
        self._stub = match_pb2_grpc.MatchServiceStub(self._channel)
        self._moves: _MoveStream | None = None
        self.last_error = ""

    async def seat_view(self, table: str, seat: int) -> SeatView:
        request = match_pb2.GetTableViewRequest(table=f"tables/{table}", seat=seat)
        reply = await self._stub.GetTableView(request, metadata=self.metadata, timeout=CALL_TIMEOUT_S)
        metrics.views("match").inc()
        v = reply.view
        return SeatView(
            table=table,
            game=v.game,
            version=v.version,
            seat=v.seat,
            view=msgspec.json.decode(v.view_json) if v.view_json else {},
            decisions=[decision_from_proto(d) for d in v.decisions],
            finished=v.finished,
            commands=legal_commands_of(v, limit=LEGAL_LIMIT),
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
        if self._moves is None or self._moves.ended:
            self._moves = _MoveStream(self._stub, self.metadata)
        answer = await self._moves.submit(request)
        if answer is None:
            self.last_error = f"UNAVAILABLE: no answer on the command stream ({self._moves.end_reason or 'in time'})"
            return Answer.RETRY
        if answer.HasField("error"):
            info = status_error_info(answer.error)
            code = _CODES.get(answer.error.code, grpc.StatusCode.UNKNOWN)
            return self._refusal(code, info.reason if info is not None else "", answer.error.message)
        return Answer.DUPLICATE if answer.committed.duplicate else Answer.MADE

    def _refusal(self, code: grpc.StatusCode, reason: str, message: str) -> Answer:
        self.last_error = f"{code.name} {reason}: {message}"
        if reason == "NOT_A_BOT_SEAT":
            return Answer.NOT_MINE
        if reason == "CLOCK_RAN_OUT":
            return Answer.LATE
        if reason in STALE_REASONS or code == grpc.StatusCode.ABORTED:
            return Answer.STALE
        if code in RETRY_CODES:
            return Answer.RETRY
        if code in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT):
            return Answer.REFUSED
        return Answer.FAILED

    async def close(self) -> None:
        if self._moves is not None:
            await self._moves.close()
        await self._channel.close()
