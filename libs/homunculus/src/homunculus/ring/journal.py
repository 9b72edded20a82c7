"""Journal lines (ru/en) of the ring and the debts; every ring fact is public."""

from __future__ import annotations

from homunculus import events as e
from homunculus.journal_base import _en, _line, _lines, _ru
from homunculus.ring.board import square
from homunculus.ring.cards import ring_card
from tablehall_rules.journal import JournalEntry

KIND_RU = {1: "пешку", 2: "коня", 3: "слона", 4: "ладью", 5: "ферзя"}
KIND_EN = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen"}
HOW_RU = {"doubles": "дублем", "fine": "заплатив 5", "pass": "по пропуску", "paid": "заплатив после трёх попыток"}
HOW_EN = {"doubles": "by doubles", "fine": "paying 5", "pass": "with a pass", "paid": "paying after three tries"}


def _sq(index: int) -> tuple[str, str]:
    sq = square(index)
    return sq.ru, sq.en


@_lines.register
def _(event: e.DiceRolled) -> list[JournalEntry]:
    p, a, b = event.seat, event.first, event.second
    double_ru, double_en = (" — дубль" if a == b else ""), (", doubles" if a == b else "")
    params = {"seat": p, "dice": [a, b]}
    return [_line("RING_ROLL", params, f"{_ru(p)} бросил {a}+{b}{double_ru}.", f"{_en(p)} rolled {a}+{b}{double_en}.")]


@_lines.register
def _(event: e.TokenMoved) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    bonus_ru, bonus_en = (
        (" через «Старт»: +10" if event.passed_start else ""),
        (" past Start: +10" if event.passed_start else ""),
    )
    params = {"seat": event.seat, "square": event.square}
    return [
        _line("TOKEN_MOVED", params, f"{_ru(event.seat)} → {ru}{bonus_ru}.", f"{_en(event.seat)} → {en}{bonus_en}.")
    ]


@_lines.register
def _(event: e.DungeonEntered) -> list[JournalEntry]:
    p = event.seat
    return [
        _line("DUNGEON", {"seat": p, "reason": event.reason}, f"{_ru(p)} в Темнице.", f"{_en(p)} is in the Dungeon.")
    ]


@_lines.register
def _(event: e.DungeonLeft) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "DUNGEON_LEFT",
            {"seat": p, "how": event.how},
            f"{_ru(p)} вышел из Темницы {HOW_RU[event.how]}.",
            f"{_en(p)} left the Dungeon {HOW_EN[event.how]}.",
        )
    ]


@_lines.register
def _(event: e.LotBought) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p, price = event.seat, event.price
    params = {"seat": p, "square": event.square, "price": price}
    return [_line("LOT_BOUGHT", params, f"{_ru(p)} купил {ru} за {price}.", f"{_en(p)} bought {en} for {price}.")]


@_lines.register
def _(event: e.AuctionOpened) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    return [_line("AUCTION", {"square": event.square}, f"Аукцион: {ru}.", f"Auction: {en}.")]


@_lines.register
def _(event: e.BidPlaced) -> list[JournalEntry]:
    p, n = event.seat, event.amount
    return [_line("BID", {"seat": p, "amount": n}, f"{_ru(p)}: ставка {n}.", f"{_en(p)} bids {n}.")]


@_lines.register
def _(event: e.BidPassed) -> list[JournalEntry]:
    p = event.seat
    if event.reason == "gold":
        return [
            _line(
                "BID_PASS_GOLD",
                {"seat": p},
                f"{_ru(p)}: пас — золота не хватает, чтобы перебить ставку.",
                f"{_en(p)} passes: not enough gold to outbid.",
            )
        ]
    if event.reason == "out":
        return [
            _line(
                "BID_PASS_OUT",
                {"seat": p},
                f"{_ru(p)} выбыл и вышел из аукциона.",
                f"{_en(p)} is out of the game and of the auction.",
            )
        ]
    return [_line("BID_PASS", {"seat": p}, f"{_ru(p)}: пас.", f"{_en(p)} passes.")]


@_lines.register
def _(event: e.AuctionClosed) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    params = {"square": event.square, "winner": event.winner, "price": event.price}
    if event.winner < 0:
        return [_line("AUCTION_UNSOLD", params, f"{ru} остаётся у банка.", f"{en} stays with the bank.")]
    w, n = event.winner, event.price
    return [_line("AUCTION_WON", params, f"{_ru(w)} берёт {ru} за {n}.", f"{_en(w)} takes {en} for {n}.")]


@_lines.register
def _(event: e.RingCardDrawn) -> list[JournalEntry]:
    card = ring_card(event.card)
    return [
        _line(
            "RING_CARD",
            {"seat": event.seat, "card": card.id},
            f"{_ru(event.seat)}: {card.ru}",
            f"{_en(event.seat)}: {card.en}",
        )
    ]


@_lines.register
def _(event: e.BuildingBuilt) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p = event.seat
    params = {"seat": p, "square": event.square, "cost": event.cost}
    return [_line("BUILT", params, f"{_ru(p)} строит на {ru}.", f"{_en(p)} builds on {en}.")]


@_lines.register
def _(event: e.BuildingDemolished) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p, n = event.seat, event.refund
    params = {"seat": p, "square": event.square, "levels": event.levels, "refund": n}
    return [
        _line(
            "DEMOLISHED",
            params,
            f"Снос на {ru} за долг игрока {_ru(p)}: +{n}.",
            f"Demolished on {en} for {_en(p)}'s debt: +{n}.",
        )
    ]


@_lines.register
def _(event: e.LotMortgaged) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p, n = event.seat, event.amount
    params = {"seat": p, "square": event.square, "amount": n}
    return [_line("MORTGAGED", params, f"{_ru(p)} заложил {ru}: +{n}.", f"{_en(p)} mortgaged {en}: +{n}.")]


@_lines.register
def _(event: e.LotRedeemed) -> list[JournalEntry]:
    ru, en = _sq(event.square)
    p, n = event.seat, event.cost
    params = {"seat": p, "square": event.square, "cost": n}
    return [_line("REDEEMED", params, f"{_ru(p)} выкупил {ru} за {n}.", f"{_en(p)} redeemed {en} for {n}.")]


@_lines.register
def _(event: e.TradeOffered) -> list[JournalEntry]:
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


@_lines.register
def _(event: e.TradeAnswered) -> list[JournalEntry]:
    if event.accepted:
        return [_line("TRADE_DONE", {}, "Сделка заключена.", "The trade is done.")]
    return [_line("TRADE_DECLINED", {}, "Сделка отклонена.", "The trade is declined.")]


@_lines.register
def _(event: e.PieceSold) -> list[JournalEntry]:
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


@_lines.register
def _(event: e.DebtForgiven) -> list[JournalEntry]:
    p, n = event.seat, event.amount
    return [
        _line(
            "DEBT_FORGIVEN",
            {"seat": p, "amount": n},
            f"Игроку {p} прощено {n} долга.",
            f"{_en(p)}'s debt of {n} is forgiven.",
        )
    ]


@_lines.register
def _(event: e.LotsReturned) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "LOTS_RETURNED",
            {"seat": p},
            f"Участки игрока {_ru(p)} вернулись банку.",
            f"{_en(p)}'s lots went back to the bank.",
        )
    ]


@_lines.register
def _(event: e.SafeConductSpent) -> list[JournalEntry]:
    p = event.seat
    return [
        _line(
            "SAFE_CONDUCT",
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


@_lines.register
def _(event: e.GoldPaid) -> list[JournalEntry]:
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
