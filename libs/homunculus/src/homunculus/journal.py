"""The table's journal (ru/en) and live standings (public facts only).

A line about a hidden fact (the cards a player drew, the tile it took from the bazaar) is
written twice: for the player itself (`audience=[seat]`) with the cards, and for everybody
without them. Hidden mines are never named before they explode.
"""

from __future__ import annotations

import msgspec

from homunculus import events as e
from homunculus.board import STRENGTH
from homunculus.cards import Card
from homunculus.catalogue import ITEM_TEXTS
from homunculus.journal_base import _NAMES, _en, _line, _lines, _ru
from homunculus.ring import journal as _ring_journal  # registers the ring's lines
from homunculus.state import State
from tablehall_boards import cross
from tablehall_rules.journal import JournalEntry

COLOUR_RU = {0: "южный", 1: "западный", 2: "северный", 3: "восточный", -1: "дикая"}
COLOUR_EN = {0: "south", 1: "west", 2: "north", 3: "east", -1: "wild"}
VALUE_RU = {
    "pawn": "пешка",
    "knight": "конь",
    "bishop": "слон",
    "rook": "ладья",
    "queen": "ферзь",
    "king": "король",
    "skip": "пропуск",
    "reverse": "разворот",
    "draw2": "+2",
    "wild": "дикая",
    "wild4": "дикая +4",
}
CAUSE_RU = {"king": "потерял короля", "surrender": "сдался", "clock": "трижды не успел", "removed": "покинул стол"}
CAUSE_EN = {"king": "lost the king", "surrender": "surrendered", "clock": "ran out of time thrice", "removed": "left"}


VALUE_EN = {"draw2": "+2", "wild": "wild", "wild4": "wild +4"}


def _card_en(card: Card) -> str:
    return f"{VALUE_EN.get(card.value, card.value)} ({COLOUR_EN[card.colour]})"


def _card_ru(card: Card) -> str:
    return f"{VALUE_RU[card.value]} ({COLOUR_RU[card.colour]})"


def _name(cell: int) -> str:
    return cross.grid().name_of(cell)


def journal(state_before: State | None, event: msgspec.Struct) -> list[JournalEntry]:
    source = state_before if state_before is not None else getattr(event, "state", None)
    token = _NAMES.set(tuple(source.names) if isinstance(source, State) else ())
    try:
        return _lines(event)
    finally:
        _NAMES.reset(token)


@_lines.register
def _(event: e.Started) -> list[JournalEntry]:
    n = event.state.players
    return [_line("STARTED", {"players": n}, f"Партия началась: игроков {n}.", f"The game began with {n} players.")]


@_lines.register
def _(event: e.CardPlayed) -> list[JournalEntry]:
    p, card = event.seat, event.card
    return [
        _line(
            "CARD_PLAYED",
            {"seat": p, "card": msgspec.to_builtins(card), "colour": event.colour},
            f"{_ru(p)} сыграл карту: {_card_ru(card)}.",
            f"{_en(p)} played {_card_en(card)}.",
        )
    ]


@_lines.register
def _(event: e.CardsDrawn) -> list[JournalEntry]:
    p, n = event.seat, len(event.drawn.cards)
    cards = [msgspec.to_builtins(card) for card in event.drawn.cards]
    ru_cards = ", ".join(_card_ru(card) for card in event.drawn.cards) or "ничего"
    en_cards = ", ".join(_card_en(card) for card in event.drawn.cards) or "nothing"
    return [
        _line(
            "CARDS_DRAWN",
            {"seat": p, "count": n, "reason": event.reason},
            f"{_ru(p)} взял карт: {n}.",
            f"{_en(p)} drew {n} cards.",
        ),
        _line(
            "CARDS_DRAWN_OWN",
            {"seat": p, "cards": cards, "reason": event.reason},
            f"Вы взяли: {ru_cards}.",
            f"You drew: {en_cards}.",
            audience=[p],
        ),
    ]


@_lines.register
def _(event: e.PieceMoved) -> list[JournalEntry]:
    a, b = _name(event.origin), _name(event.target)
    return [
        _line(
            "MOVED",
            {"seat": event.seat, "from": a, "to": b},
            f"{_ru(event.seat)}: {a}–{b}.",
            f"{_en(event.seat)}: {a}-{b}.",
        )
    ]


