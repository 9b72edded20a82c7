"""A Пузиполия table of four bots plays to the end through gRPC with every service running:
match, lobby, timer, projection and the publisher in `tablehall up`, plus a second bot instance
(`tablehall serve bot`) sharing the work, killed with SIGKILL mid-game."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import grpc
import nats
import pytest
from support.lobbykit import rid

from tablehall.bot.v1 import bot_pb2, bot_pb2_grpc
from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_eventstore.publisher import STREAM_NAME
from tablehall_platform.infra import free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "bot-test-secret-0123456789abcdef-0123456789"
SERVICE_SECRET = "bot-test-service-secret-0123456789abcdef"


def _spawn(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tablehall_cli.main", *args],
        env=env,
        cwd=ROOT,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


def _wait_serving(channel: grpc.Channel, proc: subprocess.Popen[bytes], log: Path, within: float = 60) -> None:
    stub = lobby_pb2_grpc.IdentityServiceStub(channel)
    deadline = time.monotonic() + within
    while True:
        try:
            stub.DevSignIn(
                lobby_pb2.DevSignInRequest(name="probe", client_secret="test-client-secret-probe"), timeout=1
            )
            return
        except grpc.RpcError:
            assert proc.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the services did not start"
            time.sleep(0.2)


def _decisions(metrics_port: int) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=2).read().decode()
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("tablehall_bot_decisions_total{") and 'outcome="made"' in line
    )


@pytest.fixture
async def database(fresh_database_url) -> str:  # type: ignore[no-untyped-def]
    return str(await fresh_database_url())


def test_four_bots_play_to_the_end_with_an_instance_killed(database: str, nats_url: str, tmp_path: Path) -> None:
    port, bot_port, bot_metrics = free_port(), free_port(), free_port()
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
        "TABLEHALL_BOT_THINK_MS": "40",
        "TABLEHALL_BOT_ACK_WAIT_SECONDS": "2",
    }
    up_log, bot_log = tmp_path / "up.log", tmp_path / "bot.log"
    up = _spawn(["up", "--no-demo", "--port", str(port)], env, up_log)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    second: subprocess.Popen[bytes] | None = None
    try:
        _wait_serving(channel, up, up_log)
        second = _spawn(
            ["serve", "bot", "--port", str(bot_port)],
            {**env, "TABLEHALL_MATCH_ADDRESS": f"127.0.0.1:{port}", "TABLEHALL_METRICS_PORT": str(bot_metrics)},
            bot_log,
        )
        identity = lobby_pb2_grpc.IdentityServiceStub(channel)
        token = identity.DevSignIn(
            lobby_pb2.DevSignInRequest(name="host", client_secret="test-client-secret-host")
        ).token
        auth = [("authorization", f"Bearer {token}")]
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        match = match_pb2_grpc.MatchServiceStub(channel)
        bots = bot_pb2_grpc.BotServiceStub(channel)
        # the second instance is bound to the shared consumer before the game starts
        bot_channel = grpc.insecure_channel(f"127.0.0.1:{bot_port}")
        _wait_bot(bot_channel, second, bot_log)
        time.sleep(1.0)

        table = lobby.CreateTable(
            lobby_pb2.CreateTableRequest(
                game="puzzipolia", options_json=json.dumps({"round_limit": 6}), seat_count=4, request_id=rid()
            ),
            metadata=auth,
        ).table.name
        lobby.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=table, request_id=rid()), metadata=auth)
        strong, easy = lobby_pb2.BOT_DIFFICULTY_STRONG, lobby_pb2.BOT_DIFFICULTY_EASY
        for seat, difficulty in enumerate((strong, easy, strong, easy)):
            lobby.AddBot(
                lobby_pb2.AddBotRequest(table=table, seat=seat, difficulty=difficulty, request_id=rid()), metadata=auth
            )
        lobby.StartTable(lobby_pb2.StartTableRequest(table=table, request_id=rid()), metadata=auth)
        seen = bots.GetTableBots(bot_pb2.GetTableBotsRequest(table=table), metadata=auth)
        assert [(s.seat, s.difficulty) for s in seen.seats] == [
            (0, bot_pb2.DIFFICULTY_STRONG),
            (1, bot_pb2.DIFFICULTY_EASY),
            (2, bot_pb2.DIFFICULTY_STRONG),
            (3, bot_pb2.DIFFICULTY_EASY),
        ]

        # both instances take part; then the second dies without a word, mid-game
        deadline = time.monotonic() + 30
        while _decisions(bot_metrics) < 3:
            assert time.monotonic() < deadline, bot_log.read_text()[-3000:]
            time.sleep(0.1)
        killed_at = _view(match, table, auth)
        assert not killed_at.finished
        second.send_signal(signal.SIGKILL)
        second.wait(timeout=10)

        deadline = time.monotonic() + 45
        view = killed_at
        while not view.finished:
            assert time.monotonic() < deadline, f"stuck at version {view.version}: {up_log.read_text()[-3000:]}"
            time.sleep(0.2)
            view = _view(match, table, auth)
        outcome = json.loads(view.outcome_json)
        assert outcome["reason"] == "round_limit"
        assert sorted(s for place in outcome["places"] for s in place) == [0, 1, 2, 3]
        assert view.version > killed_at.version
        done = bots.GetTableBots(bot_pb2.GetTableBotsRequest(table=table), metadata=auth)
        assert done.finished and not done.seats
    finally:
        for proc in (second, up):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
        channel.close()
        asyncio.run(_delete_consumer(nats_url, consumer))


async def _delete_consumer(nats_url: str, consumer: str) -> None:
    """The shared NATS server outlives the test: leave no durable consumer behind."""
    nc = await nats.connect(nats_url)
    try:
        await nc.jetstream().delete_consumer(STREAM_NAME, consumer)
    finally:
        await nc.close()


def _wait_bot(channel: grpc.Channel, proc: subprocess.Popen[bytes], log: Path) -> None:
    stub = bot_pb2_grpc.BotServiceStub(channel)
    deadline = time.monotonic() + 30
    while True:
        try:
            stub.GetTableBots(bot_pb2.GetTableBotsRequest(table="tables/none"), timeout=1)
        except grpc.RpcError as exc:
            if exc.code() in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.NOT_FOUND):
                return
            assert proc.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the second bot instance did not start"
            time.sleep(0.2)


def _view(match: match_pb2_grpc.MatchServiceStub, table: str, auth: list[tuple[str, str]]) -> match_pb2.TableView:
    return match.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=auth, timeout=5).view
