"""Wiring of the match service: store, vault, leases, app, gRPC servicer."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablehall_eventstore import EventStore
from tablehall_match.app import MatchApp
from tablehall_match.grpc_port import MatchServicer, register
from tablehall_match.leases import Leases
from tablehall_match.seeds import SeedVault
from tablehall_platform.component import Component, RuntimeContext
from tablehall_platform.config import Settings

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class MatchService:
    app: MatchApp
    servicer: MatchServicer
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    stop_event: asyncio.Event = field(default_factory=asyncio.Event)

    def register(self) -> Any:
        return register(self.servicer)

    def start_background(self) -> None:
        self.tasks.append(asyncio.create_task(self.app.keep_leases(self.stop_event)))

    async def drain(self) -> None:
        """SIGTERM: command streams answer what they hold and end, then every table
        is handed over (MatchApp.drain); the gRPC server stops after this."""
        await self.servicer.drain()
        await self.app.drain()

    async def close(self) -> None:
        self.stop_event.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.servicer.close()
        await self.app.close()


def build(store: EventStore, settings: Settings, address: str) -> MatchService:
    leases = Leases(store.pool, owner=settings.instance_id, address=address, seconds=settings.lease_seconds)
    app = MatchApp(
        store,
        SeedVault(store.pool),
        leases,
        snapshot_every=settings.snapshot_every,
        commit_workers=settings.commit_workers,
    )
    return MatchService(app, MatchServicer(app))


async def component(ctx: RuntimeContext) -> Component:
    """The match service for the process runner."""
    match = build(ctx.store, ctx.settings, ctx.advertise_address)

    async def start() -> None:
        match.start_background()

    return Component(
        "match",
        [match.register()],
        start=start,
        drain=match.drain,
        close=match.close,
        extras={"service": match},
    )
