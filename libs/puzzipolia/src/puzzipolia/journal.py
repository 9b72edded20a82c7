"""The journal on `tablehall_rules.journal`'s convention: one entry per event, its code the
event's name in UPPER_SNAKE (`DICE_ROLLED`), its params the event's fields, a line in Russian
and English; no event is silent.

The lines read names of players and squares from the state before the event (any state of
the same table: names never change).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from puzzipolia import events as ev
from puzzipolia.cards import DECK_NAMES, card
from puzzipolia.evolve import evolve
from puzzipolia.state import PERSONAL_KINDS, State
from tablehall_rules.journal import JournalEntry, Lines, event_params
from tablehall_rules.journal import entry as journal_entry

Pair = tuple[str, str]  # (ru, en)
# every event has a line: the retired AfkChanged too (old streams' journals still read)
LINES = Lines()


def _line(*kinds: type[msgspec.Struct]) -> Callable[[Callable[..., Pair]], Callable[..., Pair]]:
    """Register `fn(event, names, who_ru, who_en) -> (ru, en)` as the line of `kinds`: the entry's
    code is the event's name in UPPER_SNAKE, its params the event's fields; a trade offer is
    read by its two parties only."""

    def register(fn: Callable[..., Pair]) -> Callable[..., Pair]:
        def render(event: Any, state: State) -> JournalEntry:
            names = _Names(state)
            seat = getattr(event, "seat", None)
            who = (names.who(seat), names.who_en(seat)) if hasattr(event, "seat") else ("", "")
            ru, en = fn(event, names, *who)
            audience = [event.proposer, event.recipient] if isinstance(event, ev.OfferMade) else None
            return journal_entry(event, ru, en, params=_params(event), audience=audience)

        LINES.of(*kinds)(render)
        return fn

    return register


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


@_line(ev.GameStarted)
def _game_started(e: ev.GameStarted, n: _Names, w: str, we: str) -> Pair:
    return (
        f"Игра началась: {_players_ru(len(e.seats))}, {_BOARD_RU.get(e.board, 'доска')}, "
        f"стартовые деньги {e.start_money}.",
        f"The game starts: {len(e.seats)} players, {_BOARD_EN.get(e.board, 'board')}, starting money {e.start_money}.",
    )


@_line(ev.StreetDealt)
def _street_dealt(e: ev.StreetDealt, n: _Names, w: str, we: str) -> Pair:
    return (f"{w} получает участок {n.sq_ru(e.square)}.", f"{we} is dealt {n.sq_en(e.square)}.")


@_line(ev.OrderRolled)
def _order_rolled(e: ev.OrderRolled, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} бросает за очерёдность: {e.dice[0]}+{e.dice[1]}.",
        f"{we} rolls for order: {e.dice[0]}+{e.dice[1]}.",
    )


@_line(ev.OrderDecided)
def _order_decided(e: ev.OrderDecided, n: _Names, w: str, we: str) -> Pair:
    return (
        "Порядок ходов: " + ", ".join(n.who(s) for s in e.order) + ".",
        "Turn order: " + ", ".join(n.who_en(s) for s in e.order) + ".",
    )


@_line(ev.TurnStarted)
def _turn_started(e: ev.TurnStarted, n: _Names, w: str, we: str) -> Pair:
    return (f"Круг {e.round}: ходит {w}.", f"Round {e.round}: {we} to play.")


@_line(ev.DiceRolled, ev.CardDiceRolled)
def _dice_rolled(e: ev.DiceRolled | ev.CardDiceRolled, n: _Names, w: str, we: str) -> Pair:
    d = e.dice
    tail_ru = " — дубль!" if d[0] == d[1] else ""
    tail_en = " — doubles!" if d[0] == d[1] else ""
    return (f"{w} бросает {d[0]}+{d[1]}{tail_ru}", f"{we} rolls {d[0]}+{d[1]}{tail_en}")


@_line(ev.Moved)
def _moved(e: ev.Moved, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} идёт с поля {n.sq_ru(e.from_square)} на {n.sq_ru(e.to_square)}.",
        f"{we} moves from {n.sq_en(e.from_square)} to {n.sq_en(e.to_square)}.",
    )


@_line(ev.SalaryPaid)
def _salary_paid(e: ev.SalaryPaid, n: _Names, w: str, we: str) -> Pair:
    return (f"{w} проходит «Старт»: +{e.amount}.", f"{we} passes GO: +{e.amount}.")


@_line(ev.FindPaid)
def _find_paid(e: ev.FindPaid, n: _Names, w: str, we: str) -> Pair:
    return (f"Находка! Банк платит {w} {e.amount}.", f"A find! The bank pays {we} {e.amount}.")


@_line(ev.PhaseChanged)
def _phase_changed(e: ev.PhaseChanged, n: _Names, w: str, we: str) -> Pair:
    if e.phase == "roll":
        return (f"{w} бросает ещё раз.", f"{we} rolls again.")
    return (f"{w} может закончить ход.", f"{we} may end the turn.")


@_line(ev.NoRent)
def _no_rent(e: ev.NoRent, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{n.sq_ru(e.square)} заложен — аренды нет.",
        f"{n.sq_en(e.square)} is mortgaged — no rent.",
    )


@_line(ev.SentToJail)
def _sent_to_jail(e: ev.SentToJail, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} отправляется в тюрьму {_JAIL_RU[e.reason]}.",
        f"{we} goes to jail {_JAIL_EN[e.reason]}.",
    )


@_line(ev.JailRollFailed)
def _jail_roll_failed(e: ev.JailRollFailed, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} не выбросил дубль (попытка {e.tries} из 3).",
        f"{we} rolled no doubles (try {e.tries} of 3).",
    )


@_line(ev.LeftJail)
def _left_jail(e: ev.LeftJail, n: _Names, w: str, we: str) -> Pair:
    return (f"{w} выходит из тюрьмы, {_LEFT_RU[e.how]}.", f"{we} leaves jail {_LEFT_EN[e.how]}.")


@_line(ev.PurchaseOffered)
def _purchase_offered(e: ev.PurchaseOffered, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} может купить {n.sq_ru(e.square)} за {n.st.geometry.squares[e.square].price}.",
        f"{we} may buy {n.sq_en(e.square)} for {n.st.geometry.squares[e.square].price}.",
    )


@_line(ev.LotBought)
def _lot_bought(e: ev.LotBought, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} покупает {n.sq_ru(e.square)} за {e.price}.",
        f"{we} buys {n.sq_en(e.square)} for {e.price}.",
    )


@_line(ev.PurchaseDeclined)
def _purchase_declined(e: ev.PurchaseDeclined, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} отказывается покупать «{n.sq_ru(e.square)}».",
        f"{we} declines {n.sq_en(e.square)}.",
    )


@_line(ev.AuctionOpened)
def _auction_opened(e: ev.AuctionOpened, n: _Names, w: str, we: str) -> Pair:
    return (
        f"Аукцион: {n.sq_ru(e.square)}, ставки от 10.",
        f"Auction: {n.sq_en(e.square)}, bids from 10.",
    )


@_line(ev.BidPlaced)
def _bid_placed(e: ev.BidPlaced, n: _Names, w: str, we: str) -> Pair:
    return (f"{w} ставит {e.amount}.", f"{we} bids {e.amount}.")


@_line(ev.AuctionPassed)
def _auction_passed(e: ev.AuctionPassed, n: _Names, w: str, we: str) -> Pair:
    return (f"{w} выходит из аукциона.", f"{we} drops out of the auction.")


@_line(ev.AuctionClosed)
def _auction_closed(e: ev.AuctionClosed, n: _Names, w: str, we: str) -> Pair:
    if e.winner is None:
        return (
            f"Ставок нет: {n.sq_ru(e.square)} остаётся ничьим.",
            f"No bids: {n.sq_en(e.square)} stays unowned.",
        )
    return (
        f"{n.who(e.winner)} выигрывает {n.sq_ru(e.square)} за {e.price}.",
        f"{n.who_en(e.winner)} wins {n.sq_en(e.square)} for {e.price}.",
    )


@_line(ev.CardDrawn)
def _card_drawn(e: ev.CardDrawn, n: _Names, w: str, we: str) -> Pair:
    k = card(e.card)
    deck_en, deck_ru = DECK_NAMES[e.deck]
    return (f"{w} тянет карточку «{deck_ru}»: {k.ru}", f"{we} draws {deck_en}: {k.en}")


@_line(ev.Choice67Made)
def _choice67_made(e: ev.Choice67Made, n: _Names, w: str, we: str) -> Pair:
    return (f"{w} выбирает {e.steps} полей.", f"{we} chooses {e.steps} squares.")


@_line(ev.MoneyTransferred)
def _money_transferred(e: ev.MoneyTransferred, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{n.who(e.payer).capitalize()} платит {n.to_ru(e.payee)} {e.amount}.",
        f"{n.who_en(e.payer).capitalize()} pays {n.who_en(e.payee)} {e.amount}.",
    )


@_line(ev.NothingHappened)
def _nothing_happened(e: ev.NothingHappened, n: _Names, w: str, we: str) -> Pair:
    return (f"Для {w} ничего не происходит.", f"Nothing happens for {we}.")


@_line(ev.DebtOpened)
def _debt_opened(e: ev.DebtOpened, n: _Names, w: str, we: str) -> Pair:
    why_ru = _REASONS_RU[e.reason] + (f" ({n.sq_ru(e.square)})" if e.square >= 0 else "")
    why_en = _REASONS_EN[e.reason] + (f" ({n.sq_en(e.square)})" if e.square >= 0 else "")
    return (
        f"{n.who(e.debtor)} должен {n.to_ru(e.creditor)} {e.amount}: {why_ru}.",
        f"{n.who_en(e.debtor)} owes {n.who_en(e.creditor)} {e.amount}: {why_en}.",
    )


@_line(ev.DebtPaid)
def _debt_paid(e: ev.DebtPaid, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{n.who(e.debtor)} платит {n.to_ru(e.creditor)} {e.amount}.",
        f"{n.who_en(e.debtor)} pays {n.who_en(e.creditor)} {e.amount}.",
    )


@_line(ev.AssetsLiquidated)
def _assets_liquidated(e: ev.AssetsLiquidated, n: _Names, w: str, we: str) -> Pair:
    ru = "; ".join(
        f"{'продан дом' if s.action == 'sell' else 'заложен'} {n.sq_ru(s.square)} (+{s.amount})" for s in e.steps
    )
    en = "; ".join(
        f"{'sold a building on' if s.action == 'sell' else 'mortgaged'} {n.sq_en(s.square)} (+{s.amount})"
        for s in e.steps
    )
    return (f"Сбор для {w}: {ru}.", f"Collecting for {we}: {en}.")


@_line(ev.PlayerEliminated)
def _player_eliminated(e: ev.PlayerEliminated, n: _Names, w: str, we: str) -> Pair:
    heir_ru = n.who(e.creditor)
    heir_en = n.who_en(e.creditor)
    cash = e.money if e.creditor is not None else 0
    verb_ru = {"bankrupt": "банкротится", "removed": "убран из игры"}.get(e.reason, "выходит из игры")
    verb_en = {"bankrupt": "goes bankrupt", "removed": "is removed from the game"}.get(e.reason, "leaves the game")
    return (
        f"{w} {verb_ru}. Постройки проданы банку за {e.buildings_refund}; "
        f"{heir_ru} получает участков: {len(e.lots)}, деньги: {cash}.",
        f"{we} {verb_en}. Buildings sold to the bank for {e.buildings_refund}; "
        f"{heir_en} takes {len(e.lots)} lots and {cash} pupy.",
    )


@_line(ev.BuildingBuilt)
def _building_built(e: ev.BuildingBuilt, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} строит на {n.sq_ru(e.square)} за {e.cost}.",
        f"{we} builds on {n.sq_en(e.square)} for {e.cost}.",
    )


@_line(ev.BuildingSold)
def _building_sold(e: ev.BuildingSold, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} продаёт постройку на {n.sq_ru(e.square)} за {e.refund}.",
        f"{we} sells a building on {n.sq_en(e.square)} for {e.refund}.",
    )


@_line(ev.LotMortgaged)
def _lot_mortgaged(e: ev.LotMortgaged, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} закладывает {n.sq_ru(e.square)}: +{e.amount}.",
        f"{we} mortgages {n.sq_en(e.square)}: +{e.amount}.",
    )


@_line(ev.LotRedeemed)
def _lot_redeemed(e: ev.LotRedeemed, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{w} выкупает {n.sq_ru(e.square)} за {e.amount}.",
        f"{we} redeems {n.sq_en(e.square)} for {e.amount}.",
    )


@_line(ev.OfferMade)
def _offer_made(e: ev.OfferMade, n: _Names, w: str, we: str) -> Pair:
    return (
        f"{n.who(e.proposer)} предлагает {n.who(e.recipient)} обмен: "
        f"{_bundle(n, e.give, True)} ⇄ {_bundle(n, e.get, True)}.",
        f"{n.who_en(e.proposer)} offers {n.who_en(e.recipient)} a trade: "
        f"{_bundle(n, e.give, False)} ⇄ {_bundle(n, e.get, False)}.",
    )


@_line(ev.OfferAccepted)
def _offer_accepted(e: ev.OfferAccepted, n: _Names, w: str, we: str) -> Pair:
    return (f"Обмен №{e.offer_id} принят.", f"Trade #{e.offer_id} accepted.")


@_line(ev.OfferDeclined)
def _offer_declined(e: ev.OfferDeclined, n: _Names, w: str, we: str) -> Pair:
    return (f"Обмен №{e.offer_id} отклонён.", f"Trade #{e.offer_id} declined.")


@_line(ev.OfferExpired)
def _offer_expired(e: ev.OfferExpired, n: _Names, w: str, we: str) -> Pair:
    return (f"Предложение №{e.offer_id} истекло.", f"Offer #{e.offer_id} expired.")


@_line(ev.OfferWithdrawn)
def _offer_withdrawn(e: ev.OfferWithdrawn, n: _Names, w: str, we: str) -> Pair:
    return (f"Предложение №{e.offer_id} отозвано.", f"Offer #{e.offer_id} withdrawn.")


@_line(ev.VoteOpened)
def _vote_opened(e: ev.VoteOpened, n: _Names, w: str, we: str) -> Pair:
    who_ru = "Хозяин стола" if e.proposer is None else n.who(e.proposer)
    who_en = "The host" if e.proposer is None else n.who_en(e.proposer)
    return (
        f"{who_ru} предлагает закончить игру для всех ■.",
        f"{who_en} proposes to end the game for all ■.",
    )


@_line(ev.VoteAnswered)
def _vote_answered(e: ev.VoteAnswered, n: _Names, w: str, we: str) -> Pair:
    return (f"{w} отвечает {'✓' if e.yes else '✗'}.", f"{we} answers {'✓' if e.yes else '✗'}.")


@_line(ev.VoteCancelled)
def _vote_cancelled(e: ev.VoteCancelled, n: _Names, w: str, we: str) -> Pair:
    return (
        f"Голосование отменено: {n.who(e.by)} против.",
        f"The vote is cancelled: {n.who_en(e.by)} said no.",
    )


@_line(ev.VoteFailed)
def _vote_failed(e: ev.VoteFailed, n: _Names, w: str, we: str) -> Pair:
    silent_ru = ", ".join(n.who(s) for s in e.silent)
    silent_en = ", ".join(n.who_en(s) for s in e.silent)
    return (
        f"Голосование не прошло: не ответили {silent_ru}.",
        f"The vote failed: no answer from {silent_en}.",
    )


@_line(ev.VotePassed)
def _vote_passed(e: ev.VotePassed, n: _Names, w: str, we: str) -> Pair:
    return ("Все согласны: игра заканчивается.", "Everybody agrees: the game ends.")


@_line(ev.ClockExpired)
def _clock_expired(e: ev.ClockExpired, n: _Names, w: str, we: str) -> Pair:
    ru, en = _DECISION_WORDS.get(e.kind, ("решение", "a decision"))
    if e.kind in PERSONAL_KINDS and _goes_away(n.st, e.seat):  # the ladder's first strike: AFK now
        return (f"{w}: кончилось время на {ru}. {_AWAY[0]}", f"{we} ran out of time for {en}. {_AWAY[1]}")
    return (f"{w}: кончилось время на {ru}.", f"{we} ran out of time for {en}.")


# what going AFK means to the others (a missed personal clock, a closed tab)
_AWAY = ("Не на месте: дальше часы 2 с.", "Away: 2-second clocks from now.")


def _goes_away(st: State, seat: int) -> bool:
    """The seat is not AFK yet (before the event)."""
    return st.has_seat(seat) and not st.is_away(seat)


@_line(ev.BackFromAfk)
def _back_from_afk(e: ev.BackFromAfk, n: _Names, w: str, we: str) -> Pair:
    return (f"{w} снова у стола.", f"{we} is back.")


@_line(ev.AfkChanged)
def _afk_changed(e: ev.AfkChanged, n: _Names, w: str, we: str) -> Pair:
    if e.afk:
        return (f"{w} не на месте: дальше часы 2 с.", f"{we} is away: 2-second clocks from now.")
    return (f"{w} снова у стола.", f"{we} is back.")


@_line(ev.PresenceChanged)
def _presence_changed(e: ev.PresenceChanged, n: _Names, w: str, we: str) -> Pair:
    if e.present:
        return (f"{w} вернулся к столу.", f"{we} returned to the table.")
    if _goes_away(n.st, e.seat):  # a closed tab is AFK at once
        return (f"{w} закрыл вкладку. {_AWAY[0]}", f"{we} closed the tab. {_AWAY[1]}")
    return (f"{w} закрыл вкладку.", f"{we} closed the tab.")


@_line(ev.ControllerChanged)
def _controller_changed(e: ev.ControllerChanged, n: _Names, w: str, we: str) -> Pair:
    if e.by_bot:
        return (f"За {w} играет бот.", f"A bot plays for {we}.")
    if n.st.has_seat(e.seat) and n.st.player(e.seat).is_bot:
        return (f"Место {w} занял игрок.", f"A person took the seat of {we}.")
    return (f"{w} вернул своё место.", f"{we} took their seat back.")


@_line(ev.GameEnded)
def _game_ended(e: ev.GameEnded, n: _Names, w: str, we: str) -> Pair:
    winners_ru = ", ".join(n.who(s) for s in e.places[0]) if e.places else "—"
    winners_en = ", ".join(n.who_en(s) for s in e.places[0]) if e.places else "—"
    return (
        f"Игра окончена: {_END_RU[e.reason]}. Первое место: {winners_ru}.",
        f"The game is over: {_END_EN[e.reason]}. First place: {winners_en}.",
    )


def _params(e: Any) -> dict[str, Any]:
    data = event_params(e)
    if isinstance(e, ev.GameStarted):
        data.pop("decks")  # the deck order stays secret
    if isinstance(e, ev.CardDrawn):
        k = card(e.card)
        data["text"] = {"ru": k.ru, "en": k.en}
    return data


def entries(state_before: State | None, event: msgspec.Struct) -> list[JournalEntry]:
    """The journal hook: names come from the table's seats; the first event brings them."""
    return LINES.entries(state_before if state_before is not None else evolve(None, event), event)


def entry(event: msgspec.Struct, state: State) -> JournalEntry:
    """The one entry of `event` (every event here has exactly one)."""
    (only,) = LINES.entries(state, event)
    return only
