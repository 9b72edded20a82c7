"""The demo table: four bots playing Пузиполия that anyone may watch.

Opened through the lobby's API as the bot service (which hosts it and leaves
its own seat to four bots: two easy, two strong), and opened anew whenever
the previous one ends. `tablehall up` keeps one open unless `--no-demo`.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Sequence

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
POLL_S = 2.0


class DemoTables:
    def __init__(self, lobby_address: str, metadata: Sequence[tuple[str, str]], tables: Tables) -> None:
        self.metadata = list(metadata)
        self.tables = tables
        self._channel = grpc.aio.insecure_channel(lobby_address)
        self._lobby = lobby_pb2_grpc.LobbyServiceStub(self._channel)
        self.current = ""

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
        """Open a new demo table whenever the current one has ended."""
        while not stop.is_set():
            try:
                if not self.current or (await self.tables.seats(self.current.removeprefix("tables/"))).ended:
                    await self.open()
            except grpc.aio.AioRpcError as exc:
                log.warning("demo table not opened; retrying", error=f"{exc.code().name}: {exc.details()}")
            try:
                await asyncio.wait_for(stop.wait(), timeout=POLL_S)
            except TimeoutError:
                continue

    async def close(self) -> None:
        await self._channel.close()
