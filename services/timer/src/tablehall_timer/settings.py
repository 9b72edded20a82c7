"""The timer's own settings (environment variables, each with a default).

| variable | default | meaning |
|---|---|---|
| TABLEHALL_MATCH_ADDRESS | this process's address | where the match service answers (`serve timer` alone needs it) |
| TABLEHALL_IDLE_CLOSE_SECONDS | `3600` | a table without a single move for this long is closed |
| TABLEHALL_TIMER_LEASE_SECONDS | TABLEHALL_LEASE_SECONDS (10) | how long a table's timer lease lasts unrenewed |
| TABLEHALL_TIMER_CONCURRENCY | `256` | actions (match calls) under way at once |
| TABLEHALL_TIMER_POLL_SECONDS | `0.05` | how often the event feed polls PostgreSQL when idle |
| TABLEHALL_TIMER_FIRST_CLOCK_WAIT_SECONDS | `30` | the first clocks wait for every human seat's first presence, at most this long |
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from tablehall_platform.config import Settings


@dataclass(frozen=True)
class TimerSettings:
    match_address: str
    idle_close_seconds: float
    lease_seconds: float
    concurrency: int
    poll_seconds: float
    first_clock_wait_seconds: float = 30.0

    def __post_init__(self) -> None:
        if not self.match_address:
            raise ValueError("the timer needs TABLEHALL_MATCH_ADDRESS when the match is not in this process")
        for name in ("idle_close_seconds", "lease_seconds", "poll_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"timer setting {name} must be positive, got {getattr(self, name)!r}")
        if not 0 <= self.first_clock_wait_seconds <= 600:
            raise ValueError(
                f"TABLEHALL_TIMER_FIRST_CLOCK_WAIT_SECONDS must be 0..600, got {self.first_clock_wait_seconds!r}"
            )
        if self.concurrency < 1:
            raise ValueError(f"TABLEHALL_TIMER_CONCURRENCY must be at least 1, got {self.concurrency}")

    @classmethod
    def from_env(cls, settings: Settings, own_address: str) -> TimerSettings:
        env = os.environ
        return cls(
            match_address=env.get("TABLEHALL_MATCH_ADDRESS") or own_address,
            idle_close_seconds=float(env.get("TABLEHALL_IDLE_CLOSE_SECONDS", "3600")),
            lease_seconds=float(env.get("TABLEHALL_TIMER_LEASE_SECONDS") or settings.lease_seconds),
            concurrency=int(env.get("TABLEHALL_TIMER_CONCURRENCY", "256")),
            poll_seconds=float(env.get("TABLEHALL_TIMER_POLL_SECONDS", "0.05")),
            first_clock_wait_seconds=float(env.get("TABLEHALL_TIMER_FIRST_CLOCK_WAIT_SECONDS", "30")),
        )
