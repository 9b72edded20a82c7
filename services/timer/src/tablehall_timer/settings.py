"""The timer's own settings (environment variables, each with a default).

| variable | default | meaning |
|---|---|---|
| TABLEHALL_MATCH_ADDRESS | this process's address | where the match service answers (`serve timer` alone needs it) |
| TABLEHALL_IDLE_CLOSE_SECONDS | `3600` | a table without a single move for this long is closed |
| TABLEHALL_TIMER_LEASE_SECONDS | TABLEHALL_LEASE_SECONDS (10) | how long a table's timer lease lasts unrenewed |
| TABLEHALL_TIMER_CONCURRENCY | `256` | actions (match calls) under way at once |
| TABLEHALL_TIMER_POLL_SECONDS | `0.05` | how often the event feed polls PostgreSQL when idle |
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

    @classmethod
    def from_env(cls, settings: Settings, own_address: str) -> TimerSettings:
        env = os.environ
        return cls(
            match_address=env.get("TABLEHALL_MATCH_ADDRESS") or own_address,
            idle_close_seconds=float(env.get("TABLEHALL_IDLE_CLOSE_SECONDS", "3600")),
            lease_seconds=float(env.get("TABLEHALL_TIMER_LEASE_SECONDS") or settings.lease_seconds),
            concurrency=int(env.get("TABLEHALL_TIMER_CONCURRENCY", "256")),
            poll_seconds=float(env.get("TABLEHALL_TIMER_POLL_SECONDS", "0.05")),
        )
