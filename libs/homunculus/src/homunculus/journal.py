"""The table's journal (ru/en), on `tablehall_rules.journal`'s convention: every event type has
a line (`LINES.of`) or is declared silent (`SILENT`); a line's code is the event's in UPPER_SNAKE,
or a more particular one where one event reads several ways (`PieceRemoved`: TAKEN / BLOWN_UP).

A line about a hidden fact (the cards a player drew, the tile it took from the bazaar) is
written twice: for the player itself (`audience=[seat]`) with the cards, and for everybody
without them. Hidden mines are never named before they explode.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

import msgspec

from homunculus import events as e
from homunculus.cards import Card
from homunculus.catalogue import ITEM_TEXTS
from homunculus.ring.board import square
from homunculus.ring.cards import ring_card
from homunculus.state import State
from tablehall_boards import cross
from tablehall_rules.journal import JournalEntry, Lines, table_entry
from tablehall_rules.table import ControllerChanged, PresenceChanged

# bookkeeping nobody reads as a line: markers, phases, the effects told by the line beside them
# (a swap, a colour, a healed king are told by ITEM_USED; a tile's removal by the blast or the
# piercing move), facts hidden from the others (a mine laid by the minefield, a drawn card kept)
SILENT = (
    e.Acted,
    e.CardExchanged,
    e.DrawnSet,
    e.DominoRemoved,
    e.MineCleared,
    e.CellsOpened,
    e.PhaseSet,
    e.EffectQueued,
    e.DirectionReversed,
    e.TurnSkipped,
    e.TurnBegan,
    e.UnoOpened,
    e.RoundEnded,
    e.MinesLaid,
    e.PiecesSwapped,
    e.ColourChanged,
    e.KingHealed,
    e.HandDiscarded,
    e.RingTurnBegan,
    e.DungeonTried,
    e.BuyOffered,
    e.PassCardUsed,
)
LINES = Lines(silent=SILENT)

# the seats' names while one event's lines are written (from the state: the table's seats)
_NAMES: ContextVar[tuple[str, ...]] = ContextVar("homunculus_journal_names", default=())


def journal(state_before: State | None, event: msgspec.Struct) -> list[JournalEntry]:
    """The lines of `event` (the first, `Started`, names the seats from its own state)."""
    source = state_before if state_before is not None else getattr(event, "state", None)
    token = _NAMES.set(tuple(source.names) if isinstance(source, State) else ())
    try:
        return LINES.entries(state_before, event)
    finally:
        _NAMES.reset(token)


def _ru(seat: int) -> str:
    """A seat as the journal names it: the player's name (a seat without one: «Игрок N», from 1)."""
    names = _NAMES.get()
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"Игрок {seat + 1}"


def _en(seat: int) -> str:
    names = _NAMES.get()
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"Player {seat + 1}"


def _line(code: str, params: dict[str, Any], ru: str, en: str, audience: list[int] | None = None) -> JournalEntry:
    return JournalEntry(code=code, params=params, ru=ru, en=en, audience=audience)


@LINES.of(PresenceChanged, ControllerChanged)
def _(event: PresenceChanged | ControllerChanged, _before: object) -> JournalEntry:
    return table_entry(event, _ru(event.seat))


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


@LINES.of(e.Started)
def _(event: e.Started, _before: object) -> list[JournalEntry]:
    n = event.state.players
    return [_line("STARTED", {"players": n}, f"Партия началась: игроков {n}.", f"The game began with {n} players.")]


@LINES.of(e.CardPlayed)
def _(event: e.CardPlayed, _before: object) -> list[JournalEntry]:
    p, card = event.seat, event.card
    return [
        _line(
            "CARD_PLAYED",
            {"seat": p, "card": msgspec.to_builtins(card), "colour": event.colour},
            f"{_ru(p)} сыграл карту: {_card_ru(card)}.",
            f"{_en(p)} played {_card_en(card)}.",
        )
    ]


@LINES.of(e.CardsDrawn)
def _(event: e.CardsDrawn, _before: object) -> list[JournalEntry]:
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


@LINES.of(e.PieceMoved)
def _(event: e.PieceMoved, _before: object) -> list[JournalEntry]:
    a, b = _name(event.origin), _name(event.target)
    return [
        _line(
            "PIECE_MOVED",
            {"seat": event.seat, "from": a, "to": b},
            f"{_ru(event.seat)}: {a}–{b}.",
            f"{_en(event.seat)}: {a}-{b}.",
        )
    ]


