"""Errors a rules engine raises.

Two kinds, as in python-chess: a command that cannot be understood at all
(`InvalidCommand`, mapped to INVALID_ARGUMENT) and a well-formed command the
rules forbid right now (`IllegalCommand`, mapped to FAILED_PRECONDITION).
Every error carries a stable UPPER_SNAKE `reason` (API) and a human message
in Russian and English.
"""

from __future__ import annotations

from collections.abc import Mapping


class RuleError(Exception):
    """Base of every error raised by a rules library."""

    def __init__(
        self,
        reason: str,
        en: str,
        ru: str,
        details: Mapping[str, str] | None = None,
    ) -> None:
        if not reason or not reason.replace("_", "").isalnum() or reason.upper() != reason:
            raise ValueError(f"reason must be UPPER_SNAKE, got {reason!r}")
        super().__init__(f"{reason}: {en}")
        self.reason = reason
        self.message_en = en
        self.message_ru = ru
        self.details: dict[str, str] = dict(details or {})


class InvalidCommand(RuleError):
    """The command is malformed: unknown kind, out-of-range field, bad shape."""


class InvalidOptions(RuleError):
    """Table options the game does not accept."""


class IllegalCommand(RuleError):
    """The command is well formed but the rules forbid it now."""


class NotYourTurn(IllegalCommand):
    """The seat has no decision to take now."""

    def __init__(self, en: str = "It is not your turn.", ru: str = "Сейчас не ваш ход.") -> None:
        super().__init__("NOT_YOUR_TURN", en, ru)


class GameOver(IllegalCommand):
    """The match has ended; nothing more can be played."""

    def __init__(self) -> None:
        super().__init__("GAME_OVER", "The game is over.", "Игра окончена.")


def illegal(reason: str, en: str, ru: str, details: Mapping[str, str] | None = None) -> IllegalCommand:
    """A well-formed command the rules forbid now (FAILED_PRECONDITION)."""
    return IllegalCommand(reason, en, ru, details)


def invalid(reason: str, en: str, ru: str, details: Mapping[str, str] | None = None) -> InvalidCommand:
    """A command that cannot be understood (INVALID_ARGUMENT)."""
    return InvalidCommand(reason, en, ru, details)


def no_such_seat(seat: int) -> InvalidCommand:
    return InvalidCommand("NO_SUCH_SEAT", f"There is no seat {seat}.", f"Места {seat} нет.")


def clock_only() -> IllegalCommand:
    """A command only the timer makes (the default move of a run-out clock)."""
    return IllegalCommand(
        "CLOCK_DRIVEN_ONLY",
        "Only a run-out clock makes this move.",
        "Этот ход делают только часы, когда время вышло.",
    )


def system_only() -> IllegalCommand:
    """A table command (presence, hand-over, removal, closing) sent for a seat: only the table sends them."""
    return IllegalCommand("SYSTEM_ONLY", "Only the table sends this command.", "Эту команду подаёт только стол.")
