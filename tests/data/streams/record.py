"""Record finished tables of every game through the real services and export them signed.

    .venv/bin/python tests/data/streams/record.py --out tests/data/streams [--only NAME ...]

Starts `tablehall up --no-demo` (lobby, match, timer, bot, projection, publisher) on a fresh
database of the local PostgreSQL (or whatever `find_servers` finds) and its own NATS prefix,
plays the scenarios below with scripted people (development sign-in, the SDK, the lobby's gRPC
API) and the bot service's bots, exports each finished table with `tablehall export`, writes the
server's public key with `tablehall signing-key`, checks every file with `tablehall verify --file`
and writes README.md with what each file holds. The files are the test data of
tests/audit/test_recorded_streams.py: streams written by the code of the day, kept so that later
code proves it still replays and verifies them.

A person's moves: the game's own bot policy on the person's view (never quitting on its own),
so games end by their rules in a few rounds; what a scenario needs (presence dropped, a seat
handed to a bot, clocks left to run out, a removal, a close) it does explicitly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import grpc
import nats

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))

from support.upkit import base_env, start_up, tablehall  # noqa: E402

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc  # noqa: E402
from tablehall_audit.export import read_export_file  # noqa: E402
from tablehall_platform.infra import find_servers, free_port, with_database  # noqa: E402
from tablehall_rules.registry import get_game  # noqa: E402
from tablehall_sdk import Client, Command, FailedPrecondition, InvalidArgument, TableView  # noqa: E402
from tablehall_sdk.adapters import convert  # noqa: E402
from tablehall_stream import proto_games  # noqa: E402

OPERATOR = "oper"
KEY_FILE = "signing-key.pub.pem"
# commands a scripted person never chooses on its own: the scenario decides when to quit
QUITTING = {"leave", "surrender", "propose_end", "propose_trade", "host_propose_end"}
POLL_S = 0.05
# bounds, not speed claims: how long a step may take on a busy machine before the recording fails
STEP_BOUND_S = 300.0
GAME_BOUND_S = 900.0


class RecordingFailed(RuntimeError):
    pass


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

        self.presence[table] = asyncio.create_task(hold())
        await asyncio.wait_for(opened.wait(), STEP_BOUND_S)
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
                raise RecordingFailed(f"{self.name}: presence never became {present} at {table}")
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
                raise RecordingFailed(f"{self.name}: {table} did not end by version {view.version}")
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
                raise RecordingFailed(f"{self.name}: the clocks of seat {seat} never ran out at {table}")
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
                raise RecordingFailed(f"{self.name}: no bot played seat {seat} at {table}")
            await asyncio.sleep(POLL_S)

    async def until_finished(self, table: str) -> TableView:
        deadline = time.monotonic() + GAME_BOUND_S
        while not (view := await self.client.view(table)).finished:
            if time.monotonic() > deadline:
                raise RecordingFailed(f"{table} did not end by version {view.version}")
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


# ---- the scenarios -----------------------------------------------------------------------
# Each plays one table to its end and returns its name; DESCRIPTIONS say what each holds.

Scenario = Callable[[Stage], Awaitable[str]]


async def puzzipolia_handover(stage: Stage) -> str:
    ann, ben = await stage.person("ann"), await stage.person("ben")
    options = {"decision_clock_s": 20, "round_limit": 2, "start_money": 1500}
    table = await stage.table(ann, "puzzipolia", options, ["ann", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    both = asyncio.gather(ann.play(table, 0, 2), ben.play(table, 1, 2))
    await both
    await ben.away(table)  # Ben's connection drops
    await ann.hand_to_bot(table, 1)  # the host hands his seat to a bot, which plays it
    await asyncio.gather(ann.play(table, 0, 2), ben.until_bot_played(table, 1, 2))
    await ben.present(table)  # Ben is back and takes his seat again
    await ben.reclaim(table)
    await asyncio.gather(ann.idle(table, 0, 2), ben.play(table, 1, 2))  # Ann lets her clock run out
    await asyncio.gather(ann.play(table, 0), ben.play(table, 1))  # to the round limit
    return table


async def puzzipolia_removed_host_end(stage: Stage) -> str:
    ann, ben = await stage.person("ann"), await stage.person("ben")
    options = {"decision_clock_s": 60, "round_limit": 6}
    table = await stage.table(ann, "puzzipolia", options, ["ann", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    await asyncio.gather(ann.play(table, 0, 3), ben.play(table, 1, 3))
    await ben.away(table)
    await ann.remove_seat(table, 1)  # an absent player removed by the host
    await ann.play(table, 0, 2)
    await ann.propose_end(table)  # ■: only a bot plays on, so the game ends at once
    await ann.until_finished(table)
    return table


async def dragons_handover(stage: Stage) -> str:
    ann = await stage.person("ann")
    table = await stage.table(ann, "dragons", {"decision_clock_s": 15}, ["ann", "bot"])
    await ann.present(table)
    await ann.play(table, 0, 4)
    await ann.away(table)
    await ann.hand_to_bot(table, 0)  # the host hands her own seat to a bot while away
    await ann.until_bot_played(table, 0, 2)
    await ann.present(table)
    await ann.reclaim(table)
    await ann.idle(table, 0, 3)  # the clock runs out (then the AFK ladder's short clocks)
    await ann.play(table, 0)  # to the end of round 22
    return table


async def dragons_removed(stage: Stage) -> str:
    ann = await stage.person("ann")
    table = await stage.table(ann, "dragons", {"decision_clock_s": 60}, ["ann", "bot"])
    await ann.present(table)
    await ann.play(table, 0, 6)
    # the host removes the bot: the removed seat loses. Today the match's removal ends the game
    # before the lobby records it, so the lobby refuses its own event (MATCH_FINISHED) and the
    # stream holds the game's removal without the lobby's BotRemoved: recorded as it is.
    try:
        await ann.remove_seat(table, 1)
    except grpc.aio.AioRpcError as exc:
        if exc.code() != grpc.StatusCode.FAILED_PRECONDITION or "over" not in (exc.details() or ""):
            raise
    await ann.until_finished(table)
    return table


async def dragons_closed(stage: Stage) -> str:
    ann, oper = await stage.person("ann"), await stage.person(OPERATOR)
    table = await stage.table(ann, "dragons", {"decision_clock_s": 60}, ["ann", "bot"])
    await ann.present(table)
    await ann.play(table, 0, 6)
    await oper.close_table(table)  # an operator closes the running table
    await ann.until_finished(table)
    return table


async def magnates_handover(stage: Stage) -> str:
    ann, ben = await stage.person("ann"), await stage.person("ben")
    table = await stage.table(ann, "magnates", {"round_limit": 3, "clock_ms": 4000}, ["ann", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    await asyncio.gather(ann.play(table, 0, 2), ben.play(table, 1, 2))
    await ben.away(table)
    await ann.hand_to_bot(table, 1)
    await asyncio.gather(ann.play(table, 0, 2), ben.until_bot_played(table, 1, 2))
    await ben.present(table)
    await ben.reclaim(table)
    await asyncio.gather(ann.play(table, 0, 2), ben.idle(table, 1, 3))  # Ben's clock runs out
    await asyncio.gather(ann.play(table, 0), ben.play(table, 1))  # to the round limit
    return table


async def magnates_removed_closed(stage: Stage) -> str:
    ann, ben, oper = await stage.person("ann"), await stage.person("ben"), await stage.person(OPERATOR)
    table = await stage.table(ann, "magnates", {"round_limit": 10, "clock_ms": 60_000}, ["ann", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    await asyncio.gather(ann.play(table, 0, 3), ben.play(table, 1, 3))
    await ben.away(table)
    await ann.remove_seat(table, 1)  # an absent player removed by the host: eliminated
    await ann.play(table, 0, 3)
    await oper.close_table(table)  # an operator closes the running table
    await ann.until_finished(table)
    return table


async def homunculus_ffa(stage: Stage) -> str:
    ann = await stage.person("ann")
    table = await stage.table(ann, "homunculus", {"clock_ms": 5000}, ["ann", "bot", "bot", "bot"])
    await ann.present(table)
    await ann.play(table, 0, 4)
    await ann.away(table)  # the game has no rule for presence today: only the lobby's fact
    await ann.present(table)
    await ann.idle(table, 0, 3)  # the clock runs out
    await ann.play(table, 0, 4)
    await ann.remove_seat(table, 1)  # the host removes two bots: out of the game
    await ann.remove_seat(table, 3)
    await ann.play(table, 0, 2)
    view = await ann.client.view(table)
    surrender = next((c for c in view.legal if c.kind == "surrender"), None)
    if surrender is not None and not view.finished:  # Ann gives up: the last one standing wins
        with contextlib.suppress(FailedPrecondition, InvalidArgument):
            await ann.client.submit(table, 0, surrender)
    await ann.until_finished(table)
    return table


async def homunculus_teams(stage: Stage) -> str:
    ann, ben, oper = await stage.person("ann"), await stage.person("ben"), await stage.person(OPERATOR)
    # 2-on-2: seats 0+2 (Ann and Ben) against 1+3 (bots)
    table = await stage.table(ann, "homunculus", {"teams": True, "clock_ms": 5000}, ["ann", "bot", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    await asyncio.gather(ann.play(table, 0, 3), ben.play(table, 2, 3))
    await ben.away(table)
    await ann.hand_to_bot(table, 2)  # the lobby hands it over; the game has no rule for it today
    await ann.play(table, 0, 2)
    await ben.present(table)
    await ben.reclaim(table)
    await asyncio.gather(ann.play(table, 0, 3), ben.idle(table, 2, 2))
    await oper.close_table(table)
    await ann.until_finished(table)
    return table


SCENARIOS: dict[str, Scenario] = {
    "puzzipolia-handover": puzzipolia_handover,
    "puzzipolia-removed-host-end": puzzipolia_removed_host_end,
    "dragons-handover": dragons_handover,
    "dragons-removed": dragons_removed,
    "dragons-closed": dragons_closed,
    "magnates-handover": magnates_handover,
    "magnates-removed-closed": magnates_removed_closed,
    "homunculus-ffa": homunculus_ffa,
    "homunculus-teams": homunculus_teams,
}

DESCRIPTIONS: dict[str, str] = {
    "puzzipolia-handover": (
        "Ann (host) and Ben with one bot, 20 s clocks, round limit 2. Ben's presence stream drops, "
        "the host hands his seat to a bot, the bot plays it, Ben holds presence again and reclaims "
        "it; Ann leaves her clocks to run out for a while; the game ends at the round limit."
    ),
    "puzzipolia-removed-host-end": (
        "Ann (host) and Ben with one bot, round limit 6. Ben drops out and the host removes him; "
        "the host proposes the end for all (■): with no other person playing, the vote passes at "
        "once and the game ends."
    ),
    "dragons-handover": (
        "Ann (host) against a bot, 15 s clocks. Ann's presence drops, she hands her own seat to a "
        "bot, which plays it, comes back and reclaims it; she leaves her clocks to run out for a "
        "while (the AFK ladder's short clocks follow); then she plays to the end of round 22."
    ),
    "dragons-removed": (
        "Ann (host) against a bot; after a few moves the host removes the bot, which loses. The "
        "match's removal ends the game before the lobby records it, so the lobby refuses its own "
        "BotRemoved (MATCH_FINISHED) and the stream has the game's removal without the lobby's fact: "
        "what today's code writes."
    ),
    "dragons-closed": "Ann (host) against a bot; an operator closes the running table.",
    "magnates-handover": (
        "Ann (host) and Ben with one bot, 4 s clocks, round limit 3. Ben drops, his seat is handed "
        "to a bot and reclaimed; he leaves his clocks to run out for a while; the game ends at the "
        "round limit."
    ),
    "magnates-removed-closed": (
        "Ann (host) and Ben with one bot. Ben drops out and the host removes him (eliminated); "
        "an operator closes the running table."
    ),
    "homunculus-ffa": (
        "Ann (host) and three bots, free-for-all, 5 s clocks. Ann's presence drops and comes back "
        "(the game has no rule for it: lobby events only); she leaves her clock to run out; the host "
        "removes two bots; Ann surrenders and the last one standing wins."
    ),
    "homunculus-teams": (
        "2-on-2: Ann (host) and Ben (seats 0, 2) against two bots (1, 3), 5 s clocks. Ben drops, "
        "his seat is handed to a bot and reclaimed (lobby events only: the game has no rule for "
        "it); he leaves his clock to run out; an operator closes the table."
    ),
}


# ---- the server, the exports and the README -----------------------------------------------


@contextlib.asynccontextmanager
async def recording_server(work: Path) -> AsyncIterator[tuple[str, dict[str, str]]]:
    """`tablehall up --no-demo` on a fresh database and a NATS prefix of its own: (address, env)."""
    database = f"tablehall_rec_{uuid.uuid4().hex[:10]}"
    servers = await find_servers(work / "servers", database)
    prefix = f"tablehall_rec_{uuid.uuid4().hex[:8]}"
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
        raise RecordingFailed(f"tablehall {' '.join(args)} failed:\n{(work / f'{name}.err').read_text()}")
    return (work / f"{name}.out").read_text()


# the lobby's facts about the people at a table (in the table's stream, beside the game's events)
LOBBY_FACTS = ("PresenceChanged", "SeatHandedToBot", "SeatReclaimed", "PlayerRemoved", "BotRemoved", "TableClosed")


@dataclass(frozen=True)
class Holds:
    """What one file holds, counted from its events."""

    events: int
    lobby: Counter[str]  # the lobby's facts by type
    table_commands: Counter[str]  # the game's system commands (presence, controller, removal, close, ■) by type
    game_events: Counter[str]  # the game's events that record those (PresenceChanged, ControllerChanged, ...)
    timeouts: int  # commands the timer sent when a clock ran out (the game's default move)
    end: str  # the outcome's reason


def holds(data: bytes) -> Holds:
    copy = read_export_file(data).copy
    lobby: Counter[str] = Counter()
    game_events: Counter[str] = Counter()
    commands: dict[str, dict[str, Any]] = {}
    for event in copy.events:
        prefix, _, tag = event.type.partition(".")
        if prefix == "lobby" and tag in LOBBY_FACTS:
            lobby[tag] += 1
        elif prefix not in ("lobby", "match") and ("Presence" in tag or "Controller" in tag or "Afk" in tag):
            game_events[tag] += 1
        if "command" in event.metadata:
            commands.setdefault(str(event.metadata.get("command_id")), event.metadata)
    table_commands = Counter(str(m["command"].get("type")) for m in commands.values() if m.get("seat") is None)
    table_commands.pop("None", None)
    timeouts = sum(1 for m in commands.values() if m.get("timeout"))
    ended = next(e for e in copy.events if e.type == "match.Ended")
    outcome = json.loads(ended.payload)["outcome"]
    end = str(outcome.get("reason", "?")) if isinstance(outcome, dict) else "?"
    return Holds(len(copy.events), lobby, table_commands, game_events, timeouts, end)


def commit_of_code() -> str:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "libs", "services"], cwd=ROOT, capture_output=True, text=True
    )
    return head.stdout.strip() + (
        " (with uncommitted changes under libs/ or services/)" if dirty.stdout.strip() else ""
    )


README_HEAD = """# Recorded streams