@LINES.of(e.PieceRemoved)
def _(event: e.PieceRemoved, _before: object) -> list[JournalEntry]:
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


@LINES.of(e.KingWounded)
def _(event: e.KingWounded, _before: object) -> list[JournalEntry]:
    return [
        _line(
            "KING_WOUNDED",
            {"seat": event.seat},
            f"Король игрока {_ru(event.seat)} ранен.",
            f"{_en(event.seat)}'s king is wounded.",
        )
    ]


@LINES.of(e.DominoPlaced)
def _(event: e.DominoPlaced, _before: object) -> list[JournalEntry]:
    t = f"{event.low}-{event.high}"
    return [
        _line(
            "DOMINO_PLACED",
            {"seat": event.seat, "tile": t},
            f"{_ru(event.seat)} поставил кость {t}.",
            f"{_en(event.seat)} placed {t}.",
        )
    ]


@LINES.of(e.DominoTaken)
def _(event: e.DominoTaken, _before: object) -> list[JournalEntry]:
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


@LINES.of(e.MineExploded)
def _(event: e.MineExploded, _before: object) -> list[JournalEntry]:
    where = _name(event.cell)
    return [_line("MINE_EXPLODED", {"cell": where}, f"Взрыв мины на {where}!", f"A mine exploded on {where}!")]


@LINES.of(e.UnoClosed)
def _(event: e.UnoClosed, _before: object) -> list[JournalEntry]:
    if event.said:
        return [_line("UNO_SAID", {"seat": event.seat}, f"{_ru(event.seat)}: «Уно!»", f"{_en(event.seat)}: «Uno!»")]
    if event.caught_by is not None:
        return [
            _line(
                "UNO_CAUGHT",
                {"seat": event.seat, "by": event.caught_by},
                f"{_ru(event.caught_by)} поймал игрока {_ru(event.seat)}: +2 карты.",
                f"{_en(event.caught_by)} caught {_en(event.seat)}: +2 cards.",
            )
        ]
    return []


DIE_RU = {1: "детонация", 2: "золотая жила", 3: "подкрепление", 4: "смена направления", 5: "минное поле", 6: "базар"}
DIE_EN = {1: "detonation", 2: "gold rush", 3: "reinforcements", 4: "reverse", 5: "minefield", 6: "bazaar"}


@LINES.of(e.RoundDie)
def _(event: e.RoundDie, _before: object) -> list[JournalEntry]:
    f = event.face
    return [_line("ROUND_DIE", {"face": f}, f"Кубик круга: {f} — {DIE_RU[f]}.", f"Round die: {f}, {DIE_EN[f]}.")]


@LINES.of(e.Eliminated)
def _(event: e.Eliminated, _before: object) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "ELIMINATED",
            {"seat": p, "reason": event.reason},
            f"{_ru(p)} выбыл: {CAUSE_RU[event.reason]}.",
            f"{_en(p)} is out: {CAUSE_EN[event.reason]}.",
        )
    ]


@LINES.of(e.Finished)
def _(event: e.Finished, _before: object) -> list[JournalEntry]:
    won_ru = ", ".join(_ru(p) for p in event.places[0]) if event.places else "—"
    won_en = ", ".join(_en(p) for p in event.places[0]) if event.places else "—"
    return [
        _line(
            "FINISHED", {"places": event.places}, f"Партия окончена. Победа: {won_ru}.", f"Game over. Won by {won_en}."
        )
    ]


# --- the shop: who bought and used what (the inventory is public) --------------------------


@LINES.of(e.ItemBought)
def _(event: e.ItemBought, _before: object) -> list[JournalEntry]:
    p, n = event.seat, event.price
    ru, en = ITEM_TEXTS[event.item][:2] if event.item in ITEM_TEXTS else (event.item, event.item)
    params = {"seat": p, "item": event.item, "price": n}
    return [_line("ITEM_BOUGHT", params, f"{_ru(p)} купил в лавке: {ru} за {n}.", f"{_en(p)} bought {en} for {n}.")]


@LINES.of(e.ItemUsed)
def _(event: e.ItemUsed, _before: object) -> list[JournalEntry]:
    p = event.seat
    ru, en = ITEM_TEXTS[event.item][:2] if event.item in ITEM_TEXTS else (event.item, event.item)
    params = {"seat": p, "item": event.item}
    return [_line("ITEM_USED", params, f"{_ru(p)} применил: {ru}.", f"{_en(p)} used: {en}.")]


