"""The demo table: four bots playing Пузиполия that anyone may watch.

Opened through the lobby's API as the bot service (which hosts it and leaves
its own seat to four bots: two easy, two strong). There is one at a time: a
demo table still running from an earlier run of the server is taken up again,
and a new one is opened only when none runs. Its bots play at a human pace
(`TABLEHALL_BOT_DEMO_PACE_MS` before each move), so an unwatched demo costs
little. `tablehall up` keeps one open unless `--no-demo`.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable, Sequence

import grpc
import structlog

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall_bot.tables import Tables

log = structlog.get_logger("bot.demo")
GAME = "puzzipolia"
OPTIONS = {"round_limit": 20}
DIFFICULTIES = (
    lobby_pb2.BOT_DIFFICULTY_STRONG,
    lobby_pb2.BOT_DIFFICULTY_EASY,
    lobby_pb2.BOT_DIFFICULTY_STRONG,
    lobby_pb2.BOT_DIFFICULTY_EASY,
)
# the user id of the bot service's token: the host of every demo table
HOST = "service:bot"
POLL_S = 2.0

Pacer = Callable[[str, float], None]


class DemoTables:
    def __init__(
        self,
        lobby_address: str,
        metadata: Sequence[tuple[str, str]],
        tables: Tables,
        pace: Pacer,
        pace_seconds: float,
    ) -> None:
        self.metadata = list(metadata)
        self.tables = tables
        self._pace = pace
        self.pace_seconds = pace_seconds
        self._channel = grpc.aio.insecure_channel(lobby_address)
        self._lobby = lobby_pb2_grpc.LobbyServiceStub(self._channel)
        self._paced: set[str] = set()
        self.current = ""

    async def ensure(self) -> str:
        """The running demo table ("tables/{id}"): the current one while it plays, else the newest
        one still playing (left by an earlier run), else a new one."""
        if self.current and not (await self.tables.seats(self.current.removeprefix("tables/"))).ended:
            return self.current  # one stream's tail: the cheap check made every POLL_S
        running = await self.tables.unfinished_hosted_by(HOST)
        for table in self._paced - set(running):
            self._pace(table, 0)
        self._paced &= set(running)
        for table in running:
            self._paced_table(table)
        if running:
            name = f"tables/{running[-1]}"
            if name != self.current:
                log.info("demo table running", table=name, others_running=len(running) - 1)
            self.current = name
            return name
        return await self.open()

    def _paced_table(self, table: str) -> None:
        if table not in self._paced:
            self._paced.add(table)
            self._pace(table, self.pace_seconds)

    async def open(self) -> str:
        """Create, fill with four bots and start a demo table; its name ("tables/{id}")."""
        rid = uuid.uuid4().hex
        created = await self._lobby.CreateTable(
            lobby_pb2.CreateTableRequest(
                game=GAME, options_json=json.dumps(OPTIONS), seat_count=4, request_id=f"demo:{rid}:create"
            ),
            metadata=self.metadata,
        )
        name = str(created.table.name)
        self._paced_table(name.removeprefix("tables/"))  # paced from its first move on
        await self._lobby.LeaveSeat(
            lobby_pb2.LeaveSeatRequest(table=name, request_id=f"demo:{rid}:leave"), metadata=self.metadata
        )
        for seat, difficulty in enumerate(DIFFICULTIES):
            await self._lobby.AddBot(
                lobby_pb2.AddBotRequest(
                    table=name, seat=seat, difficulty=difficulty, request_id=f"demo:{rid}:bot{seat}"
                ),
                metadata=self.metadata,
            )
        await self._lobby.StartTable(
            lobby_pb2.StartTableRequest(table=name, request_id=f"demo:{rid}:start"), metadata=self.metadata
        )
        self.current = name
        log.info("demo table opened", table=name)
        return name

    async def keep_open(self, stop: asyncio.Event) -> None:
        """Open a new demo table whenever none is running."""
        while not stop.is_set():
            try:
                await self.ensure()
            except grpc.aio.AioRpcError as exc:
                log.warning("demo table not opened; retrying", error=f"{exc.code().name}: {exc.details()}")
            try:
                await asyncio.wait_for(stop.wait(), timeout=POLL_S)
            except TimeoutError:
                continue

    async def close(self) -> None:
        await self._channel.close()
