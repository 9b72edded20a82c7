"""What a service hands the process runner (`tablehall up` / `serve`).

Each service package exposes `async def component(ctx: RuntimeContext) ->
Component`; the runner builds the ones asked for, registers their gRPC
servicers on one server, starts their background work and closes them in
reverse order on shutdown.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc

from tablehall_platform.auth import ServiceProvider
from tablehall_platform.config import Settings


@dataclass
class RuntimeContext:
    settings: Settings
    database_url: str
    nats_url: str
    # host:port where this process's gRPC server is reached by other instances
    advertise_address: str
    # the event store shared by the components of this process
    store: Any
    service_tokens: ServiceProvider

    def service_metadata(self, service: str) -> list[tuple[str, str]]:
        """gRPC metadata authenticating `service` to the other services."""
        return [("authorization", f"Bearer {self.service_tokens.service_token(service)}")]


@dataclass
class Component:
    name: str
    # each registers a servicer on the server and returns its full service name
    register: Sequence[Callable[[grpc.aio.Server], str]] = ()
    start: Callable[[], Awaitable[None]] | None = None
    # called when the process begins to stop, before the gRPC server does: end
    # long-lived calls cleanly (their clients reconnect elsewhere)
    drain: Callable[[], Awaitable[None]] | None = None
    close: Callable[[], Awaitable[None]] | None = None
    extras: dict[str, Any] = field(default_factory=dict)
