"""The timer's settings come from the environment and refuse nonsense."""

from __future__ import annotations

import pytest

from tablehall_platform.config import Settings
from tablehall_timer.settings import TimerSettings


def test_settings_default_to_this_process_and_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TABLEHALL_MATCH_ADDRESS", "TABLEHALL_IDLE_CLOSE_SECONDS", "TABLEHALL_TIMER_LEASE_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    defaults = TimerSettings.from_env(Settings(lease_seconds=7), "127.0.0.1:50051")
    assert (defaults.match_address, defaults.idle_close_seconds, defaults.lease_seconds) == ("127.0.0.1:50051", 3600, 7)
    monkeypatch.setenv("TABLEHALL_MATCH_ADDRESS", "match:50052")
    monkeypatch.setenv("TABLEHALL_IDLE_CLOSE_SECONDS", "2.5")
    given = TimerSettings.from_env(Settings(), "127.0.0.1:50054")
    assert (given.match_address, given.idle_close_seconds) == ("match:50052", 2.5)


@pytest.mark.parametrize(
    ("field", "value"),
    [("match_address", ""), ("idle_close_seconds", 0), ("lease_seconds", -1), ("poll_seconds", 0), ("concurrency", 0)],
)
def test_nonsense_settings_are_refused(field: str, value: object) -> None:
    good = {
        "match_address": "m:1",
        "idle_close_seconds": 1.0,
        "lease_seconds": 1.0,
        "concurrency": 1,
        "poll_seconds": 0.1,
    }
    with pytest.raises(ValueError):
        TimerSettings(**{**good, field: value})  # type: ignore[arg-type]
