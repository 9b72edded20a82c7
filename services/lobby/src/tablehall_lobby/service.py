"""Wiring of the lobby service: read model, PINs, chat, match client, app,
presence hub, gRPC servicers, and the background catch-up of running tables."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import structlog

from tablehall_eventstore import EventStore
from tablehall_lobby.app import LobbyApp
from tablehall_lobby.chat import Chat, RateLimiter
from tablehall_lobby.dev_names import DevNames
from tablehall_lobby.grpc_port import DEV_SIGN_IN, IdentityServicer, LobbyServicer, registrations
from tablehall_lobby.identity import Identity
from tablehall_lobby.match_client import MatchClient
from tablehall_lobby.pins import Pins
from tablehall_lobby.presence import PresenceHub
from tablehall_lobby.readmodel import ReadModel
from tablehall_lobby.repository import Tables
from tablehall_lobby.settings import LobbySettings
from tablehall_platform.auth import DevProvider
from tablehall_platform.component import Component, RuntimeContext
from tablehall_platform.config import Settings
from tablehall_platform.logs import describe

MIGRATIONS = Path(__file__).parent / "migrations"
OPEN_METHODS = (DEV_SIGN_IN,)

log = structlog.get_logger("lobby")


@dataclass
class LobbyService:
    app: LobbyApp
    presence: PresenceHub
    identity: Identity
    settings: LobbySettings
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    stop_event: asyncio.Event = field(default_factory=asyncio.Event)

    def register(self) -> list[Any]:
        return registrations(LobbyServicer(self.app, self.identity, self.presence), IdentityServicer(self.identity))

    def start_background(self) -> None:
        self.tasks.append(asyncio.create_task(self._sweep()))

    async def _sweep(self) -> None:
        while not self.stop_event.is_set():
            try:
                await self.app.catch_up_running()
            except Exception as exc:
                log.warning("lobby catch-up failed", error=describe(exc))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop_event.wait(), self.settings.sweep_seconds)

    async def close(self) -> None:
        self.stop_event.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.presence.settle()
        await self.app.match.close()


DEV_WARNING = (
    "WARNING: development sign-in is ON (TABLEHALL_AUTH_PROVIDERS has 'dev'): anyone who reaches this server"
    " can make up a user name. Each name is bound to the client that claimed it first, but this is for laptops"
    " only; deploy with TABLEHALL_AUTH_PROVIDERS=oidc."
)


def dev_provider(settings: Settings) -> DevProvider | None:
    if "dev" not in settings.auth_providers:
        return None
    # said once: the plain warning on stderr (the log line stays at info, under the quiet default)
    log.info("development sign-in is on", providers=list(settings.auth_providers))
    print(DEV_WARNING, file=sys.stderr)
    return DevProvider.from_secrets_dir(settings.secrets_dir, settings.token_secret)


def build(
    store: EventStore,
    match_address: str,
    match_metadata: list[tuple[str, str]],
    dev: DevProvider | None,
    lobby_settings: LobbySettings | None = None,
) -> LobbyService:
    conf = lobby_settings or LobbySettings()
    readmodel = ReadModel(store.pool)
    app = LobbyApp(
        Tables(store, readmodel),
        readmodel,
        Pins(
            store.pool, conf.pin_attempts, conf.pin_window_seconds, conf.pin_free_failures, conf.pin_max_delay_seconds
        ),
        Chat(store),
        RateLimiter(conf.chat_messages, conf.chat_window_seconds),
        MatchClient(match_address, match_metadata),
    )
    identity = Identity(conf.operators, dev, DevNames(store.pool))
    return LobbyService(app, PresenceHub(app, conf.heartbeat_seconds), identity, conf)


async def component(ctx: RuntimeContext) -> Component:
    """The lobby service for the process runner."""
    conf = LobbySettings()
    lobby = build(
        ctx.store,
        conf.match_address or ctx.advertise_address,
        ctx.service_metadata("lobby"),
        dev_provider(ctx.settings),
        conf,
    )

    async def start() -> None:
        lobby.start_background()

    return Component(
        "lobby",
        lobby.register(),
        start=start,
        close=lobby.close,
        extras={"service": lobby, "open_methods": OPEN_METHODS},
    )