Finished tables of every game, written through the real services by the code of commit
`{commit}` (recorded {date}), exported with the product's own export (`tablehall export TABLE
--out FILE`, format `tablehall-table/2`, Ed25519-signed by the recording server's key). They are
kept so that later code proves it still reads, replays and verifies the streams of today:
`tests/audit/test_recorded_streams.py` checks every `*.json` here (the signature against
`{key}`, `verify_stream`: hash chain, seed, every draw recomputed, every command re-decided, and
the match's own loading path rebuilding the same state as replaying the events one by one).

`{key}`: the public key of the recording server (key id `{key_id}`).

## How they were recorded

`.venv/bin/python tests/data/streams/record.py --out tests/data/streams` (this README is its
output too). PostgreSQL and NATS are found as `tablehall up` finds them; the recording uses a
database and a NATS prefix of its own, dropped at the end. It runs `tablehall up --no-demo`
(lobby, match, timer, bot, projection, publisher; easy bots), plays each scenario with scripted
people through the SDK and the lobby's gRPC API (a person's moves: the game's bot policy on the
person's view, never quitting on its own), exports each table with `tablehall export`, writes
the server's public key (`tablehall signing-key`) and checks each file with `tablehall verify
--file F --key {key}`. Re-recording replaces every file and the key together: the tables
differ from run to run (new seeds, bots' choices), the scenarios do not. `--only NAME` records
some scenarios with a new key: give it another `--out`.

## The files

Counts: the lobby's facts (`lobby.*` events in the table's stream), the game's table commands
(system commands the match decided for the platform: presence, controller, removal, close, the
host's ■; none where the game has no rule), the game's events about presence/controller/AFK, and
timeouts (commands the timer sent when a clock ran out: the game's default move).

"""


def _listed(counts: Counter[str]) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items())) or "none"


def readme_section(name: str, size: int, held: Holds) -> str:
    return (
        f"### `{name}.json` ({size // 1024} KB, {held.events} events, ends: {held.end})\n\n"
        f"{DESCRIPTIONS[name]}\n\n"
        f"- lobby facts: {_listed(held.lobby)}\n"
        f"- the game's table commands: {_listed(held.table_commands)}\n"
        f"- the game's presence/controller/AFK events: {_listed(held.game_events)}\n"
        f"- timeouts: {held.timeouts}\n"
    )


async def record(out: Path, chosen: Mapping[str, Scenario], work: Path) -> str:
    """Play and export the chosen scenarios; the id of the key that signed the files."""
    async with recording_server(work) as (address, env):
        printed = await asyncio.to_thread(run_cli, ["signing-key"], env, work, "signing-key")
        pem = "".join(line + "\n" for line in printed.splitlines() if not line.startswith("#"))
        await asyncio.to_thread((out / KEY_FILE).write_text, pem)
        channel = grpc.aio.insecure_channel(address)
        stage = Stage(address, channel, env, work)
        try:
            for name, scenario in chosen.items():
                started = time.monotonic()
                table = await scenario(stage)
                print(f"{name}: {table} finished in {time.monotonic() - started:.0f} s", flush=True)
                export = ["export", table, "--out", str(out / f"{name}.json")]
                await asyncio.to_thread(run_cli, export, env, work, f"export-{name}")
        finally:
            await stage.close()
            await channel.close()
    return printed.splitlines()[0].removeprefix("# key id ").split()[0]


def check_and_describe(out: Path, chosen: Mapping[str, Scenario], key_id: str) -> None:
    """`tablehall verify --file` on each file with the kept key; README.md when all were recorded."""
    sections = []
    for name in chosen:
        path = out / f"{name}.json"
        verify = [
            sys.executable,
            "-m",
            "tablehall_cli.main",
            "verify",
            "--file",
            str(path),
            "--key",
            str(out / KEY_FILE),
        ]
        verdict = subprocess.run(verify, capture_output=True, text=True, check=False)
        if verdict.returncode != 0:
            raise RecordingFailed(f"{path.name} does not verify:\n{verdict.stdout}{verdict.stderr}")
        data = path.read_bytes()
        held = holds(data)
        print(f"{path.name}: {len(data)} bytes, {held}", flush=True)
        sections.append(readme_section(name, len(data), held))
    if set(chosen) == set(SCENARIOS):
        date = datetime.date.today().isoformat()
        head = README_HEAD.format(commit=commit_of_code(), date=date, key=KEY_FILE, key_id=key_id)
        (out / "README.md").write_text(head + "\n".join(sections))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument(
        "--only", nargs="*", choices=sorted(SCENARIOS), default=[], help="record only these (with a new key)"
    )
    args = parser.parse_args()
    out: Path = args.out.resolve()
    chosen = {name: SCENARIOS[name] for name in (args.only or SCENARIOS)}
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tablehall-record-") as folder:
        work = Path(folder)
        work.chmod(0o755)  # an embedded PostgreSQL runs as another user
        key_id = asyncio.run(record(out, chosen, work))
    check_and_describe(out, chosen, key_id)


if __name__ == "__main__":
    main()
