"""Wiring of the timer service: settings, app, gRPC servicer, component."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablehall_eventstore import EventStore
from tablehall_platform.component import Component, RuntimeContext
from tablehall_timer.app import TimerApp
from tablehall_timer.grpc_port import TimerServicer, register
from tablehall_timer.settings import TimerSettings

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class TimerService:
    app: TimerApp
    servicer: TimerServicer

    def register(self) -> Any:
        return register(self.servicer)

    async def start(self) -> None:
        await self.app.start()

    async def close(self) -> None:
        await self.app.close()


def build(store: EventStore, settings: TimerSettings, owner: str, metadata: list[tuple[str, str]]) -> TimerService:
    app = TimerApp(store, settings, owner, metadata)
    return TimerService(app, TimerServicer(app.scheduler, store.pool))


async def component(ctx: RuntimeContext) -> Component:
    """The timer service for the process runner."""
    settings = TimerSettings.from_env(ctx.settings, ctx.advertise_address)
    owner = f"timer@{ctx.settings.instance_id or ctx.advertise_address}"
    timer = build(ctx.store, settings, owner, ctx.service_metadata("timer"))
    return Component("timer", [timer.register()], start=timer.start, close=timer.close, extras={"service": timer})
