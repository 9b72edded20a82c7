"""Short constructors for the rule errors (reason, English, Russian)."""

from __future__ import annotations

from tablehall_rules import IllegalCommand, InvalidCommand


def illegal(reason: str, en: str, ru: str) -> IllegalCommand:
    return IllegalCommand(reason, en, ru)


def invalid(reason: str, en: str, ru: str) -> InvalidCommand:
    return InvalidCommand(reason, en, ru)
