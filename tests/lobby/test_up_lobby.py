"""`tablehall up` serves the lobby beside the match: sign in without a token,
create a table, add a bot and start it, all through one port."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall_platform.infra import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_up_serves_the_lobby_with_dev_sign_in(database_url: str, nats_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "TABLEHALL_DATABASE_URL": database_url,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_DATA_DIR": str(tmp_path),
        "TABLEHALL_METRICS_PORT": "0",
        "TABLEHALL_EXTRA_GAMES": "testgame=testgame.game:GAME",
        "PYTHONPATH": str(ROOT / "tests"),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "tablehall_cli.main", "up", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        identity = lobby_pb2_grpc.IdentityServiceStub(channel)
        deadline = time.monotonic() + 60
        while True:
            try:
                # a name of its own: the session's database may hold another client's claim of "ann"
                signed = identity.DevSignIn(
                    lobby_pb2.DevSignInRequest(name=f"ann-{port}", client_secret="test-client-secret-ann"), timeout=1
                )
                break
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.UNAVAILABLE, exc
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "tablehall up did not start"
                time.sleep(0.2)
        auth = [("authorization", f"Bearer {signed.token}")]
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        made = lobby.CreateTable(lobby_pb2.CreateTableRequest(game="testgame", request_id="up-1"), metadata=auth)
        lobby.AddBot(lobby_pb2.AddBotRequest(table=made.table.name, request_id="up-2"), metadata=auth)
        started = lobby.StartTable(lobby_pb2.StartTableRequest(table=made.table.name, request_id="up-3"), metadata=auth)
        assert started.table.status == table_pb2.TABLE_STATUS_PLAYING
        channel.close()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
