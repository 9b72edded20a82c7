"""Wiring of the bot service: settings, app, gRPC servicer, demo table, component."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from tablehall_bot.app import BotApp
from tablehall_bot.demo import DemoTables
from tablehall_bot.feed import Feed
from tablehall_bot.grpc_port import BotServicer, register
from tablehall_bot.match_client import MatchClient
from tablehall_bot.settings import BotSettings
from tablehall_bot.tables import Tables
from tablehall_eventstore import EventStore
from tablehall_platform.component import Component, RuntimeContext


@dataclass
class BotService:
    app: BotApp
    servicer: BotServicer
    demo: DemoTables | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def register(self) -> Any:
        return register(self.servicer)

    async def start(self) -> None:
        await self.app.start()
        if self.demo is not None:
            await self.demo.ensure()
            self._tasks.append(asyncio.create_task(self.demo.keep_open(self._stop)))

    def banner(self) -> str:
        if self.demo is None or not self.demo.current:
            return ""
        return f"Demo table of four bots: {self.demo.current} (watch it as a spectator; `--no-demo` skips it)."

    async def close(self) -> None:
        self._stop.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.demo is not None:
            await self.demo.close()
        await self.app.close()


def build(store: EventStore, nats_url: str, settings: BotSettings, metadata: list[tuple[str, str]]) -> BotService:
    tables = Tables(store, settings.handed_difficulty)
    feed = Feed(nats_url, settings.consumer, settings.ack_wait_seconds)
    app = BotApp(tables, MatchClient(settings.match_address, metadata), feed, settings)
    demo = (
        DemoTables(settings.lobby_address, metadata, tables, app.pace, settings.demo_pace_ms / 1000)
        if settings.demo
        else None
    )
    return BotService(app, BotServicer(tables), demo)


async def component(ctx: RuntimeContext) -> Component:
    """The bot service for the process runner."""
    settings = BotSettings.from_env(ctx.advertise_address)
    bot = build(ctx.store, ctx.nats_url, settings, ctx.service_metadata("bot"))
    return Component(
        "bot", [bot.register()], start=bot.start, close=bot.close, extras={"service": bot, "banner": bot.banner}
    )
