"""A taken port is one line naming the port and its setting; the terminal client follows TABLEHALL_PORT."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from support.upkit import ROOT, base_env

from tablehall_cli.main import build_parser
from tablehall_platform.infra import free_port


@pytest.mark.parametrize(
    ("args", "setting"),
    [(["up"], "TABLEHALL_PORT"), (["up"], "TABLEHALL_WEB_PORT"), (["serve", "lobby"], "TABLEHALL_LOBBY_PORT")],
)
def test_a_taken_port_is_one_line_that_names_port_and_setting(
    args: list[str], setting: str, database_url: str, nats_url: str, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        # every other port free: the taken one is the only refusal
        env = {**base_env(tmp_path), "TABLEHALL_PORT": str(free_port()), setting: str(port)}
        env.update(TABLEHALL_DATABASE_URL=database_url, TABLEHALL_NATS_URL=nats_url)
        done = subprocess.run(
            [sys.executable, "-m", "tablehall_cli.main", *args],
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
    assert f"127.0.0.1:{port}" in lines[0] and setting in lines[0]


def test_play_and_watch_connect_to_the_port_of_tablehall_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLEHALL_SERVER", raising=False)
    monkeypatch.setenv("TABLEHALL_PORT", "50999")
    parser = build_parser()
    assert parser.parse_args(["play", "puzzipolia"]).server == "127.0.0.1:50999"
    assert parser.parse_args(["watch", "tables/x"]).server == "127.0.0.1:50999"
    monkeypatch.setenv("TABLEHALL_SERVER", "example:1")
    assert build_parser().parse_args(["play", "puzzipolia"]).server == "example:1"
