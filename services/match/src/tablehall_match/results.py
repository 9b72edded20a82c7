"""What the match answers: a viewer's view, a submitted command's version, a dry run's refusal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tablehall_platform.errors import ServiceError
from tablehall_rules import LegalMove, PendingDecision, RuleError


@dataclass(frozen=True)
class ViewResult:
    table_id: str
    game: str
    version: int
    role: str
    seat: int | None
    view: dict[str, Any]
    legal: Sequence[LegalMove]  # a game's `LegalMoves` finds its costly parts when first read
    decisions: list[PendingDecision]
    finished: bool
    outcome: dict[str, Any] | None
    teams: list[list[int]]


@dataclass(frozen=True)
class SubmitResult:
    version: int
    duplicate: bool
    # None when the caller asked for the version only
    view: ViewResult | None
    finished: bool = False


@dataclass(frozen=True)
class CheckResult:
    version: int
    refusal: RuleError | ServiceError | None
