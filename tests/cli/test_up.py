"""`tablehall up` serves every service on one port and stops cleanly on Ctrl-C."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from support.upkit import drop_consumer

from tablehall_platform.infra import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_up_serves_all_services_and_stops_on_sigint(database_url: str, nats_url: str, tmp_path: Path) -> None:
    port = free_port()
    consumer = f"bot-up-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "TABLEHALL_DATABASE_URL": database_url,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_DATA_DIR": str(tmp_path),
        "TABLEHALL_METRICS_PORT": "0",
        # the session database holds test-game tables too: let every service read them
        "PYTHONPATH": str(ROOT / "tests"),
        "TABLEHALL_EXTRA_GAMES": "testgame=testgame.game:GAME",
        "TABLEHALL_BOT_CONSUMER": consumer,
    }
    # output goes to files, never to pipes nobody reads while the process runs
    out, err_file = (tmp_path / "stdout.txt").open("w"), (tmp_path / "stderr.txt").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tablehall_cli.main", "up", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=out,
        stderr=err_file,
        text=True,
    )
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        stub = health_pb2_grpc.HealthStub(channel)
        deadline = time.monotonic() + 60
        while True:
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service="tablehall.match.v1.MatchService"), timeout=1)
                break
            except grpc.RpcError:
                assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
                assert time.monotonic() < deadline, "tablehall up did not start"
                time.sleep(0.2)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        channel.close()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        err = (tmp_path / "stderr.txt").read_text()
        assert proc.returncode == 0, err
        assert f"gRPC at 127.0.0.1:{port}" in err
        assert "Demo table of four bots: tables/" in err
        assert '"event": "stopped"' in err
    finally:
        if proc.poll() is None:
            proc.kill()
        out.close()
        err_file.close()
        asyncio.run(drop_consumer(nats_url, consumer))
