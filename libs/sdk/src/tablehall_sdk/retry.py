"""When and how long to wait before retrying a call."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential back-off with full jitter.

    `attempts` bounds the tries of one call (UNAVAILABLE, ABORTED). A live feed reconnects
    while the server stays unreachable for less than `reconnect_for` seconds in a row.
    """

    attempts: int = 8
    first_delay: float = 0.05
    max_delay: float = 2.0
    reconnect_for: float = 60.0

    def delay(self, attempt: int, rng: random.Random | None = None) -> float:
        """Seconds to wait before try number `attempt + 1` (attempt counts from 1)."""
        ceiling = min(self.max_delay, self.first_delay * (2 ** (attempt - 1)))
        return (rng or random).uniform(ceiling / 2, ceiling)
