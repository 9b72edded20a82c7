"""Refusals (stable reasons, Russian and English texts)."""

from __future__ import annotations

from tablehall_rules import IllegalCommand, InvalidCommand


def illegal(reason: str, en: str, ru: str) -> IllegalCommand:
    return IllegalCommand(reason, en, ru)


def invalid(reason: str, en: str, ru: str) -> InvalidCommand:
    return InvalidCommand(reason, en, ru)


def wrong_phase() -> IllegalCommand:
    return illegal("WRONG_PHASE", "That is not possible at this point of the turn.", "Сейчас этого сделать нельзя.")


def not_in_hand() -> IllegalCommand:
    return illegal("CARD_NOT_IN_HAND", "You have no such card.", "У вас нет такой карты.")


def no_such_move() -> IllegalCommand:
    return illegal("NO_SUCH_MOVE", "That piece cannot move there.", "Эта фигура не может так пойти.")


def unused_fields() -> InvalidCommand:
    return invalid("UNUSED_FIELDS", "This card takes no move or colour.", "Эта карта не требует хода или цвета.")
