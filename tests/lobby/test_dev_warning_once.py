"""The development sign-in warning is said once when the lobby starts with the dev provider:
the plain line on stderr, and no log line at warning level repeating it (`make run` shows the
services' warnings)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import structlog

from tablehall_lobby import service as lobby_service
from tablehall_platform.config import Settings


def test_the_dev_sign_in_warning_is_said_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = replace(Settings(), auth_providers=("dev",), secrets_dir=tmp_path, token_secret="x" * 40)
    with structlog.testing.capture_logs() as logs:
        assert lobby_service.dev_provider(settings) is not None
    err = capsys.readouterr().err
    assert err.count("development sign-in is ON") == 1
    assert [log for log in logs if log["log_level"] in ("warning", "error")] == []
