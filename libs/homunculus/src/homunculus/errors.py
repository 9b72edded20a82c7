"""Refusals (stable reasons, Russian and English texts)."""

from __future__ import annotations

from tablehall_rules import IllegalCommand, InvalidCommand


def illegal(reason: str, en: str, ru: str) -> IllegalCommand:
    return IllegalCommand(reason, en, ru)


def invalid(reason: str, en: str, ru: str) -> InvalidCommand:
    return InvalidCommand(reason, en, ru)


# what the turn expects in each phase, said with the refusal of anything else
EXPECTED: dict[str, tuple[str, str]] = {
    "action": ("Play a card, place a domino or draw a card.", "Сыграйте карту, поставьте кость или возьмите карту."),
    "continue": ("One more action, or end the turn.", "Ещё одно действие или конец хода."),
    "after_draw": ("Play the card you drew, or keep it.", "Сыграйте взятую карту или оставьте её."),
    "free_move": ("Make the free move, or end the turn.", "Сделайте свободный ход или закончите ход."),
    "buy": ("Buy the lot you stand on, or decline it.", "Купите участок, на котором стоите, или откажитесь."),
    "auction": ("The auction goes first: bid or pass.", "Сначала аукцион: ставка или пас."),
    "dungeon": ("You are in the Dungeon: roll, pay 5 or use a pass.", "Вы в Темнице: бросок, 5 золота или пропуск."),
}


def wrong_phase(phase: str = "") -> IllegalCommand:
    """Not at this point of the turn; the refusal says what the turn expects now."""
    en, ru = EXPECTED.get(phase, ("Wait for your moment.", "Дождитесь своего момента."))
    return illegal(
        "WRONG_PHASE", f"That is not possible at this point of the turn. {en}", f"Сейчас этого сделать нельзя. {ru}"
    )


def not_in_hand() -> IllegalCommand:
    return illegal("CARD_NOT_IN_HAND", "You have no such card.", "У вас нет такой карты.")


def no_such_move() -> IllegalCommand:
    return illegal("NO_SUCH_MOVE", "That piece cannot move there.", "Эта фигура не может так пойти.")


def unused_fields() -> InvalidCommand:
    return invalid("UNUSED_FIELDS", "This card takes no move or colour.", "Эта карта не требует хода или цвета.")
