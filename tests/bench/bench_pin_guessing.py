"""PIN guessing benchmark: a plain script printing figures (not part of `make test`).

A private table with a four-digit PIN; `--guessers` identities send wrong
PINs as fast as they can for `--seconds`, while a bystander lists tables.
Prints how many PINs were actually compared (the rest were refused by the
per-table guard before hashing), the refusals by reason, and the
bystander's ListTables latency with and without the flood.

    .venv/bin/python tests/bench/bench_pin_guessing.py [--guessers 88] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from support.lobbykit import race_table, start_lobby, stop_lobby  # noqa: E402
from support.matchkit import token_maker  # noqa: E402

from tablehall.lobby.v1 import lobby_pb2  # noqa: E402
from tablehall_eventstore import migrate  # noqa: E402
from tablehall_lobby import pins as pins_module  # noqa: E402
from tablehall_lobby import service as lobby_service  # noqa: E402
from tablehall_match import service as match_service  # noqa: E402
from tablehall_platform.errors import error_info  # noqa: E402
from tablehall_platform.infra import ensure_database, find_servers  # noqa: E402


async def _listing(stub: object, md: list[tuple[str, str]], until: float) -> list[float]:
    samples = []
    while time.monotonic() < until:
        started = time.perf_counter()
        await stub.ListTables(lobby_pb2.ListTablesRequest(page_size=20), metadata=md)  # type: ignore[attr-defined]
        samples.append(time.perf_counter() - started)
        await asyncio.sleep(0.01)
    return samples


async def bench(guessers: int, seconds: float) -> None:
    servers = await find_servers(ROOT / ".data" / "bench", "postgres")
    url = await ensure_database(servers.database_url, f"tablehall_bench_{uuid.uuid4().hex[:8]}")
    await migrate(url, extra=[match_service.MIGRATIONS, lobby_service.MIGRATIONS])
    running = await start_lobby(url, pin_attempts=1_000_000)
    tokens = token_maker()
    hashed = 0
    real = pins_module._hash

    def counting(pin: str, salt: bytes, iterations: int) -> bytes:
        nonlocal hashed
        hashed += 1
        return real(pin, salt, iterations)

    pins_module._hash = counting
    try:
        made = await running.stub.CreateTable(race_table(private=True, pin="0417"), metadata=tokens("host"))
        table = made.table.name
        quiet = await _listing(running.stub, tokens("bystander"), time.monotonic() + 2.0)
        hashed = 0
        reasons: Counter[str] = Counter()
        until = time.monotonic() + seconds

        async def guesser(i: int) -> None:
            md = tokens(f"guesser{i}")
            n = 0
            while time.monotonic() < until:
                n += 1
                pin = f"{(i * 7919 + n) % 10000:04d}"
                try:
                    await running.stub.JoinTable(
                        lobby_pb2.JoinTableRequest(table=table, pin=pin, request_id=f"g{i}-{n}"), metadata=md
                    )
                    reasons["JOINED"] += 1
                    return
                except grpc.aio.AioRpcError as exc:
                    info = error_info(exc)
                    reasons[info.reason if info else exc.code().name] += 1

        flood = [asyncio.create_task(guesser(i)) for i in range(guessers)]
        loaded = await _listing(running.stub, tokens("bystander"), until)
        await asyncio.gather(*flood)
        host = await running.stub.GetTable(lobby_pb2.GetTableRequest(table=table), metadata=tokens("host"))
        print(f"{guessers} identities for {seconds:.0f} s: {sum(reasons.values())} guesses, {hashed} PINs compared")
        print("  refusals: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
        print(f"  the host's table: pin_failures {host.table.pin_failures}")
        print(
            f"  bystander ListTables p50 quiet {statistics.median(quiet) * 1000:.1f} ms,"
            f" during the flood {statistics.median(loaded) * 1000:.1f} ms ({len(loaded)} calls)"
        )
    finally:
        pins_module._hash = real
        await stop_lobby(running)
        servers.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--guessers", type=int, default=88)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    asyncio.run(bench(args.guessers, args.seconds))


if __name__ == "__main__":
    main()