# --- shop items, second part (rules/shop.py): never a hidden cell, mine or card ------------


@LINES.of(e.MinePlaced)
def _(event: e.MinePlaced, _before: object) -> list[JournalEntry]:
    p = event.seat
    return [_line("MINE_PLACED", {"seat": p}, f"{_ru(p)} тайно поставил мину.", f"{_en(p)} laid a mine in secret.")]


@LINES.of(e.DetectorUsed)
def _(event: e.DetectorUsed, _before: object) -> list[JournalEntry]:
    p, where = event.seat, _name(event.centre)
    return [
        _line(
            "DETECTOR_USED",
            {"seat": p, "centre": where},
            f"{_ru(p)} проверил миноискателем квадрат у {where}.",
            f"{_en(p)} swept the square around {where} with the detector.",
        )
    ]


@LINES.of(e.ShieldGiven)
def _(event: e.ShieldGiven, _before: object) -> list[JournalEntry]:
    where = _name(event.cell)
    return [
        _line("SHIELD_GIVEN", {"cell": where}, f"Фигура на {where} под щитом.", f"The piece on {where} is shielded.")
    ]


@LINES.of(e.ShieldBroke)
def _(event: e.ShieldBroke, _before: object) -> list[JournalEntry]:
    where = _name(event.cell)
    return [
        _line(
            "SHIELD_BROKE",
            {"cell": where, "cause": event.cause},
            f"Щит спас фигуру на {where}.",
            f"The shield saved the piece on {where}.",
        )
    ]


@LINES.of(e.PieceResurrected)
def _(event: e.PieceResurrected, _before: object) -> list[JournalEntry]:
    p, where = event.seat, _name(event.cell)
    return [
        _line(
            "PIECE_RESURRECTED",
            {"seat": p, "cell": where, "kind": int(event.kind)},
            f"{_ru(p)} воскресил фигуру на {where}.",
            f"{_en(p)} brought a piece back on {where}.",
        )
    ]


@LINES.of(e.MineDefused)
def _(event: e.MineDefused, _before: object) -> list[JournalEntry]:
    where = _name(event.cell)
    return [
        _line(
            "MINE_DEFUSED", {"cell": where}, f"Щуп обезвредил мину на {where}.", f"The probe defused a mine on {where}."
        )
    ]


@LINES.of(e.SpyglassUsed)
def _(event: e.SpyglassUsed, _before: object) -> list[JournalEntry]:
    p, w = event.seat, event.watched
    return [
        _line(
            "SPYGLASS_USED",
            {"seat": p, "watched": w},
            f"{_ru(p)} смотрит в подзорную трубу на карты игрока {_ru(w)}.",
            f"{_en(p)} looks at {_en(w)}'s cards through the spyglass.",
        )
    ]


# --- the ring and the debts: every ring fact is public -----------------------------------

KIND_RU = {1: "пешку", 2: "коня", 3: "слона", 4: "ладью", 5: "ферзя"}
KIND_EN = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen"}
HOW_RU = {"doubles": "дублем", "fine": "заплатив 5", "pass": "по пропуску", "paid": "заплатив после трёх попыток"}
HOW_EN = {"doubles": "by doubles", "fine": "paying 5", "pass": "with a pass", "paid": "paying after three tries"}


def _sq(index: int) -> tuple[str, str]:
    sq = square(index)
    return sq.ru, sq.en


@LINES.of(e.DiceRolled)
def _(event: e.DiceRolled, _before: object) -> list[JournalEntry]:
    p, a, b = event.seat, event.first, event.second
    double_ru, double_en = (" — дубль" if a == b else ""), (", doubles" if a == b else "")
    params = {"seat": p, "dice": [a, b]}
    return [
        _line("DICE_ROLLED", params, f"{_ru(p)} бросил {a}+{b}{double_ru}.", f"{_en(p)} rolled {a}+{b}{double_en}.")
    ]


@LINES.of(e.TokenMoved)
def _(event: e.TokenMoved, _before: object) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    bonus_ru, bonus_en = (
        (" через «Старт»: +10" if event.passed_start else ""),
        (" past Start: +10" if event.passed_start else ""),
    )
    params = {"seat": event.seat, "square": event.square}
    return [
        _line("TOKEN_MOVED", params, f"{_ru(event.seat)} → {ru}{bonus_ru}.", f"{_en(event.seat)} → {en}{bonus_en}.")
    ]


