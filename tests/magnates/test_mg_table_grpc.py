"""A Магнаты table of one scripted client and two bots (one strong, one easy) plays to the end
through gRPC with every service (`tablehall up`: lobby, match, timer, bot, projection,
publisher), a spectator watches it live to the end, and the finished stream verifies.

The client is a person's program: it signs in, creates the table, adds the bots, starts it and
plays its seat with the SDK. It builds every command from the legal-move descriptors the match
returns (a descriptor chosen at random, each parameter filled from the values it offers), never
from the rules library, and every command it sends is accepted.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path

import grpc
import pytest
from support.lobbykit import rid
from support.upkit import bots_up

from tablehall.projection.v1 import projection_pb2, projection_pb2_grpc
from tablehall_sdk import Client, Role, TableView, Update

OPTIONS = {"round_limit": 3, "clock_ms": 120_000}  # clocks that never run out during the test
# a bound, not a speed claim: how long the game may take on a busy machine before giving up
GAME_BOUND_S = 600
POLL_S = 0.05


@pytest.fixture
async def database(fresh_database_url) -> str:  # type: ignore[no-untyped-def]
    return str(await fresh_database_url())


def test_a_scripted_client_and_two_bots_play_magnates_to_the_end(database: str, nats_url: str, tmp_path: Path) -> None:
    with bots_up(database, nats_url, tmp_path) as up:
        asyncio.run(_scenario(f"127.0.0.1:{up.port}"))


async def _scenario(address: str) -> None:
    async with Client(address) as person, Client(address) as spectator:
        await person.sign_in_dev(f"ann-{rid()}", "Ann")
        await spectator.sign_in_dev(f"sam-{rid()}", "Sam")
        table = await person.create_table("magnates", OPTIONS, seat_count=3)
        table, strong = await person.add_bot(table.name)
        table, easy = await person.add_bot(table.name)
        assert (strong, easy) == (1, 2) and [s.is_bot for s in table.seats] == [False, True, True]
        table, _ = await person.start(table.name)
        watching = asyncio.create_task(_watch_to_the_end(spectator, table.name))
        sent, last = await _play_seat(person, table.name, seat=0)
        watched = await asyncio.wait_for(watching, GAME_BOUND_S)
        token = person.token
        assert token is not None, "signed in"

    outcome = last.outcome or {}
    assert sorted(s for place in outcome["places"] for s in place) == [0, 1, 2]
    assert outcome["reason"] in ("round_limit", "last_standing")
    # the client played its own turns: every turn starts with a roll, and a parameterised
    # descriptor (a piece's end cells, an Office, a Company) was filled in from its values
    assert sent["roll"] >= 1, sent
    assert sum(sent[k] for k in ("move_piece", "buy_piece", "upgrade", "arbitrage_buy")) >= 1, sent
    # the spectator saw the same end, live, with the journal of the game
    assert watched[-1].finished and watched[-1].version == last.version
    assert sum(len(u.journal) for u in watched) > 10
    checked = await _verify(address, token, table.name)
    assert checked == last.version


async def _play_seat(client: Client, table: str, seat: int) -> tuple[Counter[str], TableView]:
    """Play `seat` to the end from the descriptors only: (commands sent by kind, the last view)."""
    rng = random.Random(18)
    sent: Counter[str] = Counter()
    deadline = time.monotonic() + GAME_BOUND_S
    while True:
        view = await client.view(table)
        if view.finished:
            return sent, view
        assert time.monotonic() < deadline, f"no end by version {view.version}"
        mine = [d for d in view.decisions if d.seat == seat]
        if not mine or not view.moves:
            await asyncio.sleep(POLL_S)
            continue
        move = rng.choice(view.moves)
        command = move.build(**{p.field: rng.choice(p.options()) for p in move.parameters})
        done = await client.submit(table, seat, command)  # a refusal would raise and fail the test
        assert done.version > view.version and not done.duplicate
        sent[command.kind] += 1


async def _watch_to_the_end(client: Client, table: str) -> list[Update]:
    updates: list[Update] = []
    async for update in client.watch(table, role=Role.SPECTATOR):
        assert update.seat is None
        updates.append(update)
        if update.finished:
            return updates
    raise AssertionError("the live view closed before the end")


async def _verify(address: str, token: str, table: str) -> int:
    """The finished stream verifies (hash chain, seed, every draw, every command re-decided)."""
    async with grpc.aio.insecure_channel(address) as channel:
        projection = projection_pb2_grpc.ProjectionServiceStub(channel)
        verdict = await projection.VerifyTable(
            projection_pb2.VerifyTableRequest(table=table), metadata=[("authorization", f"Bearer {token}")]
        )
    assert verdict.verified, verdict.message
    return int(verdict.version)
