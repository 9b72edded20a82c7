"""The tables a game asks the conformance suite to play (`Game.conformance_setups`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Setup:
    """A table the conformance suite plays: its seats, its options (teams included), and
    how many random games (hypothesis examples) `make test` plays of it."""

    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    examples: int = 5

    @property
    def name(self) -> str:
        flags = "-".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.seats}-seats" + (f"-{flags}" if flags else "")