@LINES.of(e.DungeonEntered)
def _(event: e.DungeonEntered, _before: object) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "DUNGEON_ENTERED",
            {"seat": p, "reason": event.reason},
            f"{_ru(p)} в Темнице.",
            f"{_en(p)} is in the Dungeon.",
        )
    ]


@LINES.of(e.DungeonLeft)
def _(event: e.DungeonLeft, _before: object) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "DUNGEON_LEFT",
            {"seat": p, "how": event.how},
            f"{_ru(p)} вышел из Темницы {HOW_RU[event.how]}.",
            f"{_en(p)} left the Dungeon {HOW_EN[event.how]}.",
        )
    ]


@LINES.of(e.LotBought)
def _(event: e.LotBought, _before: object) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p, price = event.seat, event.price
    params = {"seat": p, "square": event.square, "price": price}
    return [_line("LOT_BOUGHT", params, f"{_ru(p)} купил {ru} за {price}.", f"{_en(p)} bought {en} for {price}.")]


@LINES.of(e.AuctionOpened)
def _(event: e.AuctionOpened, _before: object) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    return [_line("AUCTION_OPENED", {"square": event.square}, f"Аукцион: {ru}.", f"Auction: {en}.")]


@LINES.of(e.BidPlaced)
def _(event: e.BidPlaced, _before: object) -> list[JournalEntry]:
    p, n = event.seat, event.amount
    return [_line("BID_PLACED", {"seat": p, "amount": n}, f"{_ru(p)}: ставка {n}.", f"{_en(p)} bids {n}.")]


@LINES.of(e.BidPassed)
def _(event: e.BidPassed, _before: object) -> list[JournalEntry]:
    p = event.seat
    if event.reason == "gold":
        return [
            _line(
                "BID_PASSED_GOLD",
                {"seat": p},
                f"{_ru(p)}: пас — золота не хватает, чтобы перебить ставку.",
                f"{_en(p)} passes: not enough gold to outbid.",
            )
        ]
    if event.reason == "out":
        return [
            _line(
                "BID_PASSED_OUT",
                {"seat": p},
                f"{_ru(p)} выбыл и вышел из аукциона.",
                f"{_en(p)} is out of the game and of the auction.",
            )
        ]
    return [_line("BID_PASSED", {"seat": p}, f"{_ru(p)}: пас.", f"{_en(p)} passes.")]


@LINES.of(e.AuctionClosed)
def _(event: e.AuctionClosed, _before: object) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    params = {"square": event.square, "winner": event.winner, "price": event.price}
    if event.winner < 0:
        return [_line("AUCTION_UNSOLD", params, f"{ru} остаётся у банка.", f"{en} stays with the bank.")]
    w, n = event.winner, event.price
    return [_line("AUCTION_WON", params, f"{_ru(w)} берёт {ru} за {n}.", f"{_en(w)} takes {en} for {n}.")]


@LINES.of(e.RingCardDrawn)
def _(event: e.RingCardDrawn, _before: object) -> list[JournalEntry]:
    card = ring_card(event.card)
    return [
        _line(
            "RING_CARD_DRAWN",
            {"seat": event.seat, "card": card.id},
            f"{_ru(event.seat)}: {card.ru}",
            f"{_en(event.seat)}: {card.en}",
        )
    ]


@LINES.of(e.BuildingBuilt)
def _(event: e.BuildingBuilt, _before: object) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p = event.seat
    params = {"seat": p, "square": event.square, "cost": event.cost}
    return [_line("BUILDING_BUILT", params, f"{_ru(p)} строит на {ru}.", f"{_en(p)} builds on {en}.")]


@LINES.of(e.BuildingDemolished)
def _(event: e.BuildingDemolished, _before: object) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p, n = event.seat, event.refund
    params = {"seat": p, "square": event.square, "levels": event.levels, "refund": n}
    return [
        _line(
            "BUILDING_DEMOLISHED",
            params,
            f"Снос на {ru} за долг игрока {_ru(p)}: +{n}.",
            f"Demolished on {en} for {_en(p)}'s debt: +{n}.",
        )
    ]