@_lines.register
def _(event: e.PieceRemoved) -> list[JournalEntry]:
    where = _name(event.cell)
    if event.cause == "mine" or event.by is None:  # a mine, or the round die's blast
        return [
            _line(
                "BLOWN_UP",
                {"cell": where, "owner": event.owner},
                f"Фигура подорвалась на {where}.",
                f"A piece blew up on {where}.",
            )
        ]
    return [
        _line(
            "TAKEN",
            {"cell": where, "by": event.by},
            f"{_ru(event.by)} взял фигуру на {where}.",
            f"{_en(event.by)} took on {where}.",
        )
    ]


@_lines.register
def _(event: e.KingWounded) -> list[JournalEntry]:
    return [
        _line(
            "KING_WOUNDED",
            {"seat": event.seat},
            f"Король игрока {_ru(event.seat)} ранен.",
            f"{_en(event.seat)}'s king is wounded.",
        )
    ]


@_lines.register
def _(event: e.DominoPlaced) -> list[JournalEntry]:
    t = f"{event.low}-{event.high}"
    return [
        _line(
            "DOMINO_PLACED",
            {"seat": event.seat, "tile": t},
            f"{_ru(event.seat)} поставил кость {t}.",
            f"{_en(event.seat)} placed {t}.",
        )
    ]


@_lines.register
def _(event: e.DominoTaken) -> list[JournalEntry]:
    p = event.seat
    return [
        _line("DOMINO_TAKEN", {"seat": p}, f"{_ru(p)} взял кость из базара.", f"{_en(p)} took a tile from the bazaar."),
        _line(
            "DOMINO_TAKEN_OWN",
            {"seat": p, "tile": str(event.tile)},
            f"Вам досталась кость {event.tile}.",
            f"You got {event.tile}.",
            [p],
        ),
    ]


@_lines.register
def _(event: e.MineExploded) -> list[JournalEntry]:
    where = _name(event.cell)
    return [_line("MINE_EXPLODED", {"cell": where}, f"Взрыв мины на {where}!", f"A mine exploded on {where}!")]


@_lines.register
def _(event: e.UnoClosed) -> list[JournalEntry]:
    if event.said:
        return [_line("UNO", {"seat": event.seat}, f"{_ru(event.seat)}: «Уно!»", f"{_en(event.seat)}: «Uno!»")]
    if event.caught_by is not None:
        return [
            _line(
                "CAUGHT",
                {"seat": event.seat, "by": event.caught_by},
                f"{_ru(event.caught_by)} поймал игрока {_ru(event.seat)}: +2 карты.",
                f"{_en(event.caught_by)} caught {_en(event.seat)}: +2 cards.",
            )
        ]
    return []


DIE_RU = {1: "детонация", 2: "золотая жила", 3: "подкрепление", 4: "смена направления", 5: "минное поле", 6: "базар"}
DIE_EN = {1: "detonation", 2: "gold rush", 3: "reinforcements", 4: "reverse", 5: "minefield", 6: "bazaar"}


@_lines.register
def _(event: e.RoundDie) -> list[JournalEntry]:
    f = event.face
    return [_line("ROUND_DIE", {"face": f}, f"Кубик круга: {f} — {DIE_RU[f]}.", f"Round die: {f}, {DIE_EN[f]}.")]


@_lines.register
def _(event: e.Eliminated) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "ELIMINATED",
            {"seat": p, "reason": event.reason},
            f"{_ru(p)} выбыл: {CAUSE_RU[event.reason]}.",
            f"{_en(p)} is out: {CAUSE_EN[event.reason]}.",
        )
    ]


@_lines.register
def _(event: e.Finished) -> list[JournalEntry]:
    won_ru = ", ".join(_ru(p) for p in event.places[0]) if event.places else "—"
    won_en = ", ".join(_en(p) for p in event.places[0]) if event.places else "—"
    return [
        _line(
            "FINISHED", {"places": event.places}, f"Партия окончена. Победа: {won_ru}.", f"Game over. Won by {won_en}."
        )
    ]


