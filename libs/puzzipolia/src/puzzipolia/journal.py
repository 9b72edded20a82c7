"""The journal: one entry per event, with a stable code, its parameters and a line in Russian and English.

`entry(event, state)` reads names of players and squares from `state` (any
state of the same table: names never change).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from puzzipolia import events as ev
from puzzipolia.cards import DECK_NAMES, card
from puzzipolia.state import State
from tablehall_rules.journal import JournalEntry

Lines = tuple[str, str]  # (ru, en)


def _players_ru(count: int) -> str:
    """«1 игрок», «3 игрока», «5 игроков», «22 игрока»."""
    if count % 10 == 1 and count % 100 != 11:
        return f"{count} игрок"
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return f"{count} игрока"
    return f"{count} игроков"


class _Names:
    def __init__(self, st: State) -> None:
        self.st = st

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "банк"
        return self.st.player(seat).name if self.st.has_seat(seat) else f"#{seat}"

    def to_ru(self, seat: int | None) -> str:
        """Whom (dative): «банку» for the bank, else the name."""
        return "банку" if seat is None else self.who(seat)

    def who_en(self, seat: int | None) -> str:
        return "the bank" if seat is None else self.who(seat)

    def sq_ru(self, index: int) -> str:
        return self.st.geometry.squares[index].ru

    def sq_en(self, index: int) -> str:
        return self.st.geometry.squares[index].en


_REASONS_RU = {"rent": "аренда", "tax": "налог", "card": "карточка", "jail_fine": "штраф за выход из тюрьмы"}
_REASONS_EN = {"rent": "rent", "tax": "tax", "card": "card", "jail_fine": "jail fine"}
_JAIL_RU = {"square": "с поля «в тюрьму»", "card": "по карточке", "three_doubles": "за три дубля подряд"}
_JAIL_EN = {
    "square": "from the Go to Jail square",
    "card": "by a card",
    "three_doubles": "for three doubles in a row",
}
_LEFT_RU = {
    "fine": "заплатив 50",
    "card": "сдав карточку",
    "doubles": "выбросив дубль",
    "three_tries": "после трёх попыток",
}
_LEFT_EN = {
    "fine": "by paying 50",
    "card": "by using a card",
    "doubles": "by rolling doubles",
    "three_tries": "after three tries",
}
# what a clock ran out on (PendingDecision.kind), as a person says it
_DECISION_WORDS = {
    "order_roll": ("бросок за очерёдность", "the order roll"),
    "roll": ("бросок", "the roll"),
    "jail": ("ход из тюрьмы", "the move out of jail"),
    "buy": ("покупку", "the purchase"),
    "card67": ("выбор 6 или 7", "the choice of 6 or 7"),
    "end_turn": ("конец хода", "ending the turn"),
    "debt": ("оплату долга", "paying the debt"),
    "auction": ("ставку", "the bid"),
    "auction_pass": ("ставку", "the bid"),
    "vote_answer": ("голосование", "the vote"),
    "offer_answer": ("ответ на предложение", "answering the offer"),
}
_BOARD_RU = {"classic": "обычная доска", "large": "большая доска"}
_BOARD_EN = {"classic": "the classic board", "large": "the large board"}
_END_RU = {
    "last_standing": "остался последний игрок",
    "round_limit": "кончились круги",
    "vote": "все согласились закончить",
    "operator": "владелец сайта закрыл стол",
    "idle": "стол простоял час без ходов",
}
_END_EN = {
    "last_standing": "one player is left",
    "round_limit": "the round limit is reached",
    "vote": "everybody agreed to end",
    "operator": "the site owner closed the table",
    "idle": "the table was idle for an hour",
}


def _bundle(n: _Names, b: Any, ru: bool) -> str:
    parts = [n.sq_ru(i) if ru else n.sq_en(i) for i in b.lots]
    if b.money:
        parts.append(f"{b.money} пуп" if ru else f"{b.money} pupy")
    if b.cards:
        parts.append(f"карточки: {len(b.cards)}" if ru else f"cards: {len(b.cards)}")
    return ", ".join(parts) or "—"


def _lines(e: Any, n: _Names) -> Lines:
    w = n.who(getattr(e, "seat", None)) if hasattr(e, "seat") else ""
    we = n.who_en(getattr(e, "seat", None)) if hasattr(e, "seat") else ""
    match e:
        case ev.GameStarted():
            return (
                f"Игра началась: {_players_ru(len(e.seats))}, {_BOARD_RU.get(e.board, 'доска')}, "
                f"стартовые деньги {e.start_money}.",
                f"The game starts: {len(e.seats)} players, {_BOARD_EN.get(e.board, 'board')}, "
                f"starting money {e.start_money}.",
            )
        case ev.StreetDealt():
            return (f"{w} получает участок {n.sq_ru(e.square)}.", f"{we} is dealt {n.sq_en(e.square)}.")
        case ev.OrderRolled():
            return (
                f"{w} бросает за очерёдность: {e.dice[0]}+{e.dice[1]}.",
                f"{we} rolls for order: {e.dice[0]}+{e.dice[1]}.",
            )
        case ev.OrderDecided():
            return (
                "Порядок ходов: " + ", ".join(n.who(s) for s in e.order) + ".",
                "Turn order: " + ", ".join(n.who_en(s) for s in e.order) + ".",
            )
        case ev.TurnStarted():
            return (f"Круг {e.round}: ходит {w}.", f"Round {e.round}: {we} to play.")
        case ev.DiceRolled() | ev.CardDiceRolled():
            d = e.dice
            tail_ru = " — дубль!" if d[0] == d[1] else ""
            tail_en = " — doubles!" if d[0] == d[1] else ""
            return (f"{w} бросает {d[0]}+{d[1]}{tail_ru}", f"{we} rolls {d[0]}+{d[1]}{tail_en}")
        case ev.Moved():
            return (
                f"{w} идёт с поля {n.sq_ru(e.from_square)} на {n.sq_ru(e.to_square)}.",
                f"{we} moves from {n.sq_en(e.from_square)} to {n.sq_en(e.to_square)}.",
            )
        case ev.SalaryPaid():
            return (f"{w} проходит «Старт»: +{e.amount}.", f"{we} passes GO: +{e.amount}.")
        case ev.FindPaid():
            return (f"Находка! Банк платит {w} {e.amount}.", f"A find! The bank pays {we} {e.amount}.")
        case ev.PhaseChanged():
            if e.phase == "roll":
                return (f"{w} бросает ещё раз.", f"{we} rolls again.")
            return (f"{w} может закончить ход.", f"{we} may end the turn.")
        case ev.NoRent():
            return (
                f"{n.sq_ru(e.square)} заложен — аренды нет.",
                f"{n.sq_en(e.square)} is mortgaged — no rent.",
            )
        case ev.SentToJail():
            return (
                f"{w} отправляется в тюрьму {_JAIL_RU[e.reason]}.",
                f"{we} goes to jail {_JAIL_EN[e.reason]}.",
            )
        case ev.JailRollFailed():
            return (
                f"{w} не выбросил дубль (попытка {e.tries} из 3).",
                f"{we} rolled no doubles (try {e.tries} of 3).",
            )
        case ev.LeftJail():
            return (f"{w} выходит из тюрьмы, {_LEFT_RU[e.how]}.", f"{we} leaves jail {_LEFT_EN[e.how]}.")
        case ev.PurchaseOffered():
            return (
                f"{w} может купить {n.sq_ru(e.square)} за {n.st.geometry.squares[e.square].price}.",
                f"{we} may buy {n.sq_en(e.square)} for {n.st.geometry.squares[e.square].price}.",
            )
        case ev.LotBought():
            return (
                f"{w} покупает {n.sq_ru(e.square)} за {e.price}.",
                f"{we} buys {n.sq_en(e.square)} for {e.price}.",
            )
        case ev.PurchaseDeclined():
            return (
                f"{w} отказывается покупать «{n.sq_ru(e.square)}».",
                f"{we} declines {n.sq_en(e.square)}.",
            )
        case ev.AuctionOpened():
            return (
                f"Аукцион: {n.sq_ru(e.square)}, ставки от 10.",
                f"Auction: {n.sq_en(e.square)}, bids from 10.",
            )
        case ev.BidPlaced():
            return (f"{w} ставит {e.amount}.", f"{we} bids {e.amount}.")
        case ev.AuctionPassed():
            return (f"{w} выходит из аукциона.", f"{we} drops out of the auction.")
        case ev.AuctionClosed():
            if e.winner is None:
                return (
                    f"Ставок нет: {n.sq_ru(e.square)} остаётся ничьим.",
                    f"No bids: {n.sq_en(e.square)} stays unowned.",
                )
            return (
                f"{n.who(e.winner)} выигрывает {n.sq_ru(e.square)} за {e.price}.",
                f"{n.who_en(e.winner)} wins {n.sq_en(e.square)} for {e.price}.",
            )
        case ev.CardDrawn():
            k = card(e.card)
            deck_en, deck_ru = DECK_NAMES[e.deck]
            return (f"{w} тянет карточку «{deck_ru}»: {k.ru}", f"{we} draws {deck_en}: {k.en}")
        case ev.Choice67Made():
            return (f"{w} выбирает {e.steps} полей.", f"{we} chooses {e.steps} squares.")
        case ev.MoneyTransferred():
            return (
                f"{n.who(e.payer).capitalize()} платит {n.to_ru(e.payee)} {e.amount}.",
                f"{n.who_en(e.payer).capitalize()} pays {n.who_en(e.payee)} {e.amount}.",
            )
        case ev.NothingHappened():
            return (f"Для {w} ничего не происходит.", f"Nothing happens for {we}.")
        case ev.DebtOpened():
            why_ru = _REASONS_RU[e.reason] + (f" ({n.sq_ru(e.square)})" if e.square >= 0 else "")
            why_en = _REASONS_EN[e.reason] + (f" ({n.sq_en(e.square)})" if e.square >= 0 else "")
            return (
                f"{n.who(e.debtor)} должен {n.to_ru(e.creditor)} {e.amount}: {why_ru}.",
                f"{n.who_en(e.debtor)} owes {n.who_en(e.creditor)} {e.amount}: {why_en}.",
            )
        case ev.DebtPaid():
            return (
                f"{n.who(e.debtor)} платит {n.to_ru(e.creditor)} {e.amount}.",
                f"{n.who_en(e.debtor)} pays {n.who_en(e.creditor)} {e.amount}.",
            )
        case ev.AssetsLiquidated():
            ru = "; ".join(
                f"{'продан дом' if s.action == 'sell' else 'заложен'} {n.sq_ru(s.square)} (+{s.amount})"
                for s in e.steps
            )
            en = "; ".join(
                f"{'sold a building on' if s.action == 'sell' else 'mortgaged'} {n.sq_en(s.square)} (+{s.amount})"
                for s in e.steps
            )
            return (f"Сбор для {w}: {ru}.", f"Collecting for {we}: {en}.")
        case ev.PlayerEliminated():
            heir_ru = n.who(e.creditor)
            heir_en = n.who_en(e.creditor)
            cash = e.money if e.creditor is not None else 0
            verb_ru = {"bankrupt": "банкротится", "removed": "убран из игры"}.get(e.reason, "выходит из игры")
            verb_en = {"bankrupt": "goes bankrupt", "removed": "is removed from the game"}.get(
                e.reason, "leaves the game"
            )
            return (
                f"{w} {verb_ru}. Постройки проданы банку за {e.buildings_refund}; "
                f"{heir_ru} получает участков: {len(e.lots)}, деньги: {cash}.",
                f"{we} {verb_en}. Buildings sold to the bank for {e.buildings_refund}; "
                f"{heir_en} takes {len(e.lots)} lots and {cash} pupy.",
            )
        case ev.BuildingBuilt():
            return (
                f"{w} строит на {n.sq_ru(e.square)} за {e.cost}.",
                f"{we} builds on {n.sq_en(e.square)} for {e.cost}.",
            )
        case ev.BuildingSold():
            return (
                f"{w} продаёт постройку на {n.sq_ru(e.square)} за {e.refund}.",
                f"{we} sells a building on {n.sq_en(e.square)} for {e.refund}.",
            )
        case ev.LotMortgaged():
            return (
                f"{w} закладывает {n.sq_ru(e.square)}: +{e.amount}.",
                f"{we} mortgages {n.sq_en(e.square)}: +{e.amount}.",
            )
        case ev.LotRedeemed():
            return (
                f"{w} выкупает {n.sq_ru(e.square)} за {e.amount}.",
                f"{we} redeems {n.sq_en(e.square)} for {e.amount}.",
            )
        case ev.OfferMade():
            return (
                f"{n.who(e.proposer)} предлагает {n.who(e.recipient)} обмен: "
                f"{_bundle(n, e.give, True)} ⇄ {_bundle(n, e.get, True)}.",
                f"{n.who_en(e.proposer)} offers {n.who_en(e.recipient)} a trade: "
                f"{_bundle(n, e.give, False)} ⇄ {_bundle(n, e.get, False)}.",
            )
        case ev.OfferAccepted():
            return (f"Обмен №{e.offer_id} принят.", f"Trade #{e.offer_id} accepted.")
        case ev.OfferDeclined():
            return (f"Обмен №{e.offer_id} отклонён.", f"Trade #{e.offer_id} declined.")
        case ev.OfferExpired():
            return (f"Предложение №{e.offer_id} истекло.", f"Offer #{e.offer_id} expired.")
        case ev.OfferWithdrawn():
            return (f"Предложение №{e.offer_id} отозвано.", f"Offer #{e.offer_id} withdrawn.")
        case ev.VoteOpened():
            who_ru = "Хозяин стола" if e.proposer is None else n.who(e.proposer)
            who_en = "The host" if e.proposer is None else n.who_en(e.proposer)
            return (
                f"{who_ru} предлагает закончить игру для всех ■.",
                f"{who_en} proposes to end the game for all ■.",
            )
        case ev.VoteAnswered():
            return (f"{w} отвечает {'✓' if e.yes else '✗'}.", f"{we} answers {'✓' if e.yes else '✗'}.")
        case ev.VoteCancelled():
            return (
                f"Голосование отменено: {n.who(e.by)} против.",
                f"The vote is cancelled: {n.who_en(e.by)} said no.",
            )
        case ev.VoteFailed():
            silent_ru = ", ".join(n.who(s) for s in e.silent)
            silent_en = ", ".join(n.who_en(s) for s in e.silent)
            return (
                f"Голосование не прошло: не ответили {silent_ru}.",
                f"The vote failed: no answer from {silent_en}.",
            )
        case ev.VotePassed():
            return ("Все согласны: игра заканчивается.", "Everybody agrees: the game ends.")
        case ev.ClockExpired():
            ru, en = _DECISION_WORDS.get(e.kind, ("решение", "a decision"))
            return (f"{w}: кончилось время на {ru}.", f"{we} ran out of time for {en}.")
        case ev.AfkChanged():
            if e.afk:
                return (f"{w} не на месте: дальше часы 2 с.", f"{we} is away: 2-second clocks from now.")
            return (f"{w} снова у стола.", f"{we} is back.")
        case ev.PresenceChanged():
            if e.present:
                return (f"{w} вернулся к столу.", f"{we} returned to the table.")
            return (f"{w} закрыл вкладку.", f"{we} closed the tab.")
        case ev.ControllerChanged():
            if e.by_bot:
                return (f"За {w} играет бот.", f"A bot plays for {we}.")
            if n.st.has_seat(e.seat) and n.st.player(e.seat).is_bot:
                return (f"Место {w} занял игрок.", f"A person took the seat of {we}.")
            return (f"{w} вернул своё место.", f"{we} took their seat back.")
        case ev.GameEnded():
            winners_ru = ", ".join(n.who(s) for s in e.places[0]) if e.places else "—"
            winners_en = ", ".join(n.who_en(s) for s in e.places[0]) if e.places else "—"
            return (
                f"Игра окончена: {_END_RU[e.reason]}. Первое место: {winners_ru}.",
                f"The game is over: {_END_EN[e.reason]}. First place: {winners_en}.",
            )
    raise ValueError(f"no journal line for {type(e).__name__}")


def _code(e: Any) -> str:
    name = type(e).__name__
    return "".join(f"_{ch}" if ch.isupper() and i else ch for i, ch in enumerate(name)).upper()


def _params(e: Any) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(e)
    data.pop("type", None)
    if isinstance(e, ev.GameStarted):
        data.pop("decks")  # the deck order stays secret
    if isinstance(e, ev.CardDrawn):
        k = card(e.card)
        data["text"] = {"ru": k.ru, "en": k.en}
    return data


def entry(event: Any, state: State) -> JournalEntry:
    ru, en = _lines(event, _Names(state))
    audience = [event.proposer, event.recipient] if isinstance(event, ev.OfferMade) else None
    return JournalEntry(code=_code(event), params=_params(event), ru=ru, en=en, audience=audience)


Renderer = Callable[[Any, State], JournalEntry]