@LINES.of(e.LotMortgaged)
def _(event: e.LotMortgaged, _before: object) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p, n = event.seat, event.amount
    params = {"seat": p, "square": event.square, "amount": n}
    return [_line("LOT_MORTGAGED", params, f"{_ru(p)} заложил {ru}: +{n}.", f"{_en(p)} mortgaged {en}: +{n}.")]


@LINES.of(e.LotRedeemed)
def _(event: e.LotRedeemed, _before: object) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p, n = event.seat, event.cost
    params = {"seat": p, "square": event.square, "cost": n}
    return [_line("LOT_REDEEMED", params, f"{_ru(p)} выкупил {ru} за {n}.", f"{_en(p)} redeemed {en} for {n}.")]


@LINES.of(e.TradeOffered)
def _(event: e.TradeOffered, _before: object) -> list[JournalEntry]:
    a, b = event.proposer, event.to
    params = {
        "seat": a,
        "to": b,
        "give_lots": event.give_lots,
        "get_lots": event.get_lots,
        "give_gold": event.give_gold,
        "get_gold": event.get_gold,
    }
    return [
        _line(
            "TRADE_OFFERED",
            params,
            f"{_ru(a)} предлагает сделку игроку {_ru(b)}.",
            f"{_en(a)} offers {_en(b)} a trade.",
        )
    ]


@LINES.of(e.TradeAnswered)
def _(event: e.TradeAnswered, _before: object) -> list[JournalEntry]:
    if event.accepted:
        return [_line("TRADE_DONE", {}, "Сделка заключена.", "The trade is done.")]
    return [_line("TRADE_DECLINED", {}, "Сделка отклонена.", "The trade is declined.")]


@LINES.of(e.PieceSold)
def _(event: e.PieceSold, _before: object) -> list[JournalEntry]:
    p, kind = event.seat, int(event.kind)
    params = {"seat": p, "cell": event.cell, "kind": kind, "price": event.price, "cause": event.cause}
    if event.cause == "card":
        return [_line("PIECE_LOST", params, f"{_ru(p)} теряет {KIND_RU[kind]}.", f"{_en(p)} loses a {KIND_EN[kind]}.")]
    n = event.price
    return [
        _line(
            "PIECE_SOLD",
            params,
            f"{_ru(p)} продаёт {KIND_RU[kind]} за {n}.",
            f"{_en(p)} sells a {KIND_EN[kind]} for {n}.",
        )
    ]


@LINES.of(e.DebtForgiven)
def _(event: e.DebtForgiven, _before: object) -> list[JournalEntry]:
    p, n = event.seat, event.amount
    return [
        _line(
            "DEBT_FORGIVEN",
            {"seat": p, "amount": n},
            f"Игроку {p} прощено {n} долга.",
            f"{_en(p)}'s debt of {n} is forgiven.",
        )
    ]


@LINES.of(e.LotsReturned)
def _(event: e.LotsReturned, _before: object) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "LOTS_RETURNED",
            {"seat": p},
            f"Участки игрока {_ru(p)} вернулись банку.",
            f"{_en(p)}'s lots went back to the bank.",
        )
    ]


@LINES.of(e.SafeConductSpent)
def _(event: e.SafeConductSpent, _before: object) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "SAFE_CONDUCT_SPENT",
            {"seat": p},
            f"Охранная грамота игрока {_ru(p)}: аренда −15.",
            f"{_en(p)}'s safe-conduct: rent −15.",
        )
    ]


REASON_RU = {
    "rent": "аренда",
    "tax": "налог",
    "card": "карта",
    "repairs": "ремонт",
    "dungeon": "Темница",
    "start": "«Старт»",
}
REASON_EN = {"rent": "rent", "tax": "tax", "card": "card", "repairs": "repairs", "dungeon": "Dungeon", "start": "Start"}


@LINES.of(e.GoldPaid)
def _(event: e.GoldPaid, _before: object) -> list[JournalEntry]:
    """Ring money (rent, taxes, cards, repairs, the Dungeon); other gold writes no line here."""
    if event.reason not in REASON_RU or event.reason == "start":
        return []
    p, n = event.seat, event.amount
    sign = f"+{n}" if n > 0 else str(n)
    params = {"seat": p, "amount": n, "reason": event.reason}
    return [
        _line(
            "RING_GOLD",
            params,
            f"{_ru(p)}: {sign} ({REASON_RU[event.reason]}).",
            f"{_en(p)}: {sign} ({REASON_EN[event.reason]}).",
        )
    ]
