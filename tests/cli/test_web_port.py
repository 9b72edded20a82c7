"""`tablehall up` and its web page's port: taken is one line naming TABLEHALL_WEB_PORT, 0 is off."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from support.upkit import ROOT, base_env, start_up

from tablehall_platform.infra import free_port


def test_a_taken_web_port_is_one_line_that_names_it_and_its_setting(
    database_url: str, nats_url: str, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**base_env(tmp_path), "TABLEHALL_WEB_PORT": str(port), "TABLEHALL_PORT": str(free_port())}
        env.update(TABLEHALL_DATABASE_URL=database_url, TABLEHALL_NATS_URL=nats_url)
        done = subprocess.run(
            [sys.executable, "-m", "tablehall_cli.main", "up", "--no-demo"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"127.0.0.1:{port}" in lines[0] and "TABLEHALL_WEB_PORT (0: off)" in lines[0]


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
