"""The gRPC calls: one method per RPC the SDK uses, models in and out, typed errors."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, TypeVar

import grpc

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall.projection.v1 import projection_pb2, projection_pb2_grpc
from tablehall_sdk.adapters import convert
from tablehall_sdk.errors import DeadlineExceeded, TablehallError, Unavailable
from tablehall_sdk.models import (
    ChatMessage,
    Checked,
    Command,
    GameInfo,
    Identity,
    JournalLine,
    Page,
    Principal,
    Role,
    Table,
    TableView,
    Update,
    Verified,
)

T = TypeVar("T")
CALL_TIMEOUT = 15.0
# re-deciding every command of a long game takes longer than a call
VERIFY_TIMEOUT = 120.0


class Transport:
    """One channel to a Tablehall server (every service on one address, as `tablehall up` serves)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.channel = grpc.aio.insecure_channel(address)
        self.identity = lobby_pb2_grpc.IdentityServiceStub(self.channel)
        self.lobby = lobby_pb2_grpc.LobbyServiceStub(self.channel)
        self.match = match_pb2_grpc.MatchServiceStub(self.channel)
        self.projection = projection_pb2_grpc.ProjectionServiceStub(self.channel)

    async def close(self) -> None:
        await self.channel.close()

    @staticmethod
    async def _call(call: Callable[[], Awaitable[T]]) -> T:
        try:
            return await call()
        except grpc.RpcError as exc:
            raise convert.error_from_rpc(exc) from exc

    # ---- identity -------------------------------------------------------------
    async def dev_sign_in(self, name: str, display_name: str, client_secret: str) -> Identity:
        request = lobby_pb2.DevSignInRequest(name=name, display_name=display_name, client_secret=client_secret)
        reply = await self._call(lambda: self.identity.DevSignIn(request, timeout=CALL_TIMEOUT))
        return Identity(reply.user_id, reply.token)

    async def who_am_i(self, md: list[tuple[str, str]]) -> str:
        reply = await self._call(
            lambda: self.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=md, timeout=CALL_TIMEOUT)
        )
        return str(reply.user_id)

    async def principal(self, md: list[tuple[str, str]]) -> Principal:
        reply = await self._call(
            lambda: self.identity.WhoAmI(lobby_pb2.WhoAmIRequest(), metadata=md, timeout=CALL_TIMEOUT)
        )
        return Principal(reply.user_id, reply.name, tuple(reply.roles), reply.operator)

    # ---- lobby ----------------------------------------------------------------
    async def list_games(self, md: list[tuple[str, str]]) -> tuple[GameInfo, ...]:
        request = lobby_pb2.ListGamesRequest()
        reply = await self._call(lambda: self.lobby.ListGames(request, metadata=md, timeout=CALL_TIMEOUT))
        return tuple(convert.game_from_proto(g) for g in reply.games)

    async def list_tables(
        self, md: list[tuple[str, str]], game: str, include_started: bool, page_size: int, page_token: str
    ) -> Page:
        request = lobby_pb2.ListTablesRequest(
            game=game, include_started=include_started, page_size=page_size, page_token=page_token
        )
        reply = await self._call(lambda: self.lobby.ListTables(request, metadata=md, timeout=CALL_TIMEOUT))
        return Page(tuple(convert.table_from_proto(t) for t in reply.tables), reply.next_page_token)

    async def get_table(self, md: list[tuple[str, str]], table: str) -> Table:
        reply = await self._call(
            lambda: self.lobby.GetTable(lobby_pb2.GetTableRequest(table=table), metadata=md, timeout=CALL_TIMEOUT)
        )
        return convert.table_from_proto(reply.table)

    async def create_table(
        self,
        md: list[tuple[str, str]],
        game: str,
        options: Mapping[str, Any],
        seat_count: int,
        private: bool,
        pin: str,
        request_id: str,
    ) -> Table:
        request = lobby_pb2.CreateTableRequest(
            game=game,
            options_json=json.dumps(dict(options)),
            seat_count=seat_count,
            private=private,
            pin=pin,
            request_id=request_id,
        )
        reply = await self._call(lambda: self.lobby.CreateTable(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.table_from_proto(reply.table)

    async def join(
        self, md: list[tuple[str, str]], table: str, seat: int | None, pin: str, request_id: str
    ) -> tuple[Table, int]:
        request = lobby_pb2.JoinTableRequest(table=table, pin=pin, request_id=request_id)
        if seat is not None:
            request.seat = seat
        reply = await self._call(lambda: self.lobby.JoinTable(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.table_from_proto(reply.table), reply.seat

    async def enter(self, md: list[tuple[str, str]], table: str, pin: str, request_id: str) -> Table:
        request = lobby_pb2.EnterTableRequest(table=table, pin=pin, request_id=request_id)
        reply = await self._call(lambda: self.lobby.EnterTable(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.table_from_proto(reply.table)

    async def reclaim_seat(self, md: list[tuple[str, str]], table: str, request_id: str) -> Table:
        request = lobby_pb2.ReclaimSeatRequest(table=table, request_id=request_id)
        reply = await self._call(lambda: self.lobby.ReclaimSeat(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.table_from_proto(reply.table)

    async def add_bot(
        self, md: list[tuple[str, str]], table: str, seat: int | None, request_id: str, difficulty: str = ""
    ) -> tuple[Table, int]:
        level = f"BOT_DIFFICULTY_{difficulty.upper()}" if difficulty else "BOT_DIFFICULTY_UNSPECIFIED"
        request = lobby_pb2.AddBotRequest(
            table=table, request_id=request_id, difficulty=lobby_pb2.BotDifficulty.Value(level)
        )
        if seat is not None:
            request.seat = seat
        reply = await self._call(lambda: self.lobby.AddBot(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.table_from_proto(reply.table), reply.seat

    async def start(self, md: list[tuple[str, str]], table: str, request_id: str) -> tuple[Table, str]:
        request = lobby_pb2.StartTableRequest(table=table, request_id=request_id)
        reply = await self._call(lambda: self.lobby.StartTable(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.table_from_proto(reply.table), reply.seed_sha256

    async def hold_presence(self, md: list[tuple[str, str]], table: str) -> AsyncIterator[bool]:
        """One HoldPresence call: the seat counts as present while it is open (each heartbeat: True)."""
        call = self.lobby.HoldPresence(lobby_pb2.HoldPresenceRequest(table=table), metadata=md)
        try:
            async for update in call:
                yield bool(update.present)
        except grpc.RpcError as exc:
            raise convert.error_from_rpc(exc) from exc
        finally:
            call.cancel()

    async def send_chat(self, md: list[tuple[str, str]], table: str, text: str, request_id: str) -> ChatMessage:
        request = lobby_pb2.SendChatMessageRequest(table=table, text=text, request_id=request_id)
        reply = await self._call(lambda: self.lobby.SendChatMessage(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.chat_from_proto(reply.message)

    async def chat_page(
        self, md: list[tuple[str, str]], table: str, page_size: int, page_token: str
    ) -> tuple[list[ChatMessage], str]:
        request = lobby_pb2.ListChatMessagesRequest(table=table, page_size=page_size, page_token=page_token)
        reply = await self._call(lambda: self.lobby.ListChatMessages(request, metadata=md, timeout=CALL_TIMEOUT))
        return [convert.chat_from_proto(m) for m in reply.messages], reply.next_page_token

    # ---- match ----------------------------------------------------------------
    async def view(self, md: list[tuple[str, str]], table: str, role: Role) -> TableView:
        request = match_pb2.GetTableViewRequest(table=table, role=convert.MATCH_ROLES[role])
        reply = await self._call(lambda: self.match.GetTableView(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.view_from_proto(reply.view)

    async def submit(
        self, md: list[tuple[str, str]], table: str, seat: int, command: Command, request_id: str
    ) -> tuple[int, bool, TableView]:
        request = match_pb2.SubmitCommandRequest(
            table=table, seat=seat, command=convert.command_to_proto(command), request_id=request_id
        )
        reply = await self._call(lambda: self.match.SubmitCommand(request, metadata=md, timeout=CALL_TIMEOUT))
        return reply.version, reply.duplicate, convert.view_from_proto(reply.view)

    async def check(self, md: list[tuple[str, str]], table: str, seat: int, command: Command) -> Checked:
        request = match_pb2.CheckCommandRequest(table=table, seat=seat, command=convert.command_to_proto(command))
        reply = await self._call(lambda: self.match.CheckCommand(request, metadata=md, timeout=CALL_TIMEOUT))
        return convert.checked_from_proto(reply)

    def command_call(self, md: list[tuple[str, str]]) -> CommandCall:
        """Open a SubmitCommands stream."""
        return CommandCall(self.match, md)

    # ---- projection -----------------------------------------------------------
    async def journal_page(
        self, md: list[tuple[str, str]], table: str, role: Role, page_size: int, page_token: str
    ) -> tuple[list[JournalLine], str]:
        request = projection_pb2.ListJournalRequest(
            table=table, role=convert.PROJECTION_ROLES[role], page_size=page_size, page_token=page_token
        )
        reply = await self._call(lambda: self.projection.ListJournal(request, metadata=md, timeout=CALL_TIMEOUT))
        return [convert.journal_from_proto(line) for line in reply.lines], reply.next_page_token

    async def verify(self, md: list[tuple[str, str]], table: str) -> Verified:
        request = projection_pb2.VerifyTableRequest(table=table)
        reply = await self._call(lambda: self.projection.VerifyTable(request, metadata=md, timeout=VERIFY_TIMEOUT))
        return Verified(
            reply.table,
            reply.verified,
            reply.message,
            reply.version,
            reply.events_checked,
            reply.commands_checked,
            reply.draws_checked,
        )

    async def export(self, md: list[tuple[str, str]], table: str) -> bytes:
        request = projection_pb2.ExportTableRequest(table=table)
        reply = await self._call(lambda: self.projection.ExportTable(request, metadata=md, timeout=VERIFY_TIMEOUT))
        return bytes(reply.content)

    async def watch(
        self, md: list[tuple[str, str]], table: str, from_version: int, role: Role, per_command: bool = False
    ) -> AsyncIterator[Update]:
        """One WatchTable call; ends or raises a typed error when the call does."""
        grain = projection_pb2.UPDATE_GRAIN_COMMAND if per_command else projection_pb2.UPDATE_GRAIN_VERSION
        request = projection_pb2.WatchTableRequest(
            table=table, from_version=from_version, role=convert.PROJECTION_ROLES[role], grain=grain
        )
        call = self.projection.WatchTable(request, metadata=md)
        try:
            async for message in call:
                yield convert.update_from_proto(message)
        except grpc.RpcError as exc:
            raise convert.error_from_rpc(exc) from exc
        finally:
            call.cancel()


class CommandCall:
    """One open SubmitCommands stream: each answer resolves the `submit` waiting for it.

    grpc.aio allows one write at a time per call, so requests go through a queue
    that the call's request iterator drains. When the stream breaks, every
    waiting submit fails with the stream's typed error and `broken` is set.
    """

    def __init__(self, stub: match_pb2_grpc.MatchServiceStub, md: list[tuple[str, str]]) -> None:
        self._outbox: asyncio.Queue[match_pb2.SubmitCommandsRequest | None] = asyncio.Queue()
        # by (table, request_id): the server answers each with both
        self._waiting: dict[tuple[str, str], asyncio.Future[tuple[int, bool, TableView]]] = {}
        self._call = stub.SubmitCommands(self._requests(), metadata=md)
        self._reader = asyncio.create_task(self._read())
        self.broken: TablehallError | None = None

    async def _requests(self) -> AsyncIterator[match_pb2.SubmitCommandsRequest]:
        while (item := await self._outbox.get()) is not None:
            yield item

    async def _read(self) -> None:
        error: TablehallError = Unavailable("STREAM_ENDED", "The command stream ended.")
        try:
            async for answer in self._call:
                future = self._waiting.pop((answer.table, answer.request_id), None)
                if future is None or future.done():
                    continue
                if answer.HasField("committed"):
                    done = answer.committed
                    future.set_result((done.version, done.duplicate, convert.view_from_proto(done.view)))
                else:
                    future.set_exception(convert.error_from_status(answer.error))
        except grpc.RpcError as exc:
            error = convert.error_from_rpc(exc)
        finally:
            self.broken = error
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(error)
            self._waiting.clear()

    async def submit(self, table: str, seat: int, command: Command, request_id: str) -> tuple[int, bool, TableView]:
        if self.broken is not None:
            raise self.broken
        key = (table, request_id)
        future = self._waiting.get(key)
        if future is None:  # the same request twice at once: both wait for its one answer
            future = self._waiting[key] = asyncio.get_running_loop().create_future()
            request = match_pb2.SubmitCommandRequest(
                table=table, seat=seat, command=convert.command_to_proto(command), request_id=request_id
            )
            self._outbox.put_nowait(match_pb2.SubmitCommandsRequest(command=request))
        try:
            return await asyncio.wait_for(asyncio.shield(future), CALL_TIMEOUT)
        except TimeoutError as exc:
            raise DeadlineExceeded("DEADLINE_EXCEEDED", "No answer in time; retry with the same request id.") from exc

    async def close(self) -> None:
        """Stop sending; answers still due arrive before the stream ends."""
        self._outbox.put_nowait(None)
        await self._reader
