"""`tablehall up` with TABLEHALL_WEB_PORT=0 serves no page (taken: tests/cli/test_ports.py)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from support.upkit import base_env, start_up

from tablehall_platform.infra import free_port


def test_web_port_0_serves_no_page(database_url: str, nats_url: str, tmp_path: Path) -> None:
    env = {**base_env(tmp_path), "TABLEHALL_WEB_PORT": "0"}
    env.update(TABLEHALL_DATABASE_URL=database_url, TABLEHALL_NATS_URL=nats_url, TABLEHALL_BOT_DEMO="0")
    up = start_up(env, tmp_path, free_port(), extra=("--no-demo",))
    try:
        assert wait_for_line(up.stderr, "Ctrl-C stops everything.")
    finally:
        os.killpg(up.proc.pid, signal.SIGINT)
        up.proc.wait(60)
    assert "Tablehall is up" in up.err() and "Web page" not in up.err()


def wait_for_line(path: Path, text: str, timeout_s: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if text in path.read_text():
            return True
        time.sleep(0.2)
    return False
