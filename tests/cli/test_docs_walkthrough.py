"""The Python examples of docs/api.md and docs/clients.md, run as a reader runs them against `tablehall up`.

The reader's token comes from `tablehall token` run in another folder than the server's: the
server must accept it (one secrets folder, not the current one).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.upkit import ROOT, Up, base_env, drop_consumer, start_up

from tablehall_platform.infra import free_port

TIMEOUT_S = 600


def _block(doc: str, heading: str) -> str:
    """The first ```python block after `heading` in docs/`doc`."""
    text = (ROOT / "docs" / doc).read_text()
    after = text[text.index(heading) :]
    match = re.search(r"```python\n(.*?)```", after, re.S)
    assert match is not None
    return match.group(1)


@pytest.fixture(scope="module")
def served(
    database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Up, dict[str, str]]]:
    tmp = tmp_path_factory.mktemp("walkthrough")
    consumer = f"bot-docs-test-{uuid.uuid4().hex[:8]}"
    env = {
        **base_env(tmp / "data"),
        "XDG_DATA_HOME": str(tmp / "xdg"),  # the user's data folder: where the secrets are kept
        "TABLEHALL_DATABASE_URL": database_url,
        "TABLEHALL_NATS_URL": nats_url,
        "TABLEHALL_BOT_CONSUMER": consumer,
        # the session database holds test-game tables too
        "PYTHONPATH": str(ROOT / "tests"),
        "TABLEHALL_EXTRA_GAMES": "testgame=testgame.game:GAME",
    }
    env.pop("TABLEHALL_SECRETS_DIR", None)
    up = start_up(env, tmp, free_port(), extra=("--no-demo",))
    try:
        yield up, env
    finally:
        os.killpg(up.proc.pid, signal.SIGINT)
        try:
            up.proc.wait(60)
        except subprocess.TimeoutExpired:
            up.proc.kill()
        asyncio.run(drop_consumer(nats_url, consumer))


def _reader(env: dict[str, str], up: Up, folder: Path) -> dict[str, str]:
    """A reader's shell elsewhere: the server's address, an operator token made in that folder."""
    token = subprocess.run(
        [sys.executable, "-m", "tablehall_cli.main", "token", "ops", "--roles", "player,operator"],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    return {**env, "TABLEHALL_SERVER": f"127.0.0.1:{up.port}", "OPERATOR_TOKEN": token}


def _run(script: str, env: dict[str, str], folder: Path) -> subprocess.CompletedProcess[str]:
    path = folder / "example.py"
    path.write_text(script)
    return subprocess.run(
        [sys.executable, str(path)], env=env, cwd=folder, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )


def test_the_api_python_example_runs_and_closes_its_table(served: tuple[Up, dict[str, str]], tmp_path: Path) -> None:
    up, env = served
    done = _run(_block("api.md", "## With Python"), _reader(env, up, tmp_path), tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "bob may not start: PERMISSION_DENIED NOT_THE_HOST" in out
    assert "played; table version" in out
    (closed,) = [line for line in out.splitlines() if line.startswith("closed:")]
    assert closed.endswith("TABLE_STATUS_CLOSED"), out
    assert list(tmp_path.iterdir()) == [tmp_path / "example.py"]  # `tablehall token` made nothing here


def test_the_sdk_example_plays_a_game_to_its_end(served: tuple[Up, dict[str, str]], tmp_path: Path) -> None:
    up, env = served
    script = _block("clients.md", "## The Python SDK").replace("127.0.0.1:50051", f"127.0.0.1:{up.port}")
    done = _run(script, env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("finished: tables/"), done.stdout
