"""Wiring of the projection service: read models with their projectors, the
live hub, the application and its gRPC servicer."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablehall_audit.signing import Signer, key_file
from tablehall_eventstore import EventStore
from tablehall_platform.component import Component, RuntimeContext
from tablehall_platform.config import Settings
from tablehall_projection.app import ProjectionApp
from tablehall_projection.grpc_port import ProjectionServicer, register
from tablehall_projection.live.hub import Hub
from tablehall_projection.models import build_models
from tablehall_projection.projector import Projector

MIGRATIONS = Path(__file__).parent / "migrations"


def batch_size() -> int:
    """Events per read-model transaction (TABLEHALL_PROJECTION_BATCH, default 1000)."""
    return int(os.environ.get("TABLEHALL_PROJECTION_BATCH", "1000"))


def batch_interval() -> float:
    """Seconds from one read-model batch's start to the next while the model keeps up
    (TABLEHALL_PROJECTION_INTERVAL_MS, default 100; 0: a batch as soon as events are appended)."""
    milliseconds = float(os.environ.get("TABLEHALL_PROJECTION_INTERVAL_MS", "100"))
    if not 0 <= milliseconds <= 60_000:
        raise ValueError(f"TABLEHALL_PROJECTION_INTERVAL_MS must be 0-60000, got {milliseconds:g}")
    return milliseconds / 1000


def projectors(store: EventStore, batch: int | None = None) -> dict[str, Projector]:
    size = batch or batch_size()
    interval = batch_interval()
    return {name: Projector(store, model, batch=size, interval=interval) for name, model in build_models(store).items()}


@dataclass
class ProjectionService:
    app: ProjectionApp
    hub: Hub
    servicer: ProjectionServicer
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    stop_event: asyncio.Event = field(default_factory=asyncio.Event)

    def register(self) -> Any:
        return register(self.servicer)

    async def start(self) -> None:
        await self.hub.start()
        for projector in self.app.projectors.values():
            self.tasks.append(asyncio.create_task(projector.run(self.stop_event)))

    async def close(self) -> None:
        self.stop_event.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.hub.close()


def build(store: EventStore, batch: int | None = None, signer: Signer | None = None) -> ProjectionService:
    """`signer`: the export key (default: TABLEHALL_SIGNING_KEY_FILE or the data folder's)."""
    hub = Hub(store)
    app = ProjectionApp(store, projectors(store, batch), signer or Signer.load(key_file(Settings().data_dir)))
    return ProjectionService(app, hub, ProjectionServicer(app, hub))


async def component(ctx: RuntimeContext) -> Component:
    """The projection service for the process runner."""
    service = build(ctx.store, signer=Signer.load(key_file(ctx.settings.data_dir)))
    return Component(
        "projection", [service.register()], start=service.start, close=service.close, extras={"service": service}
    )
