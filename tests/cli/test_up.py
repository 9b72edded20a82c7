"""`tablehall up` serves every service on one port and stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tablehall_platform.infra import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_up_serves_all_services_and_stops_on_sigint(database_url: str, nats_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "TABLEHALL_DATABASE_URL": database_url,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_DATA_DIR": str(tmp_path),
        "TABLEHALL_METRICS_PORT": "0",
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
        stub = health_pb2_grpc.HealthStub(channel)
        deadline = time.monotonic() + 60
        while True:
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service="tablehall.match.v1.MatchService"), timeout=1)
                break
            except grpc.RpcError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "tablehall up did not start"
                time.sleep(0.2)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        channel.close()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert f"gRPC at 127.0.0.1:{port}" in err
        assert "Demo table of four bots: tables/" in err
        assert '"event": "stopped"' in err
    finally:
        if proc.poll() is None:
            proc.kill()
