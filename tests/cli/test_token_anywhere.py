"""`tablehall token` from any folder signs with the secret the server uses: never one of the current folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tablehall_platform.auth import DevProvider
from tablehall_platform.config import Settings


def test_token_made_outside_the_checkout_uses_the_user_secret(tmp_path: Path) -> None:
    elsewhere, xdg = tmp_path / "elsewhere", tmp_path / "xdg"
    elsewhere.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(xdg)}
    token = subprocess.run(
        [sys.executable, "-m", "tablehall_cli.main", "token", "alice", "--roles", "player,operator"],
        env=env,
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    assert list(elsewhere.iterdir()) == []  # nothing made in the current folder
    secret = (xdg / "tablehall" / "dev-token-secret").read_text().strip()
    principal = DevProvider(secret).verify(token)
    assert principal.user_id == "alice" and "operator" in principal.roles


def test_the_secrets_folder_does_not_depend_on_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TABLEHALL_SECRETS_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    here = Settings().secrets_dir
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert Settings().secrets_dir == here == tmp_path / "xdg" / "tablehall"
    monkeypatch.setenv("TABLEHALL_SECRETS_DIR", str(tmp_path / "given"))
    assert Settings().secrets_dir == tmp_path / "given"
