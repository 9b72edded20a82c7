"""A player's seat handed to a bot is played by the bot service, and given back on reclaim.

Everything runs in `tablehall up --no-demo` (match, lobby, timer, projection, publisher, bot).
Ann (the host) and Ben sit at a Пузиполия table; Ben is away, so the host hands his seat to a
bot, which rolls for him; Ben reclaims his seat and the bot never moves for it again."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import grpc
import pytest
from support.lobbykit import rid
from test_bot_table import SECRET, SERVICE_SECRET, _delete_consumer, _spawn, _wait_serving

from puzzipolia.game import GAME as PUZZIPOLIA
from puzzipolia.proto_codec import command_to_proto
from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_eventstore import EventStore
from tablehall_platform.infra import free_port
from tablehall_stream.proto_games import legal_commands_of


@pytest.fixture
async def database(fresh_database_url) -> str:  # type: ignore[no-untyped-def]
    return str(await fresh_database_url())


async def _moves_by_bot(database: str, table: str, seat: int) -> list[int]:
    """Versions of the game events the bot service made for `seat`."""
    store = await EventStore.connect(database, min_size=1, max_size=2)
    try:
        events = await store.read_stream(f"table-{table.split('/')[1]}")
    finally:
        await store.close()
    return [e.version for e in events if e.metadata.get("actor") == "service:bot" and e.metadata.get("seat") == seat]


def test_a_handed_over_seat_is_played_by_a_bot_until_reclaimed(database: str, nats_url: str, tmp_path: Path) -> None:
    port = free_port()
    consumer = f"bot-{rid()}"
    env = {
        **os.environ,
        "TABLEHALL_DATABASE_URL": database,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_DATA_DIR": str(tmp_path),
        "TABLEHALL_TOKEN_SECRET": SECRET,
        "TABLEHALL_SERVICE_SECRET": SERVICE_SECRET,
        "TABLEHALL_METRICS_PORT": "0",
        "TABLEHALL_BOT_CONSUMER": consumer,
        "TABLEHALL_BOT_THINK_MS": "20",
    }
    log = tmp_path / "up.log"
    up = _spawn(["up", "--no-demo", "--port", str(port)], env, log)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        _wait_serving(channel, up, log)
        identity = lobby_pb2_grpc.IdentityServiceStub(channel)
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        ann = [
            (
                "authorization",
                f"Bearer {identity.DevSignIn(lobby_pb2.DevSignInRequest(name='ann', client_secret='test-client-secret-ann')).token}",
            )
        ]
        ben = [
            (
                "authorization",
                f"Bearer {identity.DevSignIn(lobby_pb2.DevSignInRequest(name='ben', client_secret='test-client-secret-ben')).token}",
            )
        ]
        table = lobby.CreateTable(
            lobby_pb2.CreateTableRequest(
                game="puzzipolia", options_json=json.dumps({"round_limit": 4}), seat_count=2, request_id=rid()
            ),
            metadata=ann,
        ).table.name
        lobby.JoinTable(lobby_pb2.JoinTableRequest(table=table, request_id=rid()), metadata=ben)
        lobby.StartTable(lobby_pb2.StartTableRequest(table=table, request_id=rid()), metadata=ann)
        assert asyncio.run(_moves_by_bot(database, table, 1)) == []  # nobody plays for Ben yet

        lobby.HandSeatToBot(lobby_pb2.HandSeatToBotRequest(table=table, seat=1, request_id=rid()), metadata=ann)
        deadline = time.monotonic() + 30
        while not (made := asyncio.run(_moves_by_bot(database, table, 1))):
            assert up.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)

        # Ben is back: he holds his presence and takes the seat back
        presence = lobby.HoldPresence(lobby_pb2.HoldPresenceRequest(table=table), metadata=ben)
        next(presence)
        lobby.ReclaimSeat(lobby_pb2.ReclaimSeatRequest(table=table, request_id=rid()), metadata=ben)
        after_reclaim = asyncio.run(_moves_by_bot(database, table, 1))
        assert len(after_reclaim) >= len(made)
        # Ann plays until Ben has a decision to take; then the bot had every chance to take it
        match = match_pb2_grpc.MatchServiceStub(channel)
        rng = random.Random(3)
        for step in range(200):
            view = match.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=ann).view
            if any(d.seat == 1 for d in view.decisions):
                break
            legal = legal_commands_of(view)
            assert legal, "Ann has nothing to do and Ben no decision"
            command = PUZZIPOLIA.bot_policy(json.loads(view.view_json), legal, rng)
            match.SubmitCommand(
                match_pb2.SubmitCommandRequest(
                    table=table,
                    seat=0,
                    command=match_pb2.GameCommand(puzzipolia=command_to_proto(command)),
                    request_id=f"ann-{step}",
                ),
                metadata=ann,
            )
        else:
            raise AssertionError("Ben never had a decision to take")
        time.sleep(3)
        assert asyncio.run(_moves_by_bot(database, table, 1)) == after_reclaim
        still = match.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=ben).view
        assert any(d.seat == 1 for d in still.decisions)  # Ben's decision waits for Ben
        presence.cancel()
    finally:
        if up.poll() is None:
            up.send_signal(signal.SIGINT)
            try:
                up.wait(timeout=20)
            except subprocess.TimeoutExpired:
                up.kill()
        channel.close()
        asyncio.run(_delete_consumer(nats_url, consumer))
