"""Preconditions shared by the rule modules; each raises a rule error with a stable reason."""

from __future__ import annotations

from puzzipolia.state import State
from tablehall_rules import NotYourTurn, illegal, invalid

# what the turn expects in each phase, said with the refusal of anything else
EXPECTED: dict[str, tuple[str, str]] = {
    "order": ("Roll for the turn order first.", "Сначала бросок за очерёдность."),
    "roll": ("Roll first.", "Сначала брось кубики."),
    "buy": ("Buy the lot or decline it first.", "Сначала купи участок или откажись."),
    "card67": ("Choose 6 or 7 first.", "Сначала выбери 6 или 7."),
    "end": ("The move is made: end the turn.", "Ход сделан: заверши его."),
    "auction": ("The auction goes first: bid or pass.", "Сначала аукцион: ставка или пас."),
    "moving": ("The move is under way.", "Ход ещё идёт."),
    "over": ("The game is over.", "Игра окончена."),
}


def require_active(st: State, seat: int, *phases: str) -> None:
    if st.active != seat:
        raise NotYourTurn()
    if st.phase not in phases:
        en, ru = EXPECTED.get(st.phase, ("Wait for your moment.", "Дождись своего момента."))
        raise illegal("WRONG_PHASE", f"This cannot be done now. {en}", f"Сейчас этого сделать нельзя. {ru}")


def require_no_debts(st: State) -> None:
    if st.debts:
        raise illegal("DEBTS_OPEN", "Open debts must be settled first.", "Сначала нужно закрыть долги.")


def require_no_own_debts(st: State, seat: int) -> None:
    if st.debts_of(seat):
        raise illegal("DEBTS_OPEN", "Settle your debts first.", "Сначала закрой свои долги.")


def require_no_auction(st: State) -> None:
    if st.auction is not None:
        raise illegal("AUCTION_RUNNING", "Not during an auction.", "Во время аукциона нельзя.")


def require_money(st: State, seat: int, amount: int) -> None:
    if st.player(seat).money < amount:
        raise illegal("NOT_ENOUGH_MONEY", f"You need {amount} pupy.", f"Нужно {amount} пуп.")


def require_square(st: State, square: int) -> None:
    if not 0 <= square < st.geometry.size:
        raise invalid("NO_SUCH_SQUARE", f"There is no square {square}.", f"Клетки {square} нет.")


def require_own_lot(st: State, seat: int, square: int) -> None:
    require_square(st, square)
    if st.owners[square] != seat:
        raise illegal("NOT_YOUR_LOT", "That lot is not yours.", "Этот участок не твой.")
