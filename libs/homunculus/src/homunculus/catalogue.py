"""What a client needs to name things without knowing the rules: the shop's fifteen items
(price, name, effect, in Russian and English) and the ring's forty squares (name, kind,
district, price, house cost, mortgage, redemption). Both go into every view (`shop`, `ring_squares`):
the prices are the rules' own (`rules.shop.PRICES`, `ring.board`), never a copy.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from homunculus.ring import board as rb
from homunculus.rules.shop import AUTOMATIC, PRICES
from tablehall_rules import SharedJson

# item -> (ru name, en name, ru effect, en effect); the seed's order and words («Золото и лавка»)
ITEM_TEXTS: dict[str, tuple[str, str, str, str]] = {
    "domino": (
        "Кость домино",
        "Domino tile",
        "Сразу приходит в руку (не больше 4 костей).",
        "Goes straight to your hand (at most 4 tiles).",
    ),
    "mine": ("Мина", "Mine", "Тайно поставь на закрытую пустую клетку.", "Lay it in secret on a closed empty cell."),
    "detector": (
        "Миноискатель",
        "Mine detector",
        "Покажет только тебе чужие мины в квадрате 5×5.",
        "Shows you alone the others' mines in a 5×5 square.",
    ),
    "boots": ("Сапоги", "Boots", "Лишний ход любой фигурой без карты.", "An extra move with any piece, no card."),
    "shield": (
        "Щит",
        "Shield",
        "Один раз спасает фигуру от взятия или взрыва: атака отбита, нападавший остаётся на месте.",
        "Saves a piece once from a capture or a blast: the attacker stays where it was.",
    ),
    "teleport": (
        "Телепорт",
        "Teleport",
        "Перенеси свою фигуру на любую пустую клетку.",
        "An own piece to any empty cell.",
    ),
    "resurrection": (
        "Воскрешение",
        "Resurrection",
        "Самая сильная павшая фигура возвращается на пустую клетку двух ближних к тебе линий.",
        "Your strongest fallen piece comes back on an empty cell of your two nearest rows.",
    ),
    "probe": (
        "Щуп",
        "Probe",
        "Безопасно открывает закрытую клетку и обезвреживает мину, если она там есть.",
        "Opens a closed cell safely and defuses a mine there, if any.",
    ),
    "medicine": ("Лекарство", "Medicine", "Снимает рану с твоего короля.", "Heals your king's wound."),
    "sledgehammer": (
        "Кувалда",
        "Sledgehammer",
        "Разбивает любую вражескую кость, с любым числом на ней.",
        "Breaks any enemy tile, whatever its number.",
    ),
    "new_hand": (
        "Новая рука",
        "New hand",
        "Сбрасывает все твои карты и даёт столько же новых.",
        "Your whole hand goes; as many new cards come.",
    ),
    "chameleon": (
        "Хамелеон",
        "Chameleon",
        "Меняет текущий цвет сброса, не тратя карту.",
        "Changes the discard pile's colour, no card spent.",
    ),
    "spyglass": (
        "Подзорная труба",
        "Spyglass",
        "До конца твоего хода показывает карты выбранного игрока.",
        "Shows you a chosen player's cards until your turn ends.",
    ),
    "castling": ("Рокировка", "Castling swap", "Меняет местами две твои фигуры.", "Two of your pieces swap places."),
    "safe_conduct": (
        "Охранная грамота",
        "Safe-conduct",
        "Срабатывает сама: следующая аренда меньше на 15 золота.",
        "Works by itself: your next rent is 15 gold less.",
    ),
}
assert set(ITEM_TEXTS) == set(PRICES), "every item of the shop has its words"


@cache
def _shop() -> tuple[dict[str, Any], ...]:
    return tuple(
        {
            "item": i,
            "price": PRICES[i],
            "ru": ru,
            "en": en,
            "effect_ru": eru,
            "effect_en": een,
            "automatic": i in AUTOMATIC,
        }
        for i, (ru, en, eru, een) in ITEM_TEXTS.items()
    )


@cache
def _squares() -> tuple[dict[str, Any], ...]:
    out: list[dict[str, Any]] = []
    for sq in rb.squares():
        entry: dict[str, Any] = {"kind": sq.kind, "ru": sq.ru, "en": sq.en}
        if sq.ownable:
            entry.update(group=sq.group, price=sq.price, mortgage=sq.mortgage, redeem=sq.redeem_cost)
            if sq.house_cost:
                entry["house_cost"] = sq.house_cost
        out.append(entry)
    return tuple(out)


@cache
def shop_view() -> SharedJson:
    """The shop's items in the seed's order: one list every view shows (read-only, encoded once)."""
    return SharedJson(dict(entry) for entry in _shop())


@cache
def ring_squares_view() -> SharedJson:
    """The ring's squares 0..39 from Start: names, kind; for lots the district and the money
    (price, house cost for streets, mortgage and its redemption). One list every view shows."""
    return SharedJson(dict(entry) for entry in _squares())
