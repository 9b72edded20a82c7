"""Every service in this process on one port, as `tablehall up` serves them (but the bot
service: these tests play bot seats themselves), for the SDK and terminal client tests."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import random
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import grpc

from puzzipolia.game import GAME as PUZZIPOLIA
from puzzipolia.proto_codec import command_to_proto
from support.matchkit import SECRET, SERVICE_SECRET, token_maker
from tablehall.match.v1 import match_pb2
from tablehall_cli.runtime import SERVICES, migration_folders
from tablehall_eventstore import EventStore, migrate
from tablehall_platform.auth import Authenticator, DevProvider, ServiceProvider
from tablehall_platform.component import Component, RuntimeContext
from tablehall_platform.config import Settings
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import free_port
from tablehall_sdk import Client, Command, FailedPrecondition, InvalidArgument, Table
from tablehall_sdk.adapters import convert
from tablehall_stream.proto_games import command_from_proto

SKIPPED = {"bot"}
tokens = token_maker()
# a short Пузиполия game with clocks long enough not to fire during a test
PUZZIPOLIA_OPTIONS = {"start_money": 1500, "decision_clock_s": 60, "round_limit": 2}


async def started_with_bots(host: Client, bots: int = 3) -> tuple[Table, str]:
    """A Пузиполия table of `host` and `bots` bots, started: (table, seed commitment)."""
    table = await host.create_table("puzzipolia", PUZZIPOLIA_OPTIONS, seat_count=bots + 1)
    for _ in range(bots):
        table, _ = await host.add_bot(table.name)
    return await host.start(table.name)


async def started_with_players(host: Client, players: Sequence[Client]) -> str:
    """A Пузиполия table of `host` and `players` (seats in that order), started: its name."""
    table = await host.create_table("puzzipolia", PUZZIPOLIA_OPTIONS, seat_count=len(players) + 1)
    for player in players:
        await player.join(table.name)
    await host.start(table.name)
    return table.name


@dataclass
class Server:
    address: str
    database_url: str
    store: EventStore
    server: grpc.aio.Server
    components: list[Component]


async def migrate_everything(database_url: str) -> str:
    await migrate(database_url, extra=migration_folders())  # type: ignore[arg-type]
    return database_url


async def start_server(database_url: str, nats_url: str, data_dir: Path, address: str | None = None) -> Server:
    """All services but the bot on one gRPC server; `address` to come back on the same port."""
    address = address or f"127.0.0.1:{free_port()}"
    settings = replace(
        Settings(),
        database_url=database_url,
        nats_url=nats_url,
        data_dir=data_dir,
        token_secret=SECRET,
        service_secret=SERVICE_SECRET,
        instance_id=address,
        metrics_port=0,
        auth_providers=("dev",),
    )
    store = await EventStore.connect(database_url)
    services = ServiceProvider(SERVICE_SECRET)
    ctx = RuntimeContext(settings, database_url, nats_url, address, store, services)
    components = [
        await importlib.import_module(module).component(ctx) for name, module in SERVICES.items() if name not in SKIPPED
    ]
    server, _, _ = build_server(
        Authenticator([DevProvider(SECRET), services]),
        [fn for c in components for fn in c.register],
        address,
        [m for c in components for m in c.extras.get("open_methods", ())],
    )
    await server.start()
    for component in components:
        if component.start is not None:
            await component.start()
    return Server(address, database_url, store, server, components)


async def stop_server(running: Server, grace: float = 0.5) -> None:
    await running.server.stop(grace=grace)
    for component in reversed(running.components):
        if component.close is not None:
            with contextlib.suppress(Exception):
                await component.close()
    await running.store.close()


def bot_token(table: str, seat_user: str) -> str:
    """A development token for a bot seat's user id, so a test can play that seat itself."""
    del table
    return DevProvider(SECRET).issue(seat_user, roles=("player",))


def unique(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:6]}"


# ---- playing bot seats from the test (the bot service is not part of these tests) ----------

QUITTING = {"leave", "surrender", "propose_end", "propose_trade"}


def bot_policy(leave_lots_to_auction: bool) -> Callable[[Mapping[str, Any], Sequence[Command], random.Random], Command]:
    """The game's bot policy on the seat's own view; optionally the bots decline every lot and pass
    every auction (so the person meets auctions and owns lots others land on)."""

    def choose(state: Mapping[str, Any], legal: Sequence[Command], rng: random.Random) -> Command:
        kinds = {c.kind: c for c in legal}
        if leave_lots_to_auction:
            for kind in ("decline_buy", "pass_auction"):
                if kind in kinds:
                    return kinds[kind]
        staying = [c for c in legal if c.kind not in QUITTING] or list(legal)
        engine = [command_from_proto("puzzipolia", convert.command_to_proto(c)) for c in staying]
        chosen = PUZZIPOLIA.bot_policy(dict(state), engine, rng)
        return convert.command_from_proto(match_pb2.GameCommand(puzzipolia=command_to_proto(chosen)))

    return choose


class BotSeats:
    """Plays the bot seats of a table through the SDK, each as its own user, from its own view."""

    def __init__(self, address: str, table: Table, leave_lots_to_auction: bool = False, seed: int = 7) -> None:
        self.table = table
        self.clients = {s.seat: Client(address, bot_token(table.name, s.user_id)) for s in table.seats if s.is_bot}
        self.choose = bot_policy(leave_lots_to_auction)
        self.rng = random.Random(seed)
        self.moves = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            acted = False
            for seat, client in self.clients.items():
                try:
                    view = await client.view(self.table.name)
                    if view.finished:
                        return
                    if seat not in {d.seat for d in view.decisions} or not view.legal:
                        continue
                    await client.submit(self.table.name, seat, self.choose(view.state, view.legal, self.rng))
                    self.moves += 1
                    acted = True
                except (FailedPrecondition, InvalidArgument):
                    continue  # the table moved on between our view and our command
            if not acted:
                await asyncio.sleep(0.03)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for client in self.clients.values():
            await client.close()
