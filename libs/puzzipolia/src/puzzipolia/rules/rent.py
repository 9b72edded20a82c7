"""Rent: the rent card of every square (its whole table and the row in force) and the rent due."""

from __future__ import annotations

from typing import Any

from puzzipolia.board import TRANSPORT_RENTS, UTILITY_MULTIPLIERS, Square
from puzzipolia.state import State

PARTIAL_SET_PERCENT = 150  # large board: two or more streets of a group, not all


def _row(en: str, ru: str, amount: int, unit: str = "pupy") -> dict[str, Any]:
    return {"en": en, "ru": ru, "amount": amount, "unit": unit}


def street_rows(sq: Square, large: bool) -> list[dict[str, Any]]:
    base = sq.rents[0]
    rows = [_row("Rent", "Аренда", base), _row("Whole set, no houses", "Весь набор, без домов", 2 * base)]
    if large:
        rows.append(_row("Part of the set (2+ streets)", "Часть набора (2+ улицы)", partial_rent(base)))
    for n in range(1, 5):
        rows.append(_row(f"{n} house{'s' if n > 1 else ''}", f"{n} дом{'а' if n > 1 else ''}", sq.rents[n]))
    rows.append(_row("Hotel", "Отель", sq.rents[5]))
    return rows


def partial_rent(base: int) -> int:
    # +50 %, rounded half up
    return (base * PARTIAL_SET_PERCENT + 50) // 100


def _owned_in_group(st: State, sq: Square, owner: int) -> int:
    return sum(1 for i in st.geometry.groups[sq.group] if st.owners[i] == owner)


def current_row(st: State, index: int) -> int | None:
    """Index of the rent-card row in force now; None when the square takes no rent."""
    sq = st.geometry.squares[index]
    owner = st.owners[index]
    if not sq.is_ownable or owner < 0 or st.mortgaged[index]:
        return None
    owned = _owned_in_group(st, sq, owner)
    if sq.kind == "transport":
        return owned - 1
    if sq.kind == "utility":
        return min(owned, 2) - 1
    large = st.board == "large"
    houses = st.houses[index]
    if houses:
        return houses + (2 if large else 1)
    size = len(st.geometry.groups[sq.group])
    if owned == size:
        return 1
    if large and owned >= 2:
        return 2
    return 0


def rent_card(st: State, index: int) -> dict[str, Any] | None:
    """The square's rent card: its whole table, the row in force marked.

    A card depends only on the board, the square and the row in force, so each
    is built once and shared by every view (views are read-only)."""
    sq = st.geometry.squares[index]
    if sq.kind not in ("street", "transport", "utility"):
        return None
    key = (st.board, index, current_row(st, index))
    card = _CARDS.get(key)
    if card is None:
        card = _CARDS[key] = _build_card(sq, st.board == "large", key[2])
    return card


_CARDS: dict[tuple[str, int, int | None], dict[str, Any]] = {}


def _build_card(sq: Square, large: bool, current: int | None) -> dict[str, Any]:
    if sq.kind == "street":
        rows = street_rows(sq, large)
    elif sq.kind == "transport":
        rows = [
            _row(f"{n} transport{'s' if n > 1 else ''} owned", f"{n} транспорт(а) у владельца", r)
            for n, r in enumerate(TRANSPORT_RENTS, start=1)
        ]
    else:
        rows = [
            _row("One utility: dice × 4", "Одно предприятие: кубики × 4", UTILITY_MULTIPLIERS[0], "x_dice"),
            _row("Both utilities: dice × 10", "Оба предприятия: кубики × 10", UTILITY_MULTIPLIERS[1], "x_dice"),
        ]
    return {
        "price": sq.price,
        "house_cost": sq.house_cost,
        "mortgage_value": sq.mortgage_value,
        "redeem_cost": sq.redeem_cost,
        "rows": [{**r, "in_force": i == current} for i, r in enumerate(rows)],
        "current": current,
    }


def rent_due(st: State, index: int, dice_total: int, mode: str = "normal") -> int:
    """Rent the lander owes; `mode` is "double" (card: nearest transport) or "ten" (card: utility)."""
    row = current_row(st, index)
    if row is None:
        return 0
    sq = st.geometry.squares[index]
    if sq.kind == "utility":
        multiplier = UTILITY_MULTIPLIERS[1] if mode == "ten" else UTILITY_MULTIPLIERS[row]
        return dice_total * multiplier
    if sq.kind == "transport":
        amount = TRANSPORT_RENTS[row]
        return 2 * amount if mode == "double" else amount
    houses = st.houses[index]
    if houses:
        return sq.rents[houses]
    base = sq.rents[0]
    if row == 1:
        return 2 * base
    return partial_rent(base) if row == 2 else base