def standings(state: State) -> list[list[int]]:
    """Live players (teams together) by army strength, then the eliminated, last out best."""
    units: list[list[int]] = [sorted(t) for t in state.teams]
    teamed = {p for t in state.teams for p in t}
    units += [[p] for p in range(state.players) if p not in teamed]

    def strength(unit: list[int]) -> int:
        return sum(STRENGTH[pc.kind] for pc in state.pieces.values() if pc.side in unit)

    live = [u for u in units if any(state.alive[p] for p in u)]
    gone = [u for u in units if not any(state.alive[p] for p in u)]
    out: list[list[int]] = []
    for score in sorted({strength(u) for u in live}, reverse=True):
        out.append(sorted(p for u in live if strength(u) == score for p in u))
    order = {p: i for i, p in enumerate(state.eliminated)}
    gone.sort(key=lambda u: max(order.get(p, -1) for p in u), reverse=True)
    return out + gone


# --- the shop: who bought and used what (the inventory is public) --------------------------


@_lines.register
def _(event: e.ItemBought) -> list[JournalEntry]:
    p, n = event.seat, event.price
    ru, en = ITEM_TEXTS[event.item][:2] if event.item in ITEM_TEXTS else (event.item, event.item)
    params = {"seat": p, "item": event.item, "price": n}
    return [_line("ITEM_BOUGHT", params, f"{_ru(p)} купил в лавке: {ru} за {n}.", f"{_en(p)} bought {en} for {n}.")]


@_lines.register
def _(event: e.ItemUsed) -> list[JournalEntry]:
    p = event.seat
    ru, en = ITEM_TEXTS[event.item][:2] if event.item in ITEM_TEXTS else (event.item, event.item)
    params = {"seat": p, "item": event.item}
    return [_line("ITEM_USED", params, f"{_ru(p)} применил: {ru}.", f"{_en(p)} used: {en}.")]


# --- shop items, second part (rules/items.py): never a hidden cell, mine or card ------------


@_lines.register
def _(event: e.MinePlaced) -> list[JournalEntry]:
    p = event.seat
    return [_line("MINE_PLACED", {"seat": p}, f"{_ru(p)} тайно поставил мину.", f"{_en(p)} laid a mine in secret.")]


@_lines.register
def _(event: e.DetectorUsed) -> list[JournalEntry]:
    p, where = event.seat, _name(event.centre)
    return [
        _line(
            "DETECTOR_USED",
            {"seat": p, "centre": where},
            f"{_ru(p)} проверил миноискателем квадрат у {where}.",
            f"{_en(p)} swept the square around {where} with the detector.",
        )
    ]


@_lines.register
def _(event: e.ShieldGiven) -> list[JournalEntry]:
    where = _name(event.cell)
    return [
        _line("SHIELD_GIVEN", {"cell": where}, f"Фигура на {where} под щитом.", f"The piece on {where} is shielded.")
    ]


@_lines.register
def _(event: e.ShieldBroke) -> list[JournalEntry]:
    where = _name(event.cell)
    return [
        _line(
            "SHIELD_BROKE",
            {"cell": where, "cause": event.cause},
            f"Щит спас фигуру на {where}.",
            f"The shield saved the piece on {where}.",
        )
    ]


@_lines.register
def _(event: e.PieceResurrected) -> list[JournalEntry]:
    p, where = event.seat, _name(event.cell)
    return [
        _line(
            "RESURRECTED",
            {"seat": p, "cell": where, "kind": int(event.kind)},
            f"{_ru(p)} воскресил фигуру на {where}.",
            f"{_en(p)} brought a piece back on {where}.",
        )
    ]


@_lines.register
def _(event: e.MineDefused) -> list[JournalEntry]:
    where = _name(event.cell)
    return [
        _line(
            "MINE_DEFUSED", {"cell": where}, f"Щуп обезвредил мину на {where}.", f"The probe defused a mine on {where}."
        )
    ]


@_lines.register
def _(event: e.SpyglassUsed) -> list[JournalEntry]:
    p, w = event.seat, event.watched
    return [
        _line(
            "SPYGLASS_USED",
            {"seat": p, "watched": w},
            f"{_ru(p)} смотрит в подзорную трубу на карты игрока {_ru(w)}.",
            f"{_en(p)} looks at {_en(w)}'s cards through the spyglass.",
        )
    ]


__all__ = ["_ring_journal", "journal", "standings"]
