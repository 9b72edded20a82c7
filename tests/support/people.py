"""Scripted people at a real server: `tablehall up --no-demo` on a database and a NATS prefix
of its own, and people who sign in, sit down, hold or drop presence, hand a seat to a bot, take it
back, remove a seat and play (the game's bot policy on their own view, never quitting on their own).

Used by the stream recorder (tests/data/streams/record.py) and by the tests that drive every game's
seats through the services (tests/platform/test_seat_control_every_game.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import grpc
import nats

from support.upkit import base_env, start_up, tablehall
from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall_platform.infra import find_servers, free_port, with_database
from tablehall_rules.registry import get_game
from tablehall_sdk import Client, Command, FailedPrecondition, InvalidArgument, TableView
from tablehall_sdk.adapters import convert
from tablehall_stream import proto_games

OPERATOR = "oper"
# commands a scripted person never chooses on its own: the scenario decides when to quit
QUITTING = {"leave", "surrender", "propose_end", "propose_trade", "host_propose_end"}
POLL_S = 0.05
# bounds, not speed claims: how long a step may take on a busy machine before the recording fails
STEP_BOUND_S = 300.0
GAME_BOUND_S = 900.0


class ScriptFailed(RuntimeError):
    """A scripted step did not come about within its bound (or a command the script needed failed)."""


# ---- people ------------------------------------------------------------------------------


@dataclass
class Person:
    """A scripted person: an SDK client, the lobby's stub for what the SDK does not say, and a
    presence stream held (present) or dropped (away)."""

    name: str
    client: Client
    lobby: lobby_pb2_grpc.LobbyServiceStub
    rng: random.Random
    presence: dict[str, asyncio.Task[None]] = field(default_factory=dict)  # by table
    sent: Counter[str] = field(default_factory=Counter)

    @property
    def metadata(self) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.client.token}")]

    def rid(self) -> str:
        return uuid.uuid4().hex

    async def present(self, table: str) -> None:
        """Open the presence stream and wait until the lobby has counted it."""
        opened = asyncio.Event()

        async def hold() -> None:
            async for _ in self.client.hold_presence(table):
                opened.set()

        held = self.presence[table] = asyncio.create_task(hold())
        opening = asyncio.create_task(opened.wait())
        await asyncio.wait({held, opening}, timeout=STEP_BOUND_S, return_when=asyncio.FIRST_COMPLETED)
        opening.cancel()
        if not opened.is_set():  # the stream ended (e.g. the table is over) or never answered
            if held.done() and held.exception() is not None:
                raise ScriptFailed(f"{self.name}: presence at {table} refused: {held.exception()!r}")
            raise ScriptFailed(f"{self.name}: presence at {table} never opened")
        await self._until_presence(table, True)

    async def away(self, table: str) -> None:
        """Drop the presence stream (the HoldPresence call cancelled) and wait until the lobby knows."""
        held = self.presence.pop(table)
        held.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await held
        await self._until_presence(table, False)

    async def _until_presence(self, table: str, present: bool) -> None:
        deadline = time.monotonic() + STEP_BOUND_S
        while True:
            seats = (await self.client.get_table(table)).seats
            if any(s.user_id == self.name and s.present == present for s in seats):
                return
            if time.monotonic() > deadline:
                raise ScriptFailed(f"{self.name}: presence never became {present} at {table}")
            await asyncio.sleep(POLL_S)

    async def hand_to_bot(self, table: str, seat: int) -> None:
        request = lobby_pb2.HandSeatToBotRequest(table=table, seat=seat, request_id=self.rid())
        await self.lobby.HandSeatToBot(request, metadata=self.metadata)

    async def reclaim(self, table: str) -> None:
        await self.lobby.ReclaimSeat(
            lobby_pb2.ReclaimSeatRequest(table=table, request_id=self.rid()), metadata=self.metadata
        )

    async def remove_seat(self, table: str, seat: int) -> None:
        request = lobby_pb2.RemoveSeatRequest(table=table, seat=seat, request_id=self.rid())
        await self.lobby.RemoveSeat(request, metadata=self.metadata)

    async def close_table(self, table: str) -> None:
        await self.lobby.CloseTable(
            lobby_pb2.CloseTableRequest(table=table, request_id=self.rid()), metadata=self.metadata
        )

    async def propose_end(self, table: str) -> None:
        request = lobby_pb2.ProposeEndForAllRequest(table=table, request_id=self.rid())
        await self.lobby.ProposeEndForAll(request, metadata=self.metadata)

    # ---- playing ------------------------------------------------------------------------

    def choose(self, view: TableView) -> Command:
        """The game's bot policy on this person's view, over the legal commands but quitting."""
        staying = [c for c in view.legal if c.kind not in QUITTING] or list(view.legal)
        engine = [proto_games.command_from_proto(view.game, convert.command_to_proto(c)) for c in staying]
        chosen = get_game(view.game).bot_policy(dict(view.state), engine, self.rng)  # type: ignore[attr-defined]
        return convert.command_from_proto(proto_games.command_to_proto(view.game, chosen))

    async def my_turn(self, table: str, seat: int) -> TableView | None:
        """The view when this seat has a decision and something to send, else None (finished too)."""
        view = await self.client.view(table)
        if not view.finished and view.legal and any(d.seat == seat for d in view.decisions):
            return view
        return None

    async def play(self, table: str, seat: int, commands: int | None = None) -> TableView:
        """Play this seat: `commands` of its own, or to the end of the game (None)."""
        played = 0
        deadline = time.monotonic() + GAME_BOUND_S
        while commands is None or played < commands:
            view = await self.client.view(table)
            if view.finished:
                return view
            if time.monotonic() > deadline:
                raise ScriptFailed(f"{self.name}: {table} did not end by version {view.version}")
            if not view.legal or not any(d.seat == seat for d in view.decisions):
                await asyncio.sleep(POLL_S)
                continue
            command = self.choose(view)
            try:
                await self.client.submit(table, seat, command)
            except (FailedPrecondition, InvalidArgument):
                continue  # the table moved on between the view and the command (a clock, a bot)
            played += 1
            self.sent[command.kind] += 1
        return await self.client.view(table)

    async def idle(self, table: str, seat: int, timeouts: int) -> None:
        """Stay present and send nothing until `timeouts` of this seat's clocked decisions were
        taken by the timer (the game's default move)."""
        waiting: set[str] = set()
        taken = 0
        deadline = time.monotonic() + STEP_BOUND_S
        while taken < timeouts:
            view = await self.client.view(table)
            if view.finished:
                return
            mine = {d.key for d in view.decisions if d.seat == seat and d.clock_ms > 0 and not d.reaction}
            taken += len(waiting - mine)
            waiting = mine
            if time.monotonic() > deadline:
                raise ScriptFailed(f"{self.name}: the clocks of seat {seat} never ran out at {table}")
            await asyncio.sleep(POLL_S)

    async def until_bot_played(self, table: str, seat: int, moves: int) -> None:
        """Wait until the bot service made `moves` moves for this (handed) seat: versions go by
        while this seat had decisions and this person sent nothing."""
        moved = 0
        last: tuple[int, frozenset[str]] | None = None
        deadline = time.monotonic() + STEP_BOUND_S
        while moved < moves:
            view = await self.client.view(table)
            if view.finished:
                return
            mine = frozenset(d.key for d in view.decisions if d.seat == seat)
            if last is not None and last[1] and view.version != last[0] and mine != last[1]:
                moved += 1
            last = (view.version, mine)
            if time.monotonic() > deadline:
                raise ScriptFailed(f"{self.name}: no bot played seat {seat} at {table}")
            await asyncio.sleep(POLL_S)

    async def until_finished(self, table: str) -> TableView:
        deadline = time.monotonic() + GAME_BOUND_S
        while not (view := await self.client.view(table)).finished:
            if time.monotonic() > deadline:
                raise ScriptFailed(f"{table} did not end by version {view.version}")
            await asyncio.sleep(POLL_S)
        return view

    async def leave_all(self) -> None:
        for held in self.presence.values():
            held.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await held
        self.presence.clear()


@dataclass
class Stage:
    address: str
    channel: grpc.aio.Channel
    env: Mapping[str, str]
    work: Path
    people: dict[str, Person] = field(default_factory=dict)

    async def person(self, name: str) -> Person:
        if name not in self.people:
            client = Client(self.address)
            if name == OPERATOR:  # an operator's name is not signed in for: a token as `tablehall token` issues
                printed = run_cli(["token", name, "--roles", "player,operator"], self.env, self.work, "token")
                client.token, client.user_id = printed.strip(), name
            else:
                await client.sign_in_dev(name, name.capitalize(), client_secret=f"recorded-streams-secret-{name}")
            seed = sum(name.encode())
            self.people[name] = Person(name, client, lobby_pb2_grpc.LobbyServiceStub(self.channel), random.Random(seed))
        return self.people[name]

    async def table(self, host: Person, game: str, options: Mapping[str, Any], seats: list[str]) -> str:
        """A started table: `seats` in order ("bot", or a person's name; the host sits first)."""
        assert seats[0] == host.name
        table = await host.client.create_table(game, options, seat_count=len(seats))
        for seat, who in enumerate(seats[1:], start=1):
            if who == "bot":
                await host.client.add_bot(table.name, seat=seat)
            else:
                await (await self.person(who)).client.join(table.name, seat=seat)
        started, _ = await host.client.start(table.name)
        return started.name

    async def close(self) -> None:
        for person in self.people.values():
            await person.leave_all()
            await person.client.close()


@contextlib.asynccontextmanager
async def serving(work: Path) -> AsyncIterator[tuple[str, dict[str, str]]]:
    """`tablehall up --no-demo` on a fresh database and a NATS prefix of its own: (address, env)."""
    database = f"tablehall_people_{uuid.uuid4().hex[:10]}"
    servers = await find_servers(work / "servers", database)
    prefix = f"tablehall_people_{uuid.uuid4().hex[:8]}"
    env = {
        **base_env(work),
        "TABLEHALL_DATABASE_URL": servers.database_url,
        "TABLEHALL_NATS_URL": servers.nats_url,
        "TABLEHALL_NATS_PREFIX": prefix,
        "TABLEHALL_SECRETS_DIR": str(work / "secrets"),
        "TABLEHALL_WEB_PORT": "0",
        "TABLEHALL_OPERATORS": OPERATOR,
        "TABLEHALL_BOT_THINK_MS": "30",
        "TABLEHALL_TIMER_FIRST_CLOCK_WAIT_SECONDS": "0",
        "XDG_CONFIG_HOME": str(work / "config"),
    }
    up = start_up(env, work, free_port(), extra=("--no-demo",))
    try:
        yield f"127.0.0.1:{up.port}", env
    finally:
        up.proc.terminate()
        try:
            up.proc.wait(30)
        except subprocess.TimeoutExpired:
            up.proc.kill()
        await _drop_nats_stream(servers.nats_url, prefix.upper() + "_EVENTS")
        await _drop_database(servers.database_url, database)
        servers.stop()


async def _drop_nats_stream(nats_url: str, stream: str) -> None:
    client = await nats.connect(nats_url)
    try:
        with contextlib.suppress(Exception):
            await client.jetstream().delete_stream(stream)
    finally:
        await client.close()


async def _drop_database(database_url: str, name: str) -> None:
    conn = await asyncpg.connect(with_database(database_url, "postgres"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def run_cli(args: list[str], env: Mapping[str, str], work: Path, name: str) -> str:
    proc = tablehall(args, env, work, name)
    if proc.wait(300) != 0:
        raise ScriptFailed(f"tablehall {' '.join(args)} failed:\n{(work / f'{name}.err').read_text()}")
    return (work / f"{name}.out").read_text()
