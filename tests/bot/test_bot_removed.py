"""The bot service stops playing a bot the host removed from a running game, and a bot's seat a
spectator took over (Пузиполия, everything in `tablehall up --no-demo`: lobby, match, timer,
bot service, PostgreSQL, NATS).

Ann (the host, a person) plays with two bots and opens bot seats to spectators. Once
both bots have moved, she removes bot 1 (the game takes it out: `PlayerEliminated`, reason
removed) and Sam takes bot 2's seat; the bot service makes no move for either seat after that,
while Ann and Sam play on."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
from support.lobbykit import rid
from test_bot_table import SECRET, SERVICE_SECRET, _delete_consumer, _spawn, _wait_serving

from puzzipolia.game import GAME as PUZZIPOLIA
from puzzipolia.proto_codec import command_to_proto
from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall.match.v1 import match_pb2
from tablehall_eventstore import EventStore
from tablehall_platform.infra import free_port
from tablehall_stream.proto_games import legal_commands_of


@pytest.fixture
async def database(fresh_database_url) -> str:  # type: ignore[no-untyped-def]
    return str(await fresh_database_url())


async def _stream(database: str, table: str) -> list[Any]:
    store = await EventStore.connect(database, min_size=1, max_size=2)
    try:
        return list(await store.read_stream(f"table-{table.split('/')[1]}"))
    finally:
        await store.close()


def _bot_moves(events: list[Any], seat: int) -> list[int]:
    return [e.version for e in events if e.metadata.get("actor") == "service:bot" and e.metadata.get("seat") == seat]


def test_a_removed_bot_and_a_taken_bot_seat_are_played_by_the_bot_service_no_more(
    database: str, nats_url: str, tmp_path: Path
) -> None:
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

        def auth(name: str) -> list[tuple[str, str]]:
            return [
                (
                    "authorization",
                    f"Bearer {identity.DevSignIn(lobby_pb2.DevSignInRequest(name=name, client_secret=f'test-client-secret-{name}')).token}",
                )
            ]

        ann, sam = auth("ann"), auth("sam")
        table = lobby.CreateTable(
            lobby_pb2.CreateTableRequest(
                game="puzzipolia", options_json=json.dumps({"round_limit": 6}), seat_count=3, request_id=rid()
            ),
            metadata=ann,
        ).table.name
        for _ in range(2):
            lobby.AddBot(lobby_pb2.AddBotRequest(table=table, request_id=rid()), metadata=ann)
        lobby.SetSpectatorPolicy(
            lobby_pb2.SetSpectatorPolicyRequest(table=table, bot_seats_to_spectators=True, request_id=rid()),
            metadata=ann,
        )
        lobby.EnterTable(lobby_pb2.EnterTableRequest(table=table, request_id=rid()), metadata=sam)
        lobby.StartTable(lobby_pb2.StartTableRequest(table=table, request_id=rid()), metadata=ann)
        rng = random.Random(5)

        def play_for(seat: int, who: list[tuple[str, str]], step: str) -> bool:
            """One move for `seat` if it has a decision; False otherwise."""
            view = lobby.GetSeatView(lobby_pb2.GetSeatViewRequest(table=table), metadata=who).view
            if view.finished or not any(d.seat == seat for d in view.decisions):
                return False
            legal = legal_commands_of(view)
            command = PUZZIPOLIA.bot_policy(json.loads(view.view_json), legal, rng)
            request = lobby_pb2.SubmitSeatCommandRequest(
                table=table, command=match_pb2.GameCommand(puzzipolia=command_to_proto(command)), request_id=step
            )
            try:
                lobby.SubmitSeatCommand(request, metadata=who)
            except grpc.RpcError as refused:  # the state moved on (a bot was quicker): look again
                assert refused.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED), refused
            return True

        deadline = time.monotonic() + 60
        step = 0
        while not all(_bot_moves(asyncio.run(_stream(database, table)), s) for s in (1, 2)):
            assert up.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            step += 1
            if not play_for(0, ann, f"ann-{step}"):
                time.sleep(0.1)

        lobby.RemoveSeat(lobby_pb2.RemoveSeatRequest(table=table, seat=1, request_id=rid()), metadata=ann)
        lobby.TakeBotSeat(lobby_pb2.TakeBotSeatRequest(table=table, seat=2, request_id=rid()), metadata=sam)
        events = asyncio.run(_stream(database, table))
        removed = [e for e in events if e.type == "puzzipolia.PlayerEliminated"]
        assert [(json.loads(e.payload)["seat"], json.loads(e.payload)["reason"]) for e in removed] == [(1, "removed")]
        taken_at = max(e.version for e in events if e.type == "lobby.BotSeatTaken")
        before = {s: _bot_moves(events, s) for s in (1, 2)}

        # Ann and Sam play on until Sam has had decisions of his own; the bot service had every chance to act
        sam_moves = 0
        for step in range(300):
            if play_for(2, sam, f"sam-{step}"):
                sam_moves += 1
            elif not play_for(0, ann, f"ann2-{step}"):
                time.sleep(0.05)
            if sam_moves >= 3:
                break
        assert sam_moves >= 3, "Sam never had a decision"
        time.sleep(2)
        events = asyncio.run(_stream(database, table))
        assert {s: _bot_moves(events, s) for s in (1, 2)} == before
        assert all(v < taken_at for v in before[2])
    finally:
        if up.poll() is None:
            up.send_signal(signal.SIGINT)
            try:
                up.wait(timeout=20)
            except subprocess.TimeoutExpired:
                up.kill()
        channel.close()
        asyncio.run(_delete_consumer(nats_url, consumer))
