"""`Client`: the typed async client of a Tablehall server.

Every mutation gets a request id (generated unless given) that stays the same across retries,
so a retry after UNAVAILABLE or ABORTED is answered by the server, never applied twice.
`watch` follows a table's live view and resumes from the last version it delivered when the
connection drops.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, TypeVar

import structlog

from tablehall_sdk.adapters.transport import CommandCall, Transport
from tablehall_sdk.client_secret import client_secret_of_this_user
from tablehall_sdk.errors import RETRYABLE, TablehallError, Unauthenticated, Unavailable
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
    Submitted,
    Table,
    TableView,
    Update,
    Verified,
)
from tablehall_sdk.retry import RetryPolicy

T = TypeVar("T")
log = structlog.get_logger("tablehall_sdk")


def new_request_id() -> str:
    return uuid.uuid4().hex


def table_name(table: str) -> str:
    """ "tables/{id}" from either form."""
    return table if table.startswith("tables/") else f"tables/{table}"


class Client:
    """A connection to one Tablehall address, signed in as one user (or not yet)."""

    def __init__(
        self,
        address: str,
        token: str | None = None,
        *,
        retry: RetryPolicy | None = None,
        transport: Transport | None = None,
    ) -> None:
        self.address = address
        self.token = token
        self.user_id: str | None = None
        self.retry = retry or RetryPolicy()
        self._owns_transport = transport is None
        self._transport = transport or Transport(address)

    def as_user(self, token: str) -> Client:
        """A client signed in with `token` that shares this one's connection (a web front serving
        many people over one channel); closing it leaves the connection open."""
        return Client(self.address, token, retry=self.retry, transport=self._transport)

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._owns_transport:
            await self._transport.close()

    def _metadata(self) -> list[tuple[str, str]]:
        if not self.token:
            raise Unauthenticated(
                "TOKEN_MISSING", "Sign in first.", messages={"en": "Sign in first.", "ru": "Войдите."}
            )
        return [("authorization", f"Bearer {self.token}")]

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """Run `call`, retrying UNAVAILABLE and ABORTED with back-off (the caller fixes the request id)."""
        attempt = 0
        while True:
            attempt += 1
            try:
                return await call()
            except RETRYABLE as exc:
                if attempt >= self.retry.attempts:
                    raise
                delay = self.retry.delay(attempt)
                log.debug("retrying", code=exc.code, reason=exc.reason, attempt=attempt, delay=delay)
                await asyncio.sleep(delay)

    # ---- identity -------------------------------------------------------------
    async def sign_in_dev(self, name: str, display_name: str = "", client_secret: str | None = None) -> Identity:
        """Sign in with the development provider; later calls carry the token.

        The server binds `name` to the first client that claims it: by default
        this client's secret, kept in the user's config folder
        (`$XDG_CONFIG_HOME/tablehall/client-secret`, created on first use).
        """
        secret = client_secret if client_secret is not None else await asyncio.to_thread(client_secret_of_this_user)
        identity = await self._retrying(lambda: self._transport.dev_sign_in(name, display_name, secret))
        self.token, self.user_id = identity.token, identity.user_id
        return identity

    async def who_am_i(self) -> str:
        self.user_id = await self._retrying(lambda: self._transport.who_am_i(self._metadata()))
        return self.user_id

    async def principal(self) -> Principal:
        """Who the caller is as the lobby sees them: user id, name, roles, operator or not."""
        return await self._retrying(lambda: self._transport.principal(self._metadata()))

    # ---- lobby ----------------------------------------------------------------
    async def list_games(self) -> tuple[GameInfo, ...]:
        """Every game the server offers: seat range, titles (en/ru), options schema, teams."""
        return await self._retrying(lambda: self._transport.list_games(self._metadata()))

    async def list_tables(
        self, game: str = "", *, include_started: bool = False, page_size: int = 20, page_token: str = ""
    ) -> Page:
        return await self._retrying(
            lambda: self._transport.list_tables(self._metadata(), game, include_started, page_size, page_token)
        )

    async def get_table(self, table: str) -> Table:
        return await self._retrying(lambda: self._transport.get_table(self._metadata(), table_name(table)))

    async def create_table(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        *,
        seat_count: int = 0,
        private: bool = False,
        pin: str = "",
        request_id: str | None = None,
    ) -> Table:
        rid = request_id or new_request_id()
        return await self._retrying(
            lambda: self._transport.create_table(self._metadata(), game, options or {}, seat_count, private, pin, rid)
        )

    async def join(
        self, table: str, *, seat: int | None = None, pin: str = "", request_id: str | None = None
    ) -> tuple[Table, int]:
        rid = request_id or new_request_id()
        return await self._retrying(lambda: self._transport.join(self._metadata(), table_name(table), seat, pin, rid))

    async def enter(self, table: str, *, pin: str = "", request_id: str | None = None) -> Table:
        """Enter as a spectator (a private table: its PIN, unless invited)."""
        rid = request_id or new_request_id()
        return await self._retrying(lambda: self._transport.enter(self._metadata(), table_name(table), pin, rid))

    async def reclaim_seat(self, table: str, *, request_id: str | None = None) -> Table:
        """Take your seat back from the bot the host handed it to while you were away."""
        rid = request_id or new_request_id()
        return await self._retrying(lambda: self._transport.reclaim_seat(self._metadata(), table_name(table), rid))

    async def add_bot(
        self, table: str, *, seat: int | None = None, difficulty: str = "", request_id: str | None = None
    ) -> tuple[Table, int]:
        """A bot at `seat` (else the first free one); `difficulty` "easy" or "strong" ("" the default, easy)."""
        rid = request_id or new_request_id()
        return await self._retrying(
            lambda: self._transport.add_bot(self._metadata(), table_name(table), seat, rid, difficulty)
        )

    async def start(self, table: str, *, request_id: str | None = None) -> tuple[Table, str]:
        """Start the match; the table and the seed's SHA-256 commitment."""
        rid = request_id or new_request_id()
        return await self._retrying(lambda: self._transport.start(self._metadata(), table_name(table), rid))

    async def hold_presence(self, table: str) -> AsyncIterator[bool]:
        """Be present at `table` (your seat) while iterating: one item when it opens, then one per
        heartbeat. The timer's first clocks wait for every person's first presence, and a table
        none of whose people is present stands still; stop iterating (or close) to leave."""
        async for present in self._transport.hold_presence(self._metadata(), table_name(table)):
            yield present

    async def send_chat(self, table: str, text: str, *, request_id: str | None = None) -> ChatMessage:
        """Say something at the table (players; spectators when the host allows it)."""
        rid = request_id or new_request_id()
        return await self._retrying(lambda: self._transport.send_chat(self._metadata(), table_name(table), text, rid))

    async def chat(self, table: str, *, after: str = "", page_size: int = 50) -> tuple[list[ChatMessage], str]:
        """Chat messages after the token `after` ("" from the start), oldest first, and the token
        to ask with next time (the same one when nothing is new)."""
        messages, token = await self._retrying(
            lambda: self._transport.chat_page(self._metadata(), table_name(table), page_size, after)
        )
        # the server's token is the last message's number, given only for a full page
        return messages, token or (str(messages[-1].number) if messages else after)

    # ---- match ----------------------------------------------------------------
    async def view(self, table: str, role: Role = Role.DEFAULT) -> TableView:
        return await self._retrying(lambda: self._transport.view(self._metadata(), table_name(table), role))

    async def check(self, table: str, seat: int, command: Command) -> Checked:
        """Would `command` be accepted for `seat` now (CheckCommand)? Nothing changes."""
        return await self._retrying(lambda: self._transport.check(self._metadata(), table_name(table), seat, command))

    async def submit(self, table: str, seat: int, command: Command, *, request_id: str | None = None) -> Submitted:
        """Play `command` for `seat`; retried with the same request id until answered."""
        rid = request_id or new_request_id()
        version, duplicate, view = await self._retrying(
            lambda: self._transport.submit(self._metadata(), table_name(table), seat, command, rid)
        )
        return Submitted(version, duplicate, view, rid)

    def command_stream(self) -> CommandStream:
        """`submit` over one open stream (SubmitCommands): for a client that plays for long.

        async with client.command_stream() as commands:
            done = await commands.submit(table, seat, command)
        """
        return CommandStream(self)

    # ---- projection -----------------------------------------------------------
    async def journal(self, table: str, role: Role = Role.DEFAULT, *, page_size: int = 200) -> list[JournalLine]:
        """Every journal line the caller may read, oldest first."""
        lines: list[JournalLine] = []
        token = ""
        while True:
            page, token = await self._retrying(
                lambda t=token: self._transport.journal_page(  # type: ignore[misc]
                    self._metadata(), table_name(table), role, page_size, t
                )
            )
            lines.extend(page)
            if not token:
                return lines

    async def verify(self, table: str) -> Verified:
        """Check a table from its events alone (VerifyTable)."""
        return await self._retrying(lambda: self._transport.verify(self._metadata(), table_name(table)))

    async def export(self, table: str) -> bytes:
        """A finished table as one signed, self-contained file (ExportTable; `tablehall verify --file`)."""
        return await self._retrying(lambda: self._transport.export(self._metadata(), table_name(table)))

    async def watch(
        self, table: str, *, from_version: int = 0, role: Role = Role.DEFAULT, per_command: bool = False
    ) -> AsyncIterator[Update]:
        """The table's live view: a snapshot (from_version 0), then one update per stream version
        (`per_command`: one per command, at the version of its last event, with the journal lines
        of all of them: enough for a client that draws the latest view after each move).

        A dropped connection (UNAVAILABLE, the server restarting, the stream ending before the
        match did) is re-opened from the last version delivered, so no version is missed or
        repeated. Ends after the update that reports the match finished; raises Unavailable when the server stays away longer than `retry.reconnect_for`.
        """
        name = table_name(table)
        last = from_version
        down_since: float | None = None
        attempt = 0
        loop = asyncio.get_running_loop()
        while True:
            try:
                async for update in self._transport.watch(self._metadata(), name, last, role, per_command):
                    down_since, attempt = None, 0
                    if update.version <= last and not update.snapshot:
                        continue  # a repeat after a resume: already delivered
                    last = update.version
                    yield update
                    if update.finished:
                        return
                reason = "stream ended before the match did"
            except RETRYABLE as exc:
                reason = f"{exc.code} {exc.reason}"
            except TablehallError as exc:
                if exc.code != "CANCELLED" and exc.code != "INTERNAL":
                    raise
                reason = f"{exc.code} {exc.reason}"
            now = loop.time()
            down_since = down_since if down_since is not None else now
            if now - down_since > self.retry.reconnect_for:
                raise Unavailable("RESUME_GAVE_UP", f"could not resume the live view of {name}: {reason}")
            attempt += 1
            log.info("resuming live view", table=name, from_version=last, reason=reason)
            await asyncio.sleep(self.retry.delay(min(attempt, 8)))


class CommandStream:
    """Commands of one client on one SubmitCommands stream.

    `submit` answers as `Client.submit` does (the same typed errors, the same
    retries with the same request id); submits may run concurrently, those for
    one table apply in the order sent. A broken stream (the server restarted,
    the network dropped) is reopened by the next submit; the token is read when
    a stream opens.
    """

    def __init__(self, client: Client) -> None:
        self._client = client
        self._call: CommandCall | None = None

    async def __aenter__(self) -> CommandStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _open(self) -> CommandCall:
        if self._call is None or self._call.broken is not None:
            self._call = self._client._transport.command_call(self._client._metadata())
        return self._call

    async def submit(self, table: str, seat: int, command: Command, *, request_id: str | None = None) -> Submitted:
        rid = request_id or new_request_id()
        version, duplicate, view = await self._client._retrying(
            lambda: self._open().submit(table_name(table), seat, command, rid)
        )
        return Submitted(version, duplicate, view, rid)

    async def close(self) -> None:
        if self._call is not None:
            await self._call.close()
            self._call = None
