"""Fuzz every RPC of every service of a running `tablehall up` (issues 13 and 30).

Starts `tablehall up` in a subprocess on a database of its own, plays honest
games of the test game on a few tables (players submitting through the match),
and meanwhile sends thousands of random and hostile requests to every method
of every service found in the protos (lobby, identity, match, timer, bot,
projection); game commands packed in `GameCommand.other` carry the test game's type with
corrupt bytes or hostile strings inside. It prints the counts by status code and fails (exit 1) on any
UNKNOWN or INTERNAL answer, a server that died, an honest command that failed,
or an honest table whose head moved by anything but its honest commands.

    python tests/fuzz/fuzz_rpcs.py --seconds 60        # make fuzz
    python tests/fuzz/fuzz_rpcs.py --requests 300      # a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.descriptor import FieldDescriptor, MethodDescriptor, ServiceDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from support.serverkit import start_up  # noqa: E402

from tablehall.bot.v1 import bot_pb2  # noqa: E402
from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc  # noqa: E402
from tablehall.match.v1 import match_pb2, match_pb2_grpc  # noqa: E402
from tablehall.projection.v1 import projection_pb2  # noqa: E402
from tablehall.timer.v1 import timer_pb2  # noqa: E402
from tablehall_platform.auth import DevProvider  # noqa: E402
from testgame.proto import testgame_pb2  # noqa: E402

MODULES = (lobby_pb2, match_pb2, timer_pb2, bot_pb2, projection_pb2)
BAD = {grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}

HOSTILE_STRINGS = [
    "",
    "\x00",
    "a\x00b",
    "alice\n",
    "x" * 3000,
    "tables/",
    "tables/t-1\n",
    "tables/../x",
    "\u202eevil",
    "Cafe\u0301",
    "😀" * 50,
    "{" * 2000,
    '{"a": ' * 5000 + "1" + "}" * 5000,
    '{"target": 30}',
    "[1]",
    str(2**31),
    str(2**63),
    "-1",
    "MjE0NzQ4MzY0OA==",  # base64 "2147483648"
    "MTg0NDY3NDQwNzM3MDk1NTE2MTY6dC0x",  # "18446744073709551616:t-1"
    "\udcff".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
    # issue 30: text that looks like an escape, invisible characters, look-alike names, numbers
    "\\u0000",
    "Eve\\u0000",
    "\\\\u0000",
    "Eve\u200b",
    "\u2066Eve\u2069",
    "E\u00adve",
    "\u3164",
    "\uff25\uff56\uff45",
    "P4HOST",
    "p4host",
    '{"target": ' + "9" * 5000 + "}",
    '{"target": 30, "x": -' + "1" * 400 + "}",
    '{"target": 30, "x": 1e999}',
    '{"target": NaN}',
    '{"target": 9223372036854775808}',
]
# GameCommand.other (an Any): the test game's command type, with bytes of every kind inside
TESTGAME_COMMAND = "type.googleapis.com/tablehall.testgame.v1.Command"
HOSTILE_COMMAND_BYTES = [
    b"\x22\x03\x0a\x01\xff",  # Close{reason: invalid UTF-8}
    b"\xff\xff\xff",
    b"\x0a\x10",  # a field cut short
    b"\x22\x04\x0a\x02a\x00",  # Close{reason: "a<NUL>"}
    b"\x22\x05\x0a\x03a\x07b",  # Close{reason: a control character}
    b"\x0a\x00",  # Roll{}
]
HOSTILE_INTS = [0, 1, -1, 2, 7, 2**31 - 1, -(2**31), 2**63 - 1, -(2**63)]


class Fuzzer:
    def __init__(self, rng: random.Random, tables: list[str]) -> None:
        self.rng = rng
        self.tables = tables  # honest tables: the fuzzer aims at them too
        self.own: list[str] = []  # tables the fuzzer created itself (its CreateTable answers)
        self.valid = 0.5  # the share of well-formed strings, drawn per request

    def string(self, name: str = "") -> str:
        if self.rng.random() < self.valid:  # well-formed, so the request gets past the edge
            if name == "table" and self.own:
                return self.rng.choice(self.own)
            if name == "request_id":
                return uuid.uuid4().hex
            if name == "options_json":
                return self.rng.choice(['{"target": 30}', "{}", '{"spectator_delay": 2}'])
            if name == "game":
                return self.rng.choice(["testgame", "puzzipolia"])
            if name in ("user_id", "name", "display_name"):
                return self.rng.choice(["fuzz0", "fuzz1", "honest0a", "Eve", "HONEST0A", "Eve\\u0000"])
            if name != "table":
                return self.rng.choice(["", "hello", "1234", "0417"])
        r = self.rng.random()
        if r < 0.3 and self.tables:
            name = self.rng.choice(self.tables)
            return self.rng.choice([name, name + "\n", name + "\x00", name.upper()])
        if r < 0.8:
            return self.rng.choice(HOSTILE_STRINGS)
        return "".join(chr(self.rng.randrange(0, 0x3000)) for _ in range(self.rng.randrange(0, 40)))

    def value(self, field: Any, depth: int) -> Any:  # a FieldDescriptor (python or upb)
        if field.type == FieldDescriptor.TYPE_STRING:
            return self.string(field.name)
        if field.type == FieldDescriptor.TYPE_BYTES:
            return self.rng.randbytes(self.rng.randrange(0, 64))
        if field.type == FieldDescriptor.TYPE_BOOL:
            return self.rng.random() < 0.5
        if field.type == FieldDescriptor.TYPE_ENUM:
            assert field.enum_type is not None
            values = [v.number for v in field.enum_type.values]
            return self.rng.choice([*values, 99])
        if field.type in (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64) and self.rng.random() < self.valid:
            return self.rng.randrange(0, 4)
        if field.type in (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SFIXED32):
            return max(-(2**31), min(2**31 - 1, self.rng.choice(HOSTILE_INTS)))
        if field.type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32):
            return self.rng.choice([0, 1, 2**32 - 1])
        if field.type in (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64):
            return self.rng.choice([0, 1, 2**64 - 1])
        if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            return self.rng.choice([0.0, -1.0, 1e308])
        return self.rng.choice(HOSTILE_INTS)

    def fill(self, message: Message, depth: int = 0) -> Message:
        descriptor = message.DESCRIPTOR
        oneofs_done: set[str] = set()
        for field in descriptor.fields:
            if self.rng.random() < 0.3 * (1.5 - self.valid):
                continue
            if field.containing_oneof is not None:
                if field.containing_oneof.name in oneofs_done:
                    continue
                oneofs_done.add(field.containing_oneof.name)
            if field.type == FieldDescriptor.TYPE_MESSAGE:
                if depth > 4:
                    continue
                assert field.message_type is not None
                if field.message_type.full_name == "google.protobuf.Any" and not field.is_repeated:
                    self.any_value(getattr(message, field.name))
                    continue
                if field.is_repeated:
                    for _ in range(self.rng.randrange(0, 3)):
                        self.fill(getattr(message, field.name).add(), depth + 1)
                else:
                    self.fill(getattr(message, field.name), depth + 1)
                    getattr(message, field.name).SetInParent()
            elif field.is_repeated:
                getattr(message, field.name).extend(self.value(field, depth) for _ in range(self.rng.randrange(0, 3)))
            else:
                setattr(message, field.name, self.value(field, depth))
        return message

    def any_value(self, packed: Message) -> None:
        """An Any as a game command travels (GameCommand.other): mostly the test game's type, its
        bytes corrupt, cut short, or a command whose strings break the input policy."""
        if self.rng.random() < 0.2:
            packed.type_url = self.string("type_url")  # type: ignore[attr-defined]
            packed.value = self.rng.randbytes(self.rng.randrange(0, 32))  # type: ignore[attr-defined]
            return
        packed.type_url = TESTGAME_COMMAND  # type: ignore[attr-defined]
        if self.rng.random() < 0.5:
            packed.value = self.rng.choice(HOSTILE_COMMAND_BYTES)  # type: ignore[attr-defined]
        else:
            close = testgame_pb2.Close(reason=self.rng.choice(HOSTILE_STRINGS))
            packed.value = testgame_pb2.Command(close=close).SerializeToString()  # type: ignore[attr-defined]

    def payload(self, method: MethodDescriptor) -> bytes:
        self.valid = self.rng.choice([0.3, 0.9, 1.0])
        message = GetMessageClass(method.input_type)()
        data = self.fill(message).SerializeToString()
        if self.rng.random() < 0.1:  # corrupt bytes and invalid UTF-8
            return self.rng.choice([b"\x0a\x03\xff\xfe\xfd", data[: len(data) // 2], self.rng.randbytes(20)])
        return data


async def sharp_cases(channel: grpc.aio.Channel, people: DevProvider, table: str) -> list[str]:
    """Requests that once answered INTERNAL or were taken (issue 30), each with the answer it
    must get now; the differences, as failures. `table` is an honest table of the test game."""
    lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
    identity = lobby_pb2_grpc.IdentityServiceStub(channel)
    match = match_pb2_grpc.MatchServiceStub(channel)
    code = grpc.StatusCode
    failures: list[str] = []

    async def expect(what: str, call: Any, want: grpc.StatusCode) -> Any:
        try:
            answer = await call
        except grpc.aio.AioRpcError as exc:
            if exc.code() != want:
                failures.append(f"{what}: {exc.code().name} ({exc.details()}), expected {want.name}")
            return None
        if want != code.OK:
            failures.append(f"{what}: OK, expected {want.name}")
        return answer

    secret = f"fuzz-sharp-{uuid.uuid4().hex}"
    signed = await expect(
        "DevSignIn with the text \\u0000 in the display name",
        identity.DevSignIn(lobby_pb2.DevSignInRequest(name="sharp30", display_name="Eve\\u0000", client_secret=secret)),
        code.OK,
    )
    meta = (
        [("authorization", f"Bearer {signed.token}")] if signed else [("authorization", f"Bearer {people.issue('s')}")]
    )
    made = await expect(
        "CreateTable by that user",
        lobby.CreateTable(
            lobby_pb2.CreateTableRequest(game="testgame", options_json='{"target": 30}', seat_count=2, request_id="s1"),
            metadata=meta,
        ),
        code.OK,
    )
    await expect(
        "DevSignIn of the same name in capitals by another client",
        identity.DevSignIn(lobby_pb2.DevSignInRequest(name="SHARP30", client_secret=f"other-{secret}")),
        code.PERMISSION_DENIED,
    )
    await expect(
        "DevSignIn with a zero-width space in the display name",
        identity.DevSignIn(lobby_pb2.DevSignInRequest(name="sharp30", display_name="Eve\u200b", client_secret=secret)),
        code.INVALID_ARGUMENT,
    )
    for digits in ("9" * 5000, "1e999", "NaN"):
        await expect(
            f"CreateTable with options_json {digits[:8]}...",
            lobby.CreateTable(
                lobby_pb2.CreateTableRequest(
                    game="testgame", options_json='{"target": ' + digits + "}", seat_count=2, request_id=digits[:8]
                ),
                metadata=meta,
            ),
            code.INVALID_ARGUMENT,
        )
    if made is not None:
        await expect(
            "RemoveSpectator with an empty user id",
            lobby.RemoveSpectator(
                lobby_pb2.RemoveSpectatorRequest(table=made.table.name, user_id="", request_id="s2"), metadata=meta
            ),
            code.INVALID_ARGUMENT,
        )
    for n, value in enumerate(HOSTILE_COMMAND_BYTES[:5]):
        command = match_pb2.GameCommand()
        command.other.type_url = TESTGAME_COMMAND
        command.other.value = value
        await expect(
            f"SubmitCommand with GameCommand.other bytes {value!r}",
            match.SubmitCommand(
                match_pb2.SubmitCommandRequest(table=table, command=command, request_id=f"sharp{n}", as_table=True),
                metadata=[("authorization", f"Bearer {people.issue('sharp-op', roles=('operator',))}")],
            ),
            code.INVALID_ARGUMENT,
        )
    return failures


def grpc_code_name(value: int) -> str:
    return next((c.name for c in grpc.StatusCode if c.value[0] == value), str(value))


def methods() -> list[tuple[ServiceDescriptor, MethodDescriptor]]:
    found: list[tuple[ServiceDescriptor, MethodDescriptor]] = []
    for module in MODULES:
        for service in module.DESCRIPTOR.services_by_name.values():
            found.extend((service, m) for m in service.methods)
    return found


def in_band_errors(method: MethodDescriptor, data: bytes) -> list[int]:
    """Status codes a response carries in its fields (SubmitCommands answers each command so)."""
    message = GetMessageClass(method.output_type)()
    message.ParseFromString(data)
    codes = []
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.full_name == "google.rpc.Status":
            codes.append(value.code)
    return codes


async def call(
    channel: grpc.aio.Channel,
    service: ServiceDescriptor,
    method: MethodDescriptor,
    data: bytes,
    metadata: Any,
    seen: list[bytes],
) -> grpc.StatusCode:
    path = f"/{service.full_name}/{method.name}"
    raw = {"request_serializer": None, "response_deserializer": seen_bytes(seen)}
    try:
        if method.client_streaming:
            stub = channel.stream_stream(path, **raw) if method.server_streaming else channel.stream_unary(path, **raw)

            async def items() -> Any:
                for _ in range(3):
                    yield data

            if method.server_streaming:
                stream = stub(items(), metadata=metadata, timeout=3)
                async for _ in stream:
                    pass
            else:
                await stub(items(), metadata=metadata, timeout=3)
        elif method.server_streaming:
            stream = channel.unary_stream(path, **raw)(data, metadata=metadata, timeout=1)
            await stream.read()
            stream.cancel()
        else:
            await channel.unary_unary(path, **raw)(data, metadata=metadata, timeout=5)
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


def seen_bytes(seen: list[bytes]) -> Any:
    def keep(data: bytes) -> bytes:
        seen.append(data)
        return data

    return keep


class Honest:
    """Two players alternating rolls on tables of the test game, through the match."""

    def __init__(self, stub: match_pb2_grpc.MatchServiceStub, people: DevProvider, lobby_token: str) -> None:
        self.stub = stub
        self.people = people
        self.lobby = [("authorization", f"Bearer {lobby_token}")]
        self.failures: list[str] = []
        self.heads: dict[str, int] = {}
        self.commands = 0

    def auth(self, user: str) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.people.issue(user)}")]

    async def new_table(self, users: tuple[str, str]) -> str:
        table = f"tables/h-{uuid.uuid4().hex[:12]}"
        reply = await self.stub.StartMatch(
            match_pb2.StartMatchRequest(
                table=table,
                game="testgame",
                options_json='{"target": 1000}',
                seats=[match_pb2.Seat(seat=i, user_id=u, name=u) for i, u in enumerate(users)],
                request_id="start",
            ),
            metadata=self.lobby,
        )
        self.heads[table] = reply.version
        return table

    async def play(self, table: str, users: tuple[str, str], stop: asyncio.Event) -> None:
        from support.matchkit import race_command

        roll = race_command("roll")
        seat = 0
        while not stop.is_set():
            request = match_pb2.SubmitCommandRequest(table=table, seat=seat, command=roll, request_id=uuid.uuid4().hex)
            try:
                reply = await self.stub.SubmitCommand(request, metadata=self.auth(users[seat]), timeout=30)
            except grpc.aio.AioRpcError as exc:
                self.failures.append(f"{table} seat {seat}: {exc.code().name} {exc.details()}")
                return
            self.heads[table] = reply.version
            self.commands += 1
            if reply.view.finished:
                return
            seat = 1 - seat


async def run(seconds: float, requests: int, seed: int, concurrency: int) -> int:
    up = start_up()
    channel = grpc.aio.insecure_channel(up.address)
    try:
        await asyncio.wait_for(channel.channel_ready(), 120)
        people = up.people
        honest = Honest(match_pb2_grpc.MatchServiceStub(channel), people, up.services.service_token("lobby"))
        pairs = [(f"honest{i}a", f"honest{i}b") for i in range(4)]
        tables = [await honest.new_table(p) for p in pairs]
        stop = asyncio.Event()
        sharp = await sharp_cases(channel, people, await honest.new_table(("sharp-a", "sharp-b")))
        players = [asyncio.create_task(honest.play(t, p, stop)) for t, p in zip(tables, pairs, strict=True)]
        rng = random.Random(seed)
        fuzzer = Fuzzer(rng, tables)
        every = methods()
        counts: collections.Counter[str] = collections.Counter()
        bad: list[str] = []
        tokens = [[("authorization", f"Bearer {people.issue(f'fuzz{i}')}")] for i in range(5)] + [[]]
        deadline = time.monotonic() + seconds
        sent = 0

        async def worker() -> None:
            nonlocal sent
            while sent < requests and time.monotonic() < deadline:
                sent += 1
                service, method = rng.choice(every)
                seen: list[bytes] = []
                code = await call(channel, service, method, fuzzer.payload(method), rng.choice(tokens), seen)
                counts[code.name] += 1
                if code in BAD:
                    bad.append(f"{service.name}/{method.name}: {code.name}")
                for data in seen:
                    for inner in in_band_errors(method, data):
                        counts[f"in-stream {grpc_code_name(inner)}"] += 1
                        if inner in (2, 13):  # UNKNOWN, INTERNAL
                            bad.append(f"{service.name}/{method.name}: in-stream {grpc_code_name(inner)}")
                    if method.name == "CreateTable" and code == grpc.StatusCode.OK:
                        created = lobby_pb2.CreateTableResponse.FromString(data)
                        fuzzer.own.append(created.table.name)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        stop.set()
        await asyncio.gather(*players)
        store_heads = {}
        for table in tables:
            view = await honest.stub.GetTableView(
                match_pb2.GetTableViewRequest(table=table, role=match_pb2.VIEWER_ROLE_SEAT, seat=0),
                metadata=honest.auth(pairs[tables.index(table)][0]),
            )
            store_heads[table] = view.view.version
        moved = {t: (honest.heads[t], store_heads[t]) for t in tables if honest.heads[t] != store_heads[t]}
        alive = up.alive
        print(f"fuzz: {sent} requests over {len(every)} methods, seed {seed}")
        for name, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"  {name:20} {n}")
        print(f"honest commands committed: {honest.commands}, failed: {len(honest.failures)}")
        print(f"sharp cases (issue 30): {len(sharp)} answered otherwise than they must")
        problems = [*bad[:20], *honest.failures[:20], *sharp]
        if moved:
            problems.append(f"honest tables changed by someone else: {moved}")
        if not alive:
            problems.append("the server died")
        for problem in problems:
            print("FAIL", problem)
        print("fuzz: " + ("FAILED" if problems else "clean"))
        return 1 if problems else 0
    finally:
        await channel.close()
        await up.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long (default 60)")
    parser.add_argument("--requests", type=int, default=1_000_000, help="stop after this many requests")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args.seconds, args.requests, args.seed, args.concurrency)))


if __name__ == "__main__":
    main()
